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
    /// A key the processor looks for: masked (the spec column's index) or added by maskclean.
    /// Its bytes lie in `wantedKeyBytes`: no array per key to reference-count on every member.
    private struct WantedKey {
        var bytes: Range<Int>
        var masked: Int?
        var added: Int?
    }

    /// In order of first byte: those starting with byte `b` are
    /// `wantedKeys[wantedFrom[b]..<wantedFrom[b + 1]]`.
    private let wantedKeys: [WantedKey]
    private let wantedFrom: [Int]
    private let wantedKeyBytes: [UInt8]
    /// For each first byte, bit `min(length, 63)` is set when a wanted key has that first byte and
    /// length: most keys of a record are none of the wanted ones, and one load tells.
    private let wantedLengths: [UInt64]
    private let csvColumnIndex: [String: Int]
    /// JSON to CSV: for each CSV column, the spec column that replaces it, or -1.
    private let replacingColumnOfCSV: [Int]
    /// Where each replacing column's value lies among the masker's premasked bytes, this record.
    @exclusivity(unchecked) private var replacements: [Range<Int>?]
    /// Keys spelled outside ASCII may come in another normalization form than the spec's.
    private let hasNonASCIIMaskedKeys: Bool

    // The chunk and record being processed. A processor belongs to one worker at a time, so
    // exclusivity is checked statically.
    @exclusivity(unchecked) private var result = ChunkResult()
    @exclusivity(unchecked) private var output = ByteBuffer()
    @exclusivity(unchecked) private var maskedValues: [JSONToken?]
    @exclusivity(unchecked) private var csvValues: [JSONToken?]
    /// Each masked value's text: where it lies in the chunk when its bytes are its text (a
    /// string without escapes, a number without exponent), else decoded into `decoded`.
    @exclusivity(unchecked) private var maskedText: [Range<Int>?]
    @exclusivity(unchecked) private var decoded: [[UInt8]]
    /// `--escape-formulas` to JSON: where a `'` goes in the record's own string values.
    @exclusivity(unchecked) private var formulaInsertions: [Int] = []
    /// Whether a record of the chunk has each masked key: kept here, not in `result`, so that
    /// noting one is a plain store.
    @exclusivity(unchecked) private var maskedKeysSeen: [Bool]
    /// Until the chunk's first record is read, its keys are noted in `result.keysSeen`.
    @exclusivity(unchecked) private var notesKeys = false

    /// How reading one record went.
    private enum Outcome: Equatable {
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
        var wanted: [WantedKey] = []
        var wantedBytes: [UInt8] = []
        var lengths = [UInt64](repeating: 0, count: 256)
        func want(_ key: String, masked: Int? = nil, added: Int? = nil) {
            let start = wantedBytes.count
            wantedBytes += key.utf8
            wanted.append(WantedKey(bytes: start..<wantedBytes.count, masked: masked, added: added))
            lengths[Int(key.utf8.first ?? 0)] |= Self.lengthBit(key.utf8.count)
        }
        for (index, key) in plan.maskedKeys.enumerated() { want(key, masked: index) }
        for (index, key) in plan.addedKeys.enumerated() { want(key, added: index) }
        let firstByte = { (key: WantedKey) in wantedBytes[key.bytes].first ?? 0 }
        wanted = wanted.enumerated()
            .sorted { (firstByte($0.element), $0.offset) < (firstByte($1.element), $1.offset) }
            .map(\.element)
        self.wantedKeys = wanted
        self.wantedFrom = (0...256).map { byte in
            wanted.firstIndex { Int(firstByte($0)) >= byte } ?? wanted.count
        }
        self.wantedKeyBytes = wantedBytes
        self.wantedLengths = lengths
        self.csvColumnIndex = Dictionary(
            (plan.csvColumns ?? []).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.maskedValues = Array(repeating: nil, count: plan.maskedKeys.count)
        self.hasNonASCIIMaskedKeys = plan.maskedKeys.contains { $0.utf8.contains { $0 >= 0x80 } }
        self.replacingColumnOfCSV = (plan.csvColumns ?? []).map { name in
            columns.firstIndex { $0.name == name && $0.replace != nil } ?? -1
        }
        self.replacements = Array(repeating: nil, count: columns.count)
        self.maskedKeysSeen = Array(repeating: false, count: plan.maskedKeys.count)
        self.csvValues = Array(repeating: nil, count: plan.csvColumns?.count ?? 0)
        self.decoded = Array(repeating: [], count: plan.maskedKeys.count)
        self.maskedText = Array(repeating: nil, count: plan.maskedKeys.count)
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
        result.maskedKeysSeen = maskedKeysSeen
        return result
    }

    // MARK: Cutting records out of the chunk

    private func processLines(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
        var line = chunk.firstLine
        var start = 0
        while start < bytes.count {
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
            switch record(&scanner, line: line, raw: raw) {
            case .written, .rejected: continue
            case .stop: return
            case .broken(let problem):
                guard reject(problem, line: line, raw: raw) == .rejected else { return }
            }
        }
    }

    private func processArrayElements(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
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

    /// Reads one record at the scanner and writes it out.
    private func record(_ scanner: inout JSONScanner, line: Int, raw: Slice<UnsafeBufferPointer<UInt8>>?)
        -> Outcome
    {
        let start = scanner.position
        for index in maskedValues.indices { maskedValues[index] = nil }
        for index in csvValues.indices { csvValues[index] = nil }
        formulaInsertions.removeAll(keepingCapacity: true)
        var memberCount = 0
        var problem: RecordProblem?
        let object: JSONToken
        do {
            guard scanner.peek() == UInt8(ascii: "{") else {
                let value = try scanner.scanValue()
                return reject(
                    .notAnObject(found: value.kind), line: line,
                    raw: raw ?? scanner.bytes[start..<scanner.position])
            }
            let bytes = scanner.bytes
            object = try scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
                memberCount += 1
                if problem == nil { problem = self.member(key: key, value: value, in: bytes) }
            }
        } catch {
            notesKeys = false
            return .broken(.invalidJSON(error.message))
        }
        notesKeys = false
        if raw != nil, scanner.peek() != nil {
            return .broken(.textAfterRecord)
        }
        let rawRecord = raw ?? scanner.bytes[object.range]
        // Text that is not UTF-8, or a lone surrogate escape, cannot be written to any output
        // faithfully: the record is bad, whichever key holds it.
        if let found = JSONTextCheck.firstProblem(UnsafeBufferPointer(rebasing: scanner.bytes[object.range]))
        {
            let place = place(of: object.range.lowerBound + found.offset, in: object, scanner.bytes)
            return reject(.badText(found.reason, place: place), line: line, raw: rawRecord)
        }
        if let problem {
            return reject(problem, line: line, raw: rawRecord)
        }
        return write(object, memberCount: memberCount, bytes: scanner.bytes, line: line, raw: rawRecord)
    }

    /// Names the member of `object` where `offset` lies: `in key "…"` or `in the value of key "…"`.
    private func place(of offset: Int, in object: JSONToken, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[..<object.range.upperBound]))
        scanner.position = object.range.lowerBound
        var found = "in the record"
        _ = try? scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
            let name = visibleKey(key, bytes)
            if key.range.contains(offset) {
                found = "in key \(name)"
            } else if value.range.contains(offset) {
                found = "in the value of key \(name)"
            }
        }
        return found
    }

    /// A key as messages show it, invalid bytes replaced.
    private func visibleKey(_ key: JSONToken, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let inner = UnsafeBufferPointer(
            rebasing: bytes[(key.range.lowerBound + 1)..<(key.range.upperBound - 1)])
        return "\"" + String(decoding: inner, as: UTF8.self) + "\""
    }

    /// Notes a member the record needs; says what is wrong with it, if anything.
    private func member(key: JSONToken, value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>)
        -> RecordProblem?
    {
        if notesKeys, result.keysSeen.count < Self.keysNoted {
            result.keysSeen.append(JSONScanner(bytes).decodeString(key) ?? "")
        }
        // The key's bytes are its text unless it has escapes (rare): compared where they lie.
        if key.hasEscapes {
            let text = Array((JSONScanner(bytes).decodeString(key) ?? "").utf8)
            return text.withUnsafeBufferPointer { member(named: $0, value: value, in: bytes) }
        }
        let name = UnsafeBufferPointer(
            rebasing: bytes[(key.range.lowerBound + 1)..<(key.range.upperBound - 1)])
        return member(named: name, value: value, in: bytes)
    }

    private func member(
        named name: UnsafeBufferPointer<UInt8>, value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>
    )
        -> RecordProblem?
    {
        let first = name.first ?? 0
        var matched = false
        if wantedLengths[Int(first)] & Self.lengthBit(name.count) != 0 {
            for wanted in wantedFrom[Int(first)]..<wantedFrom[Int(first) + 1] {
                let range = wantedKeys[wanted].bytes
                guard range.count == name.count,
                    name.isEmpty
                        || wantedKeyBytes.withUnsafeBufferPointer({
                            memcmp($0.baseAddress! + range.lowerBound, name.baseAddress!, name.count) == 0
                        })
                else { continue }
                if let index = wantedKeys[wanted].added {
                    return .addedKeyPresent(plan.addedKeys[index])
                }
                guard let index = wantedKeys[wanted].masked else { continue }
                matched = true
                if let problem = maskedMember(index, value) { return problem }
            }
        }
        if !matched, hasNonASCIIMaskedKeys, name.contains(where: { $0 >= 0x80 }),
            let index = plan.maskedKeys.firstIndex(of: String(decoding: name, as: UTF8.self))
        {
            // The same key in another Unicode normalization (`tél` as e + U+0301) is the masked
            // key too, as it is in a CSV header: twice in a record, it is ambiguous.
            if let problem = maskedMember(index, value) { return problem }
        }
        if encoder.escapeFormulas && plan.csvColumns == nil {
            if value.kind == .string && FormulaGuard.startsJSONString(bytes, value.range.lowerBound + 1) {
                formulaInsertions.append(value.range.lowerBound + 1)
            } else if value.kind == .object || value.kind == .array {
                FormulaGuard.nestedTriggers(bytes, in: value.range, into: &formulaInsertions)
            }
        }
        if plan.csvColumns != nil {
            let text = String(decoding: name, as: UTF8.self)
            guard let column = csvColumnIndex[text] else {
                return .keyNotAmongColumns(text)
            }
            // A CSV column holds one value: a second one would be lost, or shift the rest.
            guard csvValues[column] == nil else {
                return .columnKeyTwice(text)
            }
            csvValues[column] = value
        }
        return nil
    }

    /// Notes the value of masked key `index`; says what is wrong with it, if anything.
    @inline(__always)
    private func maskedMember(_ index: Int, _ value: JSONToken) -> RecordProblem? {
        maskedKeysSeen[index] = true
        guard maskedValues[index] == nil else {
            return .maskedKeyTwice(plan.maskedKeys[index])
        }
        switch value.kind {
        case .string, .number, .null:
            maskedValues[index] = value
            return nil
        case .object, .array, .bool:
            return .maskedKeyHolds(plan.maskedKeys[index], value.kind)
        }
    }

    /// How many keys of a chunk's first record are noted for suggestions.
    private static let keysNoted = 200

    private static func lengthBit(_ count: Int) -> UInt64 { 1 << UInt64(min(count, 63)) }

    // MARK: Writing

    private func write(
        _ object: JSONToken, memberCount: Int, bytes: UnsafeBufferPointer<UInt8>, line: Int,
        raw: Slice<UnsafeBufferPointer<UInt8>>
    ) -> Outcome {
        let scanner = JSONScanner(bytes)
        // Read the masked values first: a value that cannot be read rejects the record whole.
        for (index, token) in maskedValues.enumerated() {
            maskedText[index] = nil
            decoded[index].removeAll(keepingCapacity: true)
            guard let token else { continue }
            switch token.kind {
            case .string where !token.hasEscapes:
                let inner = (token.range.lowerBound + 1)..<(token.range.upperBound - 1)
                guard UnsafeBufferPointer(rebasing: bytes[inner]).isValidUTF8 else {
                    return reject(.invalidUTF8InKey(plan.maskedKeys[index]), line: line, raw: raw)
                }
                maskedText[index] = inner
            case .string:
                guard let text = scanner.decodeString(token) else {
                    return reject(.invalidUTF8InKey(plan.maskedKeys[index]), line: line, raw: raw)
                }
                decoded[index] += text.utf8
            case .number:
                if !bytes[token.range].contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
                    maskedText[index] = token.range
                    continue
                }
                guard let text = scanner.plainDecimal(token) else {
                    return reject(.numberTooLarge(key: plan.maskedKeys[index]), line: line, raw: raw)
                }
                decoded[index] += text.utf8
            default:
                break
            }
        }
        // CSV cannot carry a NUL (maskclean's own reader refuses one): a string that decodes to
        // one makes the record bad rather than a file no reader takes back.
        if let csvColumns = plan.csvColumns {
            for (index, token) in csvValues.enumerated() {
                guard let token, token.kind == .string, token.hasEscapes else { continue }
                if scanner.decodeString(token)?.utf8.contains(0) ?? true {
                    return reject(.nulForCSV(key: csvColumns[index]), line: line, raw: raw)
                }
            }
        }
        result.rows += 1
        let row = result.rows
        if masker.replaces { premaskReplacedColumns(bytes, row: row) }
        encoder.beginRecord(&output)
        var name: Int
        var separator: Bool
        if let csvColumns = plan.csvColumns {
            for index in csvColumns.indices {
                let column = replacingColumnOfCSV[index]
                if column >= 0, let replacement = replacements[column] {
                    masker.withPremaskedBytes { premasked in
                        encoder.cell(
                            UnsafeBufferPointer(rebasing: premasked[replacement]), name: index,
                            separator: index > 0, &output)
                    }
                    continue
                }
                let text = csvValues[index].map { csvText($0, scanner) } ?? []
                text.withUnsafeBufferPointer { encoder.cell($0, name: index, separator: index > 0, &output) }
            }
            name = csvColumns.count
            separator = !csvColumns.isEmpty
        } else {
            // The record's own bytes up to its closing brace; the added members go before it.
            output.truncate(to: output.count - 1)  // beginRecord's `{`: the record brings its own
            if masker.replaces {
                copyReplacing(object, bytes)
            } else {
                var copied = object.range.lowerBound
                for insertion in formulaInsertions {
                    output.append(UnsafeBufferPointer(rebasing: bytes[copied..<insertion]))
                    output.append(FormulaGuard.prefix)
                    copied = insertion
                }
                output.append(UnsafeBufferPointer(rebasing: bytes[copied..<(object.range.upperBound - 1)]))
            }
            name = 0
            separator = memberCount > 0
        }
        for index in masker.columns.indices {
            if let range = maskedText[index] {
                name = masker.writeAddedCells(
                    UnsafeBufferPointer(rebasing: bytes[range]), column: index, row: row, firstName: name,
                    separator: separator, encoder: encoder, to: &output)
            } else {
                name = decoded[index].withUnsafeBufferPointer { value in
                    masker.writeAddedCells(
                        value, column: index, row: row, firstName: name, separator: separator,
                        encoder: encoder,
                        to: &output)
                }
            }
            separator = true
        }
        encoder.endRecord(&output)
        return .written
    }

    /// Masks the record's cells that replace their input, before the record is written.
    private func premaskReplacedColumns(_ bytes: UnsafeBufferPointer<UInt8>, row: Int) {
        masker.endPremaskedRecord()
        for index in masker.columns.indices {
            replacements[index] = nil
            guard masker.layouts[index].replace != nil else { continue }
            if let range = maskedText[index] {
                replacements[index] = masker.premask(
                    UnsafeBufferPointer(rebasing: bytes[range]), column: index, row: row)
            } else {
                replacements[index] = decoded[index].withUnsafeBufferPointer {
                    masker.premask($0, column: index, row: row)
                }
            }
        }
    }

    /// Copies the record up to its closing brace with each replaced value written as a JSON
    /// string in its place, and the formula prefixes of the values kept.
    private func copyReplacing(_ object: JSONToken, _ bytes: UnsafeBufferPointer<UInt8>) {
        var edits: [(start: Int, end: Int, column: Int)] = []  // column -1: a formula prefix
        for index in masker.columns.indices where replacements[index] != nil {
            if let token = maskedValues[index] {
                edits.append((token.range.lowerBound, token.range.upperBound, index))
            }
        }
        for insertion in formulaInsertions
        where !edits.contains(where: { $0.column >= 0 && ($0.start..<$0.end).contains(insertion) }) {
            edits.append((insertion, insertion, -1))
        }
        edits.sort { $0.start < $1.start }
        var copied = object.range.lowerBound
        for edit in edits {
            output.append(UnsafeBufferPointer(rebasing: bytes[copied..<edit.start]))
            if edit.column < 0 {
                output.append(FormulaGuard.prefix)
            } else if let replacement = replacements[edit.column] {
                masker.withPremaskedBytes { premasked in
                    let value = UnsafeBufferPointer(rebasing: premasked[replacement])
                    let prefix =
                        encoder.escapeFormulas && FormulaGuard.isTrigger(value.first)
                        ? FormulaGuard.prefix : nil
                    JSONStringEncoder.appendQuoted(value, prefix: prefix, to: &output)
                }
            }
            copied = edit.end
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[copied..<(object.range.upperBound - 1)]))
    }

    /// A JSON value as CSV text: strings decoded, everything else as written.
    private func csvText(_ token: JSONToken, _ scanner: JSONScanner) -> [UInt8] {
        switch token.kind {
        case .string: return Array((scanner.decodeString(token) ?? "").utf8)
        case .null: return []
        default: return Array(scanner.bytes[token.range])
        }
    }

    // MARK: Bad records

    /// Counts a bad record (and quarantines it, a line of its own).
    private func reject(_ problem: RecordProblem, line: Int, raw: Slice<UnsafeBufferPointer<UInt8>>)
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
