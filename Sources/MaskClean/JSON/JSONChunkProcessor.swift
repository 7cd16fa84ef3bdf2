import Foundation

/// What a JSON run knows before the first chunk: the keys to mask and add, and, for CSV output,
/// the columns.
struct JSONInputPlan: Sendable {
    /// NDJSON (a record a line) or the elements of one array.
    var isArray: Bool
    /// The spec columns' keys, in spec order.
    var maskedKeys: [String]
    /// Keys maskclean adds; a record that already has one is malformed for this spec.
    var addedKeys: [String]
    /// For CSV output: the input columns (the first record's keys).
    var csvColumns: [String]?
    /// What becomes of a bad record, and the input's name for messages.
    var rejectPolicy: RejectPolicy

    var file: String { rejectPolicy.file }
}

/// Reads JSON records with `JSONScanner`: every value maskclean does not mask is copied through
/// as the bytes it was (a 23-digit id, `0.10`, `1e400`); masked values are decoded.
final class JSONChunkProcessor: ChunkProcessor {
    let plan: JSONInputPlan
    let encoder: RecordEncoder
    let masker: CellMasker
    /// The keys a record's members are looked up among.
    let wantedKeys: JSONWantedKeys
    /// For CSV output: the input columns by key.
    let csvColumnIndex: [String: Int]
    /// JSON to CSV: for each CSV column, the spec column that replaces it, or -1.
    let replacingColumnOfCSV: [Int]
    /// Where each replacing column's value lies among the masker's premasked bytes, this record.
    @exclusivity(unchecked) var replacements: [Range<Int>?]
    /// Keys spelled outside ASCII may come in another normalization form than the spec's.
    let hasNonASCIIMaskedKeys: Bool
    /// `plan.csvColumns != nil` and `--escape-formulas` to JSON, asked once per member: reading
    /// them from `plan` and `encoder` there would cost more than the question.
    let writesCSV: Bool
    let marksFormulasInJSON: Bool
    /// Either: every member is looked at, not just those a wanted key may be spelled as.
    let asksEveryMember: Bool

    // The chunk and record being processed. A processor belongs to one worker at a time, so
    // exclusivity is checked statically. The per-record state is plain memory, one slot per
    // key: setting a member's slot is a store, with no array's uniqueness check.
    @exclusivity(unchecked) var result = ChunkResult()
    @exclusivity(unchecked) var output = ByteBuffer()
    let maskedValues: UnsafeMutableBufferPointer<JSONToken?>
    let csvValues: UnsafeMutableBufferPointer<JSONToken?>
    /// Each masked value's text: where it lies in the chunk when its bytes are its text (a
    /// string without escapes, a number without exponent; empty for a missing or null value),
    /// else nil: decoded into `decoded`.
    let maskedText: UnsafeMutableBufferPointer<Range<Int>?>
    @exclusivity(unchecked) var decoded: [[UInt8]]
    /// `--escape-formulas` to JSON: where a `'` goes in the record's own string values.
    @exclusivity(unchecked) var formulaInsertions: [Int] = []
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
        case written
        /// Rejected, and the scanner is past it.
        case rejected
        /// Not valid JSON: the caller finds where the next record starts.
        case broken(RecordProblem)
        /// The run stops (`--on-error fail`).
        case stop
    }

    init(plan: JSONInputPlan, encoder: RecordEncoder, columns: [ColumnSpec]) {
        self.plan = plan
        self.encoder = encoder
        self.masker = CellMasker(columns: columns)
        self.wantedKeys = JSONWantedKeys(masked: plan.maskedKeys, added: plan.addedKeys)
        self.csvColumnIndex = Dictionary(
            (plan.csvColumns ?? []).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.maskedValues = Self.slots(plan.maskedKeys.count, nil)
        self.hasNonASCIIMaskedKeys = plan.maskedKeys.contains { $0.utf8.contains { $0 >= 0x80 } }
        self.replacingColumnOfCSV = (plan.csvColumns ?? []).map { name in
            columns.firstIndex { $0.name == name && $0.replace != nil } ?? -1
        }
        self.replacements = Array(repeating: nil, count: columns.count)
        self.maskedKeysSeen = Self.slots(plan.maskedKeys.count, false)
        self.csvValues = Self.slots(plan.csvColumns?.count ?? 0, nil)
        self.decoded = Array(repeating: [], count: plan.maskedKeys.count)
        self.maskedText = Self.slots(plan.maskedKeys.count, nil)
        self.writesCSV = plan.csvColumns != nil
        self.marksFormulasInJSON = encoder.escapeFormulas && plan.csvColumns == nil
        self.asksEveryMember = writesCSV || marksFormulasInJSON
    }

    deinit {
        wantedKeys.deallocate()
        maskedValues.deallocate()
        csvValues.deallocate()
        maskedText.deallocate()
        maskedKeysSeen.deallocate()
    }

    private static func slots<Slot>(_ count: Int, _ initial: Slot) -> UnsafeMutableBufferPointer<Slot> {
        let slots = UnsafeMutableBufferPointer<Slot>.allocate(capacity: count)
        slots.initialize(repeating: initial)
        return slots
    }

    func process(_ chunk: Chunk, into output: ByteBuffer) -> ChunkResult {
        masker.resetStats()
        result = ChunkResult()
        for index in maskedKeysSeen.indices { maskedKeysSeen[index] = false }
        notesKeys = true
        self.output = output
        // Room for the added cells of ordinary records; a huge one grows the buffer only as it needs.
        output.reserve(chunk.bytes.count + min(chunk.bytes.count, 4 << 20))
        if plan.isArray {
            processArrayElements(chunk.bytes, chunk: chunk)
        } else {
            processLines(chunk.bytes, chunk: chunk)
        }
        result.output = output
        result.stats = masker.stats
        result.maskedKeysSeen = Array(maskedKeysSeen)
        return result
    }

    // MARK: Cutting records out of the chunk

    func processLines(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
        var line = chunk.firstLine
        var start = 0
        while start < bytes.count {
            if readsInOnePass, !notesKeys, let (outcome, next) = ordinaryLine(bytes, at: start, line: line) {
                guard outcome != .stop else { return }
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
            case .written, .rejected: continue
            case .stop: return
            case .broken(let problem):
                guard reject(problem, line: line, raw: raw) == .rejected else { return }
            }
        }
    }

    func processArrayElements(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
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
                    result.fatal = .data(
                        plan.file, line: lineAt(start), "a comma before ']': a trailing comma is not JSON")
                    return
                }
                scanner.position += 1
                guard chunk.isLast, scanner.peek() == nil else {
                    result.fatal = .data(
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
            case .written, .rejected: continue
            case .stop: return
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
                    result.fatal = .data(
                        plan.file, line: recordLine,
                        "\(problem); where the next record starts cannot be told, so the run stops here")
                    return
                }
                guard reject(problem, line: recordLine, raw: bytes[start..<(recordEnd ?? end)]) == .rejected
                else {
                    return
                }
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

    /// Counts a bad record (and quarantines it, a line of its own).
    @inline(never)  // the bad records' path, kept out of the good records' code
    func reject(_ problem: RecordProblem, line: Int, raw: Slice<UnsafeBufferPointer<UInt8>>)
        -> Outcome
    {
        result.rows += 1
        let record = UnsafeBufferPointer(rebasing: raw)
        switch plan.rejectPolicy.reject(problem, line: line, record: record, endLine: true, into: &result) {
        case .rejected: return .rejected
        case .stop: return .stop
        }
    }
}
