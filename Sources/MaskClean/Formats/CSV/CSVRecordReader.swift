import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a CSV reader knows once the header is read: the columns, and which fields later stages
/// want handed over.
struct CSVInputPlan: Sendable {
    var delimiter: UInt8
    var headerCount: Int
    /// The header's names, for messages.
    var columnNames: [String] = []
    /// For each input field, its slot in a batch record, or -1 when no stage wants it: every
    /// field when a writer must write the fields one by one, else the masked ones
    /// (a good record has `slots` fields in the batch).
    var slotOfField: [Int]
    /// Records longer than this are malformed input, not data (a runaway quote, a 100 MB cell).
    var maximumRecordBytes: Int
    /// Records are split without libcsv where their quoting allows (nearly all): off only in
    /// tests that hold libcsv's reading up against the splitting.
    var splitsPlainLines = true
    /// The columns were named by `--columns`, the input having no header line: messages say so.
    var columnsGiven = false
    /// The header ends with a delimiter: its last field is empty and names no column, and each
    /// record's last field must be empty too (docs/record-formats.md#a-trailing-delimiter).
    var trailingDelimiter = false

    var slots: Int { slotOfField.count { $0 >= 0 } }
}

/// Reads a chunk of CSV into a record batch, one physical line at a time: nearly every record
/// is split here (`CSVLineSplitting`), the rest handed to libcsv, which also says what is wrong
/// with a broken one. Owns everything about CSV's framing: quotes, line ends, blank lines, bad
/// records; knows nothing of masking or output.
final class CSVRecordReader: RecordReader, CSVFieldSink {
    let plan: CSVInputPlan
    lazy var parser = CSVParser(delimiter: plan.delimiter, sink: self)

    // The chunk being read. A reader belongs to one worker at a time, and libcsv calls back
    // synchronously: exclusivity is checked statically.
    /// The batch each read fills, the reader's own: a constant, reached in place with no
    /// reference counted per field.
    let batch = RecordBatch()
    /// The line and offset where the record being read began.
    @exclusivity(unchecked) var recordLine = 0
    @exclusivity(unchecked) var recordStart = 0
    /// Where the piece of input fed to libcsv ends: a record it completes ends there.
    @exclusivity(unchecked) var pieceEnd = 0
    // The record being parsed.
    @exclusivity(unchecked) var fieldIndex = 0
    @exclusivity(unchecked) var recordFirstField = 0
    @exclusivity(unchecked) var recordDecodedStart = 0
    /// The problem of the record the line just read ended, if it was bad.
    @exclusivity(unchecked) var badRecord: RecordProblem?

    init(plan: CSVInputPlan) {
        self.plan = plan
    }

    /// Reads `chunk` into `batch`, whose spans then point into the chunk.
    func read(_ chunk: Chunk) {
        batch.reset(chunk.bytes)
        parser.reset()
        startRecord()
        read(chunk.bytes, chunk: chunk)
    }

    func read(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
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
                blankLine(at: line, lineStart..<lineEnd)
                if endsLine { line += 1 }
                recordLine = line
                recordStart = lineEnd
                lineStart = lineEnd
                continue
            }
            var problem: RecordProblem?
            // A record that ended in this line was noted when it ended; one cut short was not.
            var ended = false
            // The record was read whole, over more lines than this one, up to `lineEnd`.
            var spansLines = false
            pieceEnd = lineEnd
            if hasNUL, memchr(base + lineStart, 0, lineEnd - lineStart) != nil {
                problem = .nulByte
            } else if lineEnd - recordStart > plan.maximumRecordBytes {
                problem = .tooLong(maximum: plan.maximumRecordBytes)
            } else if plan.splitsPlainLines, parser.isBetweenRecords,
                splitLine(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]), at: lineStart)
            {
                ended = true
            } else if plan.splitsPlainLines, parser.isBetweenRecords,
                let end = splitLines(bytes, from: lineStart, hasNUL: hasNUL, isLast: chunk.isLast)
            {
                lineEnd = end
                spansLines = true
                ended = true
            } else if !parser.feed(lineBytes) {
                problem = .csvSyntax(parser.errorDescription)
            } else {
                ended = parser.isBetweenRecords
            }
            if problem == nil, ended, let bad = badRecord {
                problem = bad
            }
            if let problem {
                // A record cut short goes on to where the splitter says it ends (a quoted field
                // may carry it over more lines): all of it is the one bad record.
                let end = ended ? lineEnd : recordEnd(bytes, notBefore: lineEnd)
                reject(problem, end: end)
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
            pieceEnd = bytes.count
            if !parser.finish() {
                reject(.unterminatedQuotedField, end: bytes.count)
            } else if let bad = badRecord {
                reject(bad, end: bytes.count)
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
    func blankLine(at line: Int, _ range: Range<Int>) {
        guard plan.headerCount == 1 else {
            batch.noteBlankLine(at: line)
            return
        }
        let empty = range.lowerBound..<range.lowerBound
        if plan.slotOfField[0] >= 0 {
            batch.fields.append(
                RecordBatch.Field(raw: empty, text: empty, isDecoded: false, hasRaw: true, kind: .string))
        }
        batch.records.append(
            RecordBatch.Record(
                line: line, raw: range, content: empty, copiable: true, firstField: recordFirstField,
                fieldCount: 1))
        startRecord()
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

    /// Notes the record being read as bad, from `recordStart` to `end`, and starts over.
    @inline(never)  // the bad records' path, kept out of the good records' code
    func reject(_ problem: RecordProblem, end: Int) {
        // What was noted of it goes: a bad record has no fields.
        forgetFields()
        batch.appendBad(problem, line: recordLine, raw: recordStart..<end)
        badRecord = nil
        startRecord()
        parser.reset()
    }

    func startRecord() {
        fieldIndex = 0
        recordFirstField = batch.fields.count
        recordDecodedStart = batch.decoded.count
    }

    /// Takes back what was noted of the record being read.
    func forgetFields() {
        batch.fields.truncate(to: recordFirstField)
        batch.decoded.truncate(to: recordDecodedStart)
    }

    // MARK: libcsv's callbacks, through the parser

    func field(_ bytes: UnsafeRawBufferPointer) {
        // A field past the header's makes the record bad: it is counted, not kept.
        if fieldIndex < plan.headerCount, plan.slotOfField[fieldIndex] >= 0 {
            let start = batch.decoded.count
            batch.decoded.append(bytes.assumingMemoryBound(to: UInt8.self))
            batch.fields.append(
                RecordBatch.Field(
                    raw: 0..<0, text: start..<batch.decoded.count, isDecoded: true, hasRaw: false,
                    kind: .string))
        }
        fieldIndex += 1
    }

    /// libcsv ended a record at the end of the piece fed to it.
    func endRecord() {
        endRecord(raw: recordStart..<pieceEnd, content: Self.content(of: batch.bytes, recordStart..<pieceEnd))
    }

    /// Whether a record of more than one field (its bytes without the line end) ends with an
    /// empty field: with the delimiter, or with the delimiter and an empty quoted field.
    static func endsWithEmptyField(
        _ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>, delimiter: UInt8
    )
        -> Bool
    {
        let end = content.upperBound
        if end - content.lowerBound >= 1, bytes[end - 1] == delimiter { return true }
        return end - content.lowerBound >= 3 && bytes[end - 1] == 0x22 && bytes[end - 2] == 0x22
            && bytes[end - 3] == delimiter
    }

    /// A record's bytes without its line end: LF, CRLF or a bare CR.
    static func content(of bytes: UnsafeBufferPointer<UInt8>, _ record: Range<Int>) -> Range<Int> {
        var end = record.upperBound
        if end > record.lowerBound && bytes[end - 1] == 0x0A { end -= 1 }
        if end > record.lowerBound && bytes[end - 1] == 0x0D { end -= 1 }
        return record.lowerBound..<end
    }

    /// Ends the record read: a good one joins the batch; one with the wrong number of fields is
    /// noted for the line's end to reject.
    @inline(__always)
    func endRecord(raw: Range<Int>, content: Range<Int>) {
        defer { startRecord() }
        guard fieldIndex == plan.headerCount else {
            forgetFields()
            badRecord = .fieldCount(expected: plan.headerCount, found: fieldIndex, given: plan.columnsGiven)
            return
        }
        if plan.trailingDelimiter, !Self.endsWithEmptyField(batch.bytes, content, delimiter: plan.delimiter) {
            forgetFields()
            badRecord = .valueAfterTrailingDelimiter
            return
        }
        batch.records.append(
            RecordBatch.Record(
                line: recordLine, raw: raw, content: content, copiable: true, firstField: recordFirstField,
                fieldCount: fieldIndex))
    }
}
