import Foundation

/// What a CSV run knows once the header is read: the columns, which of them are masked, and
/// where bad records go.
struct CSVInputPlan: Sendable {
    var delimiter: UInt8
    var headerCount: Int
    /// The header's names, for messages.
    var columnNames: [String] = []
    /// For each spec column, the index of its input field.
    var maskedFields: [Int]
    /// What becomes of a bad record, and the input's name for messages.
    var rejectPolicy: RejectPolicy
    /// Records longer than this are malformed input, not data (a runaway quote, a 100 MB cell).
    var maximumRecordBytes: Int
    /// A record on one line may be split without libcsv and copied out as it came: the output
    /// writes fields as they were read.
    var splitsPlainLines: Bool
    /// The columns were named by `--columns`, the input having no header line: messages say so.
    var columnsGiven = false
}

/// Parses a chunk of CSV with its own libcsv parser, one physical line at a time, and writes each
/// record back with its added cells.
///
/// Fields are written out as libcsv hands them over, as the C floor does; only the masked cells
/// are kept aside until the record ends. A record that turns out bad is taken back out of the
/// output whole.
final class CSVChunkProcessor: ChunkProcessor, CSVFieldSink {
    let plan: CSVInputPlan
    let encoder: RecordEncoder
    let masker: CellMasker
    /// For each input field `f`, the spec columns masking it (usually none or one) are
    /// `maskingColumns[maskingStart[f]..<maskingStart[f + 1]]`: flat, so that no inner array is
    /// reference-counted per field.
    let maskingStart: [Int]
    let maskingColumns: [Int]
    lazy var parser = CSVParser(delimiter: plan.delimiter, sink: self)

    // The chunk being processed. A processor belongs to one worker at a time, and libcsv calls
    // back synchronously: exclusivity is checked statically.
    @exclusivity(unchecked) var result = ChunkResult()
    @exclusivity(unchecked) var output = ByteBuffer()
    /// The line and offset where the record being read began.
    @exclusivity(unchecked) var recordLine = 0
    @exclusivity(unchecked) var recordStart = 0
    // The record being parsed.
    @exclusivity(unchecked) var fieldIndex = 0
    @exclusivity(unchecked) var recordOutputStart = 0
    /// The masked cells' bytes, back to back, where copied cells lie (`MaskedCell.range`).
    @exclusivity(unchecked) var maskedBytes = ByteBuffer()
    /// Each spec column's cell of the record being read. Plain memory, written for every masked
    /// field: an array would be checked for uniqueness on every write.
    let masked: UnsafeMutableBufferPointer<MaskedCell>
    /// For each input field, the spec column that replaces it, or -1.
    let replacingColumn: [Int]
    /// The record's fields that a column replaces: where each goes in the output, and its index.
    @exclusivity(unchecked) var replacedFields: [(offset: Int, field: Int)] = []
    @exclusivity(unchecked) var replacedTail: [UInt8] = []
    /// JSON output: the first field of the record that is not UTF-8, which no JSON string holds.
    @exclusivity(unchecked) var invalidField: Int?
    /// Records of the line just parsed that turned out bad, in order.
    @exclusivity(unchecked) var badRecords: [RecordProblem] = []

    init(plan: CSVInputPlan, encoder: RecordEncoder, columns: [ColumnSpec]) {
        self.plan = plan
        self.encoder = encoder
        self.masker = CellMasker(columns: columns)
        // Counted, then placed: linear in fields and columns (a wide export has 10⁵ of each).
        var start = [Int](repeating: 0, count: plan.headerCount + 1)
        for field in plan.maskedFields { start[field + 1] += 1 }
        for field in 0..<plan.headerCount { start[field + 1] += start[field] }
        var columnsOfFields = [Int](repeating: 0, count: plan.maskedFields.count)
        var next = start
        for (column, field) in plan.maskedFields.enumerated() {
            columnsOfFields[next[field]] = column
            next[field] += 1
        }
        self.maskingStart = start
        self.maskingColumns = columnsOfFields
        var replacing = [Int](repeating: -1, count: plan.headerCount)
        for (column, field) in plan.maskedFields.enumerated().reversed() where columns[column].replace != nil
        {
            replacing[field] = column
        }
        self.replacingColumn = replacing
        self.masked = .allocate(capacity: columns.count)
        masked.initialize(repeating: MaskedCell())
    }

    deinit {
        masked.deallocate()
    }

    func process(_ chunk: Chunk, into output: ByteBuffer) -> ChunkResult {
        parser.reset()
        masker.resetStats()
        result = ChunkResult()
        self.output = output
        // Room for the added cells of ordinary records; a huge one grows the buffer only as it needs.
        output.reserve(chunk.bytes.count + min(chunk.bytes.count, 4 << 20))
        startRecord()
        process(chunk.bytes, chunk: chunk)
        result.output = output
        result.stats = masker.stats
        return result
    }

    func process(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
        guard let base = bytes.baseAddress else { return }
        let hasNUL = memchr(base, 0, bytes.count) != nil
        // Held once for the chunk: the lazy property's getter retained it for every line.
        let parser = self.parser
        var line = chunk.firstLine
        recordLine = line
        recordStart = 0
        var lineStart = 0
        // The next line feed at or after `lineStart`, found once and kept until passed: in an
        // export whose records end with bare CRs, searching the rest of the chunk for every
        // record made a chunk quadratic.
        var nextFeed = -1
        // The next CR at or after `lineStart` (`Int.max` for none), kept the same way: most lines
        // hold none, and one search per line cost as much as the search for its line feed.
        var nextCR = -1
        while lineStart < bytes.count {
            if nextFeed < lineStart {
                nextFeed =
                    memchr(base + lineStart, 0x0A, bytes.count - lineStart).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? bytes.count
            }
            var lineEnd = min(nextFeed + 1, bytes.count)
            // Fed up to a bare CR (`CSVParser.pieceEnd`); lines are still counted by LF.
            var endsLine = lineEnd < bytes.count || bytes.last == 0x0A
            if nextCR < lineStart {
                nextCR =
                    memchr(base + lineStart, 0x0D, bytes.count - lineStart).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? Int.max
            }
            if let pieceEnd = CSVParser.pieceEnd(bytes, firstCR: nextCR, before: lineEnd) {
                lineEnd = pieceEnd
                endsLine = false
            }
            let lineBytes = UnsafeRawBufferPointer(start: base + lineStart, count: lineEnd - lineStart)
            if parser.isBetweenRecords && Self.isBlank(lineBytes) {
                blankLine(at: line)
                if endsLine { line += 1 }
                recordLine = line
                recordStart = lineEnd
                lineStart = lineEnd
                continue
            }
            var problem: RecordProblem?
            // A record that ended in this line was counted when it ended; one cut short was not.
            var counted = false
            // The record was read whole, over more lines than this one, up to `lineEnd`.
            var spansLines = false
            if hasNUL, memchr(base + lineStart, 0, lineEnd - lineStart) != nil {
                problem = .nulByte
            } else if lineEnd - recordStart > plan.maximumRecordBytes {
                problem = .tooLong(maximum: plan.maximumRecordBytes)
            } else if plan.splitsPlainLines, parser.isBetweenRecords,
                splitLine(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
            {
                if !badRecords.isEmpty {
                    problem = badRecords[0]
                    counted = true
                }
            } else if plan.splitsPlainLines, parser.isBetweenRecords,
                let end = splitLines(bytes, from: lineStart, hasNUL: hasNUL)
            {
                lineEnd = end
                spansLines = true
                if !badRecords.isEmpty {
                    problem = badRecords[0]
                    counted = true
                }
            } else if !parser.feed(lineBytes) {
                problem = .csvSyntax(parser.errorDescription)
            } else if !badRecords.isEmpty {
                problem = badRecords[0]
                counted = true
            }
            if let problem {
                // A record cut short goes on to where the splitter says it ends (a quoted field
                // may carry it over more lines): all of it is the one bad record.
                let end = counted ? lineEnd : recordEnd(bytes, notBefore: lineEnd)
                guard reject(problem, bytes, end: end, counted: counted) else { return }
                line += UnsafeBufferPointer(rebasing: bytes[lineStart..<end]).count { $0 == 0x0A }
                lineStart = end
                recordStart = end
                recordLine = line
                continue
            }
            if spansLines {
                line += UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]).count { $0 == 0x0A }
            } else if endsLine {
                line += 1
            }
            if parser.isBetweenRecords {
                recordLine = line
                recordStart = lineEnd
            }
            lineStart = lineEnd
        }
        if chunk.isLast || !parser.isBetweenRecords {
            let finished = parser.finish()
            if !finished {
                _ = reject(.unterminatedQuotedField, bytes, end: bytes.count, counted: false)
            } else if !badRecords.isEmpty {
                _ = reject(badRecords[0], bytes, end: bytes.count, counted: true)
            }
        }
    }

    /// A line with nothing but its end: LF, CRLF or a bare CR.
    static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        switch line.count {
        case 1: return line[0] == 0x0A || line[0] == 0x0D
        case 2: return line[0] == 0x0D && line[1] == 0x0A
        default: return false
        }
    }

    /// A blank line is a record of one empty field when the header has one column (RFC 4180);
    /// with more columns it holds no record, and is counted so that the report shows it was
    /// skipped, never silently.
    func blankLine(at line: Int) {
        guard plan.headerCount == 1 else {
            result.blankLines += 1
            if result.blankLineNumbers.count < Report.blankLinesKept { result.blankLineNumbers.append(line) }
            return
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        field(empty)
        endRecord()
    }

    /// Where the record that began at `recordStart` ends, as the splitter (which cut the chunks)
    /// reads records: at the first boundary at or after `notBefore`, or at the end of the chunk.
    func recordEnd(_ bytes: UnsafeBufferPointer<UInt8>, notBefore: Int) -> Int {
        var splitter = CSVSplitter(delimiter: plan.delimiter)
        var position = recordStart
        while position < bytes.count {
            guard
                let boundary = splitter.scanToFirstBoundary(UnsafeBufferPointer(rebasing: bytes[position...]))
                    .boundary
            else { return bytes.count }
            position += boundary
            if position >= notBefore { return position }
        }
        return bytes.count
    }

    /// Rejects the record being read: takes it out of the output and counts it, unless it was
    /// `counted` when it ended. False when the run must stop (`--on-error fail`).
    @inline(never)  // the bad records' path, kept out of the good records' code
    func reject(
        _ problem: RecordProblem, _ bytes: UnsafeBufferPointer<UInt8>, end: Int, counted: Bool
    )
        -> Bool
    {
        // A record cut short by a parse error: what was written of it goes too.
        output.truncate(to: recordOutputStart)
        if !counted { result.rows += 1 }
        startRecord()
        parser.reset()
        badRecords.removeAll(keepingCapacity: true)
        let record = UnsafeBufferPointer(rebasing: bytes[recordStart..<end])
        return plan.rejectPolicy.reject(problem, line: recordLine, record: record, into: &result) == .rejected
    }

    func startRecord() {
        if masker.replaces {
            replacedFields.removeAll(keepingCapacity: true)
            masker.endPremaskedRecord()
        }
        fieldIndex = 0
        invalidField = nil
        recordOutputStart = output.count
        maskedBytes.truncate(to: 0)
    }
}

/// A spec column's cell of the record being read.
struct MaskedCell {
    /// Where it lies: in the chunk itself when a plain line gave it as it is (no copy: a 30 MB
    /// cell is not held twice), else in `maskedBytes` at `range` once the record has ended.
    var cell = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var range = 0..<0
    var inChunk = false
}
