import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a JSON reader knows before the first chunk: the keys to look up, and, for CSV output, the
/// columns.
struct JSONInputPlan: Sendable {
    /// NDJSON (a record a line) or the elements of one array.
    var isArray: Bool
    /// The spec columns' keys, in spec order: a record's first slots.
    var maskedKeys: [String]
    /// Keys maskclean adds; a record that already has one is malformed for this spec.
    var addedKeys: [String]
    /// For CSV output: the input columns (the first record's keys), the slots after the masked
    /// keys'.
    var csvColumns: [String]?
    /// The input's name, for messages.
    var file: String
    /// An NDJSON line longer than this, its line end aside, is a bad record (docs/command-line.md,
    /// Limits), however the input was cut into chunks.
    var maximumRecordBytes = Int.max
    /// For JSON output, for each masked key whose path goes through an object: the members
    /// maskclean adds inside that object (`phone_formatted` of `contact.phone`), which a record
    /// must not have already.
    var addedMembers: [[String]] = []
    /// For JSON output, for each spec column, its added columns' names as the spec gives them.
    var addedOfColumn: [[String]] = []
    /// For JSON output: the masked keys (spec columns) whose added cells go inside an object of
    /// the record, in spec order (`JSONNestedCells.placed`).
    var placedColumns: [Int] = []
    /// `addedMembers` as bytes.
    var addedMemberBytes: [[[UInt8]]] { addedMembers.map { $0.map { Array($0.utf8) } } }

    /// A record's slots in a batch: its masked keys' values, then its columns' for CSV output.
    var slots: Int { maskedKeys.count + (csvColumns?.count ?? 0) }
}

/// Reads a chunk of JSON records (NDJSON, or the elements of one array) into a record batch
/// with `JSONScanner`: each record's bytes as read, and the values of the keys the run asks for,
/// decoded where the JSON escapes them. Owns everything about JSON's framing: lines, the array's
/// brackets and commas, broken records and keys; knows nothing of masking or output.
final class JSONRecordReader: RecordReader {
    let plan: JSONInputPlan
    /// The keys a record's members are looked up among.
    let wantedKeys: JSONWantedKeys
    /// For CSV output: the input columns by key.
    let csvColumnIndex: [String: Int]
    /// Each masked key's path into a record, for those whose name is one of more than one step
    /// (`contact.phone`): its value is found by following it, unless the record has a member
    /// named as the spec wrote it, which wins.
    let paths: [JSONPath?]
    let hasPaths: Bool
    /// For each masked key, the value its path found in the record being read; whether the
    /// path's first key was met.
    let pathValues: UnsafeMutableBufferPointer<JSONToken?>
    let pathRootsSeen: UnsafeMutableBufferPointer<Bool>
    /// What is wrong with each path in the record being read, unless its literal member wins.
    let pathProblems: UnsafeMutableBufferPointer<RecordProblem?>
    /// For each of `plan.addedKeys`, the masked key of the nested column that adds it at the top
    /// level only when read by its literal member, or -1; for each such column, one of its added
    /// keys the record has at its top level (an index into `plan.addedKeys`), or -1.
    let addedOwner: [Int]
    let topLevelAddedSeen: UnsafeMutableBufferPointer<Int>
    /// `plan.addedMemberBytes`, made once.
    let addedMemberBytes: [[[UInt8]]]
    /// For each masked key, its index among `plan.placedColumns`, or -1; where the record being
    /// read has each placed column's object.
    let placeOfColumn: [Int]
    let places: UnsafeMutableBufferPointer<RecordBatch.NestedPlace>
    /// Keys spelled outside ASCII may come in another normalization form than the spec's.
    let hasNonASCIIMaskedKeys: Bool
    /// `plan.csvColumns != nil`, asked once per member: reading it from `plan` there would cost
    /// more than the question. Every member is then looked at, not just those a wanted key may
    /// be spelled as.
    let writesCSV: Bool

    // The chunk and record being read. A reader belongs to one worker at a time, so exclusivity
    // is checked statically. The per-record state is plain memory, one slot per key: setting a
    // member's slot is a store, with no array's uniqueness check.
    /// The batch each read fills, the reader's own: a constant, reached in place with no
    /// reference counted per field.
    let batch = RecordBatch()
    /// Where the chunk starts: the scanners' ranges are turned into the batch's from it.
    @exclusivity(unchecked) var chunkStart = UnsafePointer<UInt8>(bitPattern: 1)!
    let maskedValues: UnsafeMutableBufferPointer<JSONToken?>
    let csvValues: UnsafeMutableBufferPointer<JSONToken?>
    /// Whether a record of the chunk has each masked key: kept here, not in `result`, so that
    /// noting one is a plain store.
    let maskedKeysSeen: UnsafeMutableBufferPointer<Bool>
    /// What is wrong with the member `noteMember` last refused.
    @exclusivity(unchecked) var memberProblem: RecordProblem?
    /// Until the chunk's first record is read, its keys are noted in `result.keysSeen`.
    @exclusivity(unchecked) var notesKeys = false
    /// Whether ordinary records are read in one pass (`readOrdinaryRecord`); off only in tests
    /// that hold the general reading up against it.
    @exclusivity(unchecked) var readsInOnePass = true

    /// How reading one record went.
    enum Outcome: Equatable {
        case read
        /// Noted as bad, and the scanner is past it.
        case rejected
        /// Not valid JSON: the caller finds where the next record starts.
        case broken(RecordProblem)
    }

    init(plan: JSONInputPlan) {
        self.plan = plan
        let paths = plan.maskedKeys.map { JSONPath($0) }
        // `["a.b"]` alone is the top-level key `a.b`.
        let lookedUp = zip(plan.maskedKeys, paths).map { name, path in
            path?.isTopLevel == true ? path!.rootKey : name
        }
        self.paths = paths.map { $0?.isTopLevel == true ? nil : $0 }
        self.hasPaths = self.paths.contains { $0 != nil }
        self.wantedKeys = JSONWantedKeys(
            masked: lookedUp, added: plan.addedKeys,
            nested: self.paths.enumerated().compactMap { index, path in path.map { ($0.rootKey, index) } })
        self.pathValues = Self.slots(plan.maskedKeys.count, nil)
        self.pathRootsSeen = Self.slots(plan.maskedKeys.count, false)
        self.pathProblems = Self.slots(plan.maskedKeys.count, nil)
        self.topLevelAddedSeen = Self.slots(plan.maskedKeys.count, -1)
        var addedOwner = Array(repeating: -1, count: plan.addedKeys.count)
        for (column, members) in plan.addedMembers.enumerated() where !members.isEmpty {
            for name in plan.addedOfColumn[column] {
                if let added = plan.addedKeys.firstIndex(of: name) { addedOwner[added] = column }
            }
        }
        self.addedOwner = addedOwner
        self.addedMemberBytes = plan.addedMemberBytes
        var placeOfColumn = Array(repeating: -1, count: plan.maskedKeys.count)
        for (place, column) in plan.placedColumns.enumerated() { placeOfColumn[column] = place }
        self.placeOfColumn = placeOfColumn
        self.places = Self.slots(plan.placedColumns.count, .recordEnd)
        self.csvColumnIndex = Dictionary(
            (plan.csvColumns ?? []).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.maskedValues = Self.slots(plan.maskedKeys.count, nil)
        self.hasNonASCIIMaskedKeys = plan.maskedKeys.contains { $0.utf8.contains { $0 >= 0x80 } }
        self.maskedKeysSeen = Self.slots(plan.maskedKeys.count, false)
        self.csvValues = Self.slots(plan.csvColumns?.count ?? 0, nil)
        self.writesCSV = plan.csvColumns != nil
    }

    deinit {
        wantedKeys.deallocate()
        maskedValues.deallocate()
        csvValues.deallocate()
        maskedKeysSeen.deallocate()
        pathValues.deallocate()
        pathRootsSeen.deallocate()
        // Its problems hold strings: released before the memory goes.
        _ = pathProblems.deinitialize()
        pathProblems.deallocate()
        topLevelAddedSeen.deallocate()
        places.deallocate()
    }

    private static func slots<Slot>(_ count: Int, _ initial: Slot) -> UnsafeMutableBufferPointer<Slot> {
        let slots = UnsafeMutableBufferPointer<Slot>.allocate(capacity: count)
        slots.initialize(repeating: initial)
        return slots
    }

    /// Reads `chunk` into `batch`, whose spans then point into the chunk.
    func read(_ chunk: Chunk) {
        batch.reset(chunk.bytes)
        batch.textIsUTF8 = true
        batch.placesPerRecord = places.count
        chunkStart = chunk.bytes.baseAddress ?? chunkStart
        for index in maskedKeysSeen.indices { maskedKeysSeen[index] = false }
        notesKeys = true
        if plan.isArray {
            readArrayElements(chunk.bytes, chunk: chunk)
        } else {
            readLines(chunk.bytes, chunk: chunk)
        }
        batch.maskedKeysSeen = Array(maskedKeysSeen)
    }

    // MARK: Cutting records out of the chunk

    func readLines(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
        var line = chunk.firstLine
        var start = 0
        while start < bytes.count {
            if bytes.count - start > plan.maximumRecordBytes,
                let next = passLongLine(bytes, at: start, line: line)
            {
                line += 1
                start = next
                continue
            }
            if readsInOnePass, !notesKeys, let (_, next) = ordinaryLine(bytes, at: start, line: line) {
                line += 1
                start = next
                continue
            }
            var end = bytes.count
            if let feed = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
                end = bytes.baseAddress!.distance(to: feed.assumingMemoryBound(to: UInt8.self))
            }
            let next = min(end + 1, bytes.count)
            defer {
                line += 1
                start = next
            }
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            guard scanner.peek() != nil else { continue }  // a blank line holds no record
            let raw = bytes[start..<next]
            switch record(&scanner, line: line, raw: raw, onePass: false) {
            case .read, .rejected: continue
            case .broken(let problem): _ = reject(problem, line: line, raw: raw)
            }
        }
    }

    /// Rejects the line at `start` when it is longer than the longest record (its LF or CRLF
    /// aside), and returns where the next begins; nil for a line within the limit. Only a chunk
    /// with more than that many bytes left can hold one.
    private func passLongLine(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, line: Int) -> Int? {
        var end = bytes.count
        if let feed = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
            end = bytes.baseAddress!.distance(to: feed.assumingMemoryBound(to: UInt8.self))
        }
        let next = min(end + 1, bytes.count)
        if end < bytes.count && end > start && bytes[end - 1] == 0x0D { end -= 1 }
        guard end - start > plan.maximumRecordBytes else { return nil }
        _ = reject(.tooLong(maximum: plan.maximumRecordBytes), line: line, raw: bytes[start..<next])
        return next
    }

    func readArrayElements(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
        var scanner = JSONScanner(bytes)
        var line = chunk.firstLine
        var counted = 0
        func lineAt(_ offset: Int) -> Int {
            while counted < offset {
                if bytes[counted] == 0x0A { line += 1 }
                counted += 1
            }
            return line
        }
        var missingComma = false
        var lastWasBroken = false
        // Every chunk but the first starts just after the comma that ended a record.
        var afterComma = !chunk.isFirst
        while let next = scanner.peek() {
            let start = scanner.position
            if next == UInt8(ascii: "]") {
                guard !afterComma else {
                    batch.fatal = .data(
                        plan.file, line: lineAt(start), "a comma before ']': a trailing comma is not JSON")
                    return
                }
                scanner.position += 1
                guard chunk.isLast, scanner.peek() == nil else {
                    batch.fatal = .data(
                        plan.file, line: lineAt(scanner.position), "unexpected text after the array")
                    return
                }
                return
            }
            afterComma = false
            let recordLine = lineAt(start)
            let outcome: Outcome =
                missingComma
                ? .broken(.missingCommaBetweenRecords) : record(&scanner, line: recordLine, raw: nil)
            // A record is followed by a comma, or by the closing bracket.
            if case .broken = outcome {
            } else if scanner.peek() == UInt8(ascii: ",") {
                scanner.position += 1
                afterComma = true
            } else {
                missingComma = scanner.peek() != UInt8(ascii: "]") && !scanner.isAtEnd
            }
            lastWasBroken = false
            switch outcome {
            case .read, .rejected: continue
            case .broken(let problem):
                lastWasBroken = true
                // The broken record ends at the first comma between records after its start,
                // found as the reader finds them, or at the `]` that closes the array: one
                // broken record costs one record, never the ones after it.
                var splitter = JSONArraySplitter()
                let found = splitter.scanToFirstBoundary(UnsafeBufferPointer(rebasing: bytes[start...]))
                let end: Int
                var recordEnd: Int?
                if let boundary = found.boundary {
                    end = start + boundary
                    recordEnd = end - 1  // the comma between records is not part of it
                    afterComma = true
                } else if let close = found.arrayEnd {
                    end = start + close
                } else if chunk.isLast && !splitter.isBroken {
                    end = bytes.count  // the input ends inside the record
                } else {
                    batch.fatal = .data(
                        plan.file, line: recordLine,
                        "\(problem); where the next record starts cannot be told, so the run stops here")
                    return
                }
                _ = reject(problem, line: recordLine, raw: bytes[start..<(recordEnd ?? end)])
                scanner.position = end
                missingComma = false
            }
        }
        // A truncated array: the file is not what it claims. Unless its last record was just
        // rejected as broken (the same truncation), the missing end counts as a bad record.
        if chunk.isLast && !lastWasBroken {
            _ = reject(.arrayNotClosed, line: lineAt(bytes.count), raw: bytes[bytes.count...])
        }
    }

    // MARK: Bad records

    /// Notes a bad record, `raw` its bytes as read.
    @inline(never)  // the bad records' path, kept out of the good records' code
    func reject(_ problem: RecordProblem, line: Int, raw: Slice<UnsafeBufferPointer<UInt8>>)
        -> Outcome
    {
        batch.appendBad(problem, line: line, raw: chunkRange(raw))
        return .rejected
    }

    /// Where `bytes`, a slice of the chunk or of a part of it, lies in the chunk.
    func chunkRange(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Range<Int> {
        let shift = bytes.base.baseAddress.map { chunkStart.distance(to: $0) } ?? 0
        return (bytes.startIndex + shift)..<(bytes.endIndex + shift)
    }
}
