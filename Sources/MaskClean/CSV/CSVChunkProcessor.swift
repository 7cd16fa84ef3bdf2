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
    private let maskingStart: [Int]
    private let maskingColumns: [Int]
    private lazy var parser = CSVParser(delimiter: plan.delimiter, sink: self)

    // The chunk being processed. A processor belongs to one worker at a time, and libcsv calls
    // back synchronously: exclusivity is checked statically.
    @exclusivity(unchecked) private var result = ChunkResult()
    @exclusivity(unchecked) private var output = ByteBuffer()
    /// The line and offset where the record being read began.
    @exclusivity(unchecked) private var recordLine = 0
    @exclusivity(unchecked) private var recordStart = 0
    // The record being parsed.
    @exclusivity(unchecked) private var fieldIndex = 0
    @exclusivity(unchecked) private var recordOutputStart = 0
    /// The masked cells' bytes, back to back, and where each spec column's cell lies in them.
    @exclusivity(unchecked) private var maskedBytes = ByteBuffer()
    @exclusivity(unchecked) private var maskedRanges: [Range<Int>]
    /// For each input field, the spec column that replaces it, or -1.
    private let replacingColumn: [Int]
    /// The record's fields that a column replaces: where each goes in the output, and its index.
    @exclusivity(unchecked) private var replacedFields: [(offset: Int, field: Int)] = []
    @exclusivity(unchecked) private var replacedTail: [UInt8] = []
    /// JSON output: the first field of the record that is not UTF-8, which no JSON string holds.
    @exclusivity(unchecked) private var invalidField: Int?
    /// Records of the line just parsed that turned out bad, in order.
    @exclusivity(unchecked) private var badRecords: [RecordProblem] = []

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
        self.maskedRanges = Array(repeating: 0..<0, count: columns.count)
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

    private func process(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
        guard let base = bytes.baseAddress else { return }
        let hasNUL = memchr(base, 0, bytes.count) != nil
        let hasCR = memchr(base, 0x0D, bytes.count) != nil
        var line = chunk.firstLine
        recordLine = line
        recordStart = 0
        var lineStart = 0
        // The next line feed at or after `lineStart`, found once and kept until passed: in an
        // export whose records end with bare CRs, searching the rest of the chunk for every
        // record made a chunk quadratic.
        var nextFeed = -1
        while lineStart < bytes.count {
            if nextFeed < lineStart {
                nextFeed =
                    memchr(base + lineStart, 0x0A, bytes.count - lineStart).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? bytes.count
            }
            var lineEnd = min(nextFeed + 1, bytes.count)
            // libcsv ends a record at a bare CR too: the line is fed up to it, so that each piece
            // fed ends at most one record and a bad one is taken out alone. Lines are still
            // counted by LF.
            var endsLine = lineEnd < bytes.count || bytes.last == 0x0A
            if hasCR, let cr = memchr(base + lineStart, 0x0D, lineEnd - lineStart) {
                let crEnd = base.distance(to: cr.assumingMemoryBound(to: UInt8.self)) + 1
                if crEnd < bytes.count, bytes[crEnd] != 0x0A {
                    lineEnd = crEnd
                    endsLine = false
                }
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
            if endsLine { line += 1 }
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

    /// Reads a record that lies whole on one line without libcsv, when its quoting is simple:
    /// unquoted fields are the bytes between delimiters, and a quoted field closes on the line and
    /// is followed by a delimiter or the line's end. Those are exactly the fields libcsv would
    /// hand over, and the line goes out as it came in, except a field quoted without need, which
    /// goes out bare as the encoder writes it. This skips libcsv's byte-by-byte state machine and
    /// a callback per field for nearly every line of an export.
    ///
    /// False, having written nothing, for a line libcsv must read: a quoted field that goes on
    /// past the line, or a quote where strict CSV has none (libcsv then says what is wrong).
    private func splitLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var count = line.count
        if count > 0 && line[count - 1] == 0x0A { count -= 1 }
        if count > 0 && line[count - 1] == 0x0D { count -= 1 }
        guard count > 0, let base = line.baseAddress else { return true }  // blank: no record, as for libcsv
        let delimiter = plan.delimiter
        var copied = 0  // the line's bytes before this are in the output
        var start = 0
        var field = 0
        while true {
            var end = count  // where the field ends: at a delimiter or the line's end
            var text = start..<count
            var doubledQuotes = false
            if start < count && base[start] == 0x22 {
                var search = start + 1
                while true {
                    guard let quote = memchr(base + search, 0x22, count - search) else {
                        return abandonLine()
                    }
                    let close = base.distance(to: quote.assumingMemoryBound(to: UInt8.self))
                    if close + 1 < count && base[close + 1] == 0x22 {
                        doubledQuotes = true
                        search = close + 2
                        continue
                    }
                    text = (start + 1)..<close
                    end = close + 1
                    break
                }
                guard end == count || base[end] == delimiter else { return abandonLine() }
                if !doubledQuotes && memchr(base + text.lowerBound, Int32(delimiter), text.count) == nil {
                    // Quoted without need: the encoder would write it bare.
                    output.append(UnsafeBufferPointer(start: base + copied, count: start - copied))
                    output.append(UnsafeBufferPointer(start: base + text.lowerBound, count: text.count))
                    copied = end
                }
            } else {
                if let found = memchr(base + start, Int32(delimiter), count - start) {
                    end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                text = start..<end
                if memchr(base + start, 0x22, end - start) != nil {
                    // A quote inside a field that does not start with one is data (`12" ruler`);
                    // written back, the field is quoted and the quote doubled.
                    output.append(UnsafeBufferPointer(start: base + copied, count: start - copied))
                    CSVFieldEncoder.append(
                        UnsafeBufferPointer(start: base + start, count: end - start), delimiter: delimiter,
                        escapeFormulas: false, to: &output)
                    copied = end
                }
            }
            if field < plan.headerCount {
                for index in maskingStart[field]..<maskingStart[field + 1] {
                    let maskedStart = maskedBytes.count
                    if doubledQuotes {
                        var position = text.lowerBound
                        while position < text.upperBound {
                            maskedBytes.append(base[position])
                            position += base[position] == 0x22 ? 2 : 1
                        }
                    } else {
                        maskedBytes.append(
                            UnsafeBufferPointer(start: base + text.lowerBound, count: text.count))
                    }
                    maskedRanges[maskingColumns[index]] = maskedStart..<maskedBytes.count
                }
            }
            field += 1
            guard end < count else { break }
            start = end + 1
        }
        output.append(UnsafeBufferPointer(start: base + copied, count: count - copied))
        fieldIndex = field
        endRecord()
        return true
    }

    /// A line with nothing but its end: LF, CRLF or a bare CR.
    private static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        switch line.count {
        case 1: return line[0] == 0x0A || line[0] == 0x0D
        case 2: return line[0] == 0x0D && line[1] == 0x0A
        default: return false
        }
    }

    /// A blank line is a record of one empty field when the header has one column (RFC 4180);
    /// with more columns it holds no record, and is counted so that the report shows it was
    /// skipped, never silently.
    private func blankLine(at line: Int) {
        guard plan.headerCount == 1 else {
            result.blankLines += 1
            if result.blankLineNumbers.count < Report.blankLinesKept { result.blankLineNumbers.append(line) }
            return
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        field(empty)
        endRecord()
    }

    /// Takes back what `splitLine` wrote of a record it leaves to libcsv.
    private func abandonLine() -> Bool {
        output.truncate(to: recordOutputStart)
        maskedBytes.truncate(to: 0)
        return false
    }

    /// Where the record that began at `recordStart` ends, as the splitter (which cut the chunks)
    /// reads records: at the first boundary at or after `notBefore`, or at the end of the chunk.
    private func recordEnd(_ bytes: UnsafeBufferPointer<UInt8>, notBefore: Int) -> Int {
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
    private func reject(
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

    /// Masks the cells that replace their input and writes each into its place in the record,
    /// the input value where the cell keeps it. The record's bytes after the first such place are
    /// moved once: only specs with `replace` pay for it.
    private func replaceCells(_ masked: UnsafeBufferPointer<UInt8>, row: Int) {
        let firstPlace = replacedFields[0].offset
        replacedTail.removeAll(keepingCapacity: true)
        replacedTail.append(contentsOf: UnsafeBufferPointer(rebasing: output.bytes[firstPlace...]))
        output.truncate(to: firstPlace)
        var copied = firstPlace
        for (offset, field) in replacedFields {
            replacedTail.withUnsafeBufferPointer { tail in
                output.append(
                    UnsafeBufferPointer(rebasing: tail[(copied - firstPlace)..<(offset - firstPlace)]))
            }
            copied = offset
            let column = replacingColumn[field]
            let input = UnsafeBufferPointer(rebasing: masked[maskedRanges[column]])
            if let replacement = masker.premask(input, column: column, row: row) {
                masker.withPremaskedBytes { bytes in
                    encoder.cell(
                        UnsafeBufferPointer(rebasing: bytes[replacement]), name: field, separator: field > 0,
                        &output)
                }
            } else {
                encoder.cell(input, name: field, separator: field > 0, &output)
            }
        }
        replacedTail.withUnsafeBufferPointer { tail in
            output.append(UnsafeBufferPointer(rebasing: tail[(copied - firstPlace)...]))
        }
    }

    private func startRecord() {
        if masker.replaces {
            replacedFields.removeAll(keepingCapacity: true)
            masker.endPremaskedRecord()
        }
        fieldIndex = 0
        invalidField = nil
        recordOutputStart = output.count
        maskedBytes.truncate(to: 0)
    }

    // MARK: libcsv's callbacks, through the parser

    func field(_ bytes: UnsafeRawBufferPointer) {
        let cell = bytes.assumingMemoryBound(to: UInt8.self)
        if fieldIndex == 0 { encoder.beginRecord(&output) }
        // A field past the header's makes the record bad: it is counted, not written (for JSON
        // it would have no name).
        if fieldIndex < plan.headerCount {
            for index in maskingStart[fieldIndex]..<maskingStart[fieldIndex + 1] {
                let start = maskedBytes.count
                maskedBytes.append(cell)
                maskedRanges[maskingColumns[index]] = start..<maskedBytes.count
            }
            if masker.replaces, replacingColumn[fieldIndex] >= 0 {
                // Written once the record is known good and the cell masked: see `replaceCells`.
                replacedFields.append((output.count, fieldIndex))
            } else {
                encoder.cell(cell, name: fieldIndex, separator: fieldIndex > 0, &output)
            }
            if !encoder.isCSV && invalidField == nil && !cell.isValidUTF8 { invalidField = fieldIndex }
        }
        fieldIndex += 1
    }

    func endRecord() {
        defer { startRecord() }
        result.rows += 1
        // Check the record before its added cells are written: a bad one leaves no trace.
        if fieldIndex != plan.headerCount {
            let expected = plan.headerCount
            output.truncate(to: recordOutputStart)
            badRecords.append(.fieldCount(expected: expected, found: fieldIndex))
            return
        }
        if let field = invalidField {
            output.truncate(to: recordOutputStart)
            let name = field < plan.columnNames.count ? plan.columnNames[field] : "\(field + 1)"
            badRecords.append(.invalidUTF8ForJSON(column: name))
            return
        }
        let masked = maskedBytes.bytes
        for (column, range) in maskedRanges.enumerated()
        where !UnsafeBufferPointer(rebasing: masked[range]).isValidUTF8 {
            output.truncate(to: recordOutputStart)
            badRecords.append(.invalidUTF8InColumn(masker.columns[column].name))
            return
        }
        let row = result.rows
        if !replacedFields.isEmpty { replaceCells(masked, row: row) }
        var name = fieldIndex
        for (column, range) in maskedRanges.enumerated() {
            name = masker.writeAddedCells(
                UnsafeBufferPointer(rebasing: masked[range]), column: column, row: row, firstName: name,
                separator: true, encoder: encoder, to: &output)
        }
        encoder.endRecord(&output)
    }
}
