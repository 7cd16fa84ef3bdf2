import Foundation

/// What a CSV run knows once the header is read: the columns, which of them are masked, and
/// where bad records go.
struct CSVInputPlan: Sendable {
    var file: String
    var delimiter: UInt8
    var headerCount: Int
    /// For each spec column, the index of its input field.
    var maskedFields: [Int]
    var policy: ErrorPolicy
    /// Records longer than this are malformed input, not data (a runaway quote, a 100 MB cell).
    var maximumRecordBytes: Int
}

/// Parses a chunk of CSV with its own libcsv parser, one physical line at a time, and writes each
/// record back with its added cells.
final class CSVChunkProcessor: ChunkProcessor {
    let plan: CSVInputPlan
    let encoder: RecordEncoder
    let parser: CSVParser
    let masker: CellMasker

    // The chunk being processed. A processor belongs to one worker at a time, so exclusivity is
    // checked statically.
    @exclusivity(unchecked) private var result = ChunkResult()
    @exclusivity(unchecked) private var output = ByteBuffer()
    /// The line and offset where the record being read began.
    @exclusivity(unchecked) private var recordLine = 0
    @exclusivity(unchecked) private var recordStart = 0

    init(plan: CSVInputPlan, encoder: RecordEncoder, columns: [ColumnSpec]) {
        self.plan = plan
        self.encoder = encoder
        self.parser = CSVParser(delimiter: plan.delimiter)
        self.masker = CellMasker(columns: columns)
    }

    func process(_ chunk: Chunk) -> ChunkResult {
        parser.reset()
        masker.resetStats()
        result = ChunkResult()
        output = ByteBuffer(capacity: chunk.bytes.count * 2)
        chunk.bytes.withUnsafeBufferPointer { bytes in
            process(bytes, chunk: chunk)
        }
        result.output = output
        result.stats = masker.stats
        return result
    }

    private func process(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Chunk) {
        guard let base = bytes.baseAddress else { return }
        let hasNUL = memchr(base, 0, bytes.count) != nil
        var line = chunk.firstLine
        recordLine = line
        recordStart = 0
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = bytes.count
            if let feed = memchr(base + lineStart, 0x0A, bytes.count - lineStart) {
                lineEnd = base.distance(to: feed.assumingMemoryBound(to: UInt8.self)) + 1
            }
            let lineBytes = UnsafeRawBufferPointer(start: base + lineStart, count: lineEnd - lineStart)
            var problem: String?
            if hasNUL, memchr(base + lineStart, 0, lineEnd - lineStart) != nil {
                problem = "NUL byte in the data"
            } else if lineEnd - recordStart > plan.maximumRecordBytes {
                problem = "record longer than \(plan.maximumRecordBytes >> 20) MiB"
            } else if !parser.feed(lineBytes) {
                problem = parser.errorDescription
            } else if !writeCompletedRecords(bytes, end: lineEnd) {
                return
            }
            if let problem {
                guard reject(problem, bytes, end: lineEnd) else { return }
            }
            if parser.isBetweenRecords {
                recordLine = line + 1
                recordStart = lineEnd
            }
            line += 1
            lineStart = lineEnd
        }
        if chunk.isLast || !parser.isBetweenRecords {
            guard parser.finish() else {
                _ = reject("unterminated quoted field", bytes, end: bytes.count)
                return
            }
            _ = writeCompletedRecords(bytes, end: bytes.count)
        }
    }

    /// Rejects the record being read; false when the run must stop (`--on-error fail`).
    private func reject(_ reason: String, _ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        result.rows += 1
        parser.reset()
        guard plan.policy != .fail else {
            result.fatal = .data(plan.file, line: recordLine, reason)
            return false
        }
        result.rejections.append(Rejection(line: recordLine, reason: reason))
        if plan.policy == .quarantine {
            result.quarantine.append(contentsOf: bytes[recordStart..<end])
        }
        return true
    }

    /// Writes the records libcsv completed; false when a bad one stops the run.
    private func writeCompletedRecords(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        var firstField = 0
        var problem: String?
        for fieldCount in parser.completedRecords {
            defer { firstField += fieldCount }
            if fieldCount != plan.headerCount {
                let expected = plan.headerCount
                problem =
                    "expected \(expected) field\(expected == 1 ? "" : "s") as in the header, found \(fieldCount)"
            } else {
                problem = parser.arena.withUnsafeBufferPointer { arena in
                    writeRecord(arena, firstField: firstField, fieldCount: fieldCount)
                }
            }
            if let problem {
                // reject() resets the parser: the records after this one in the line go with it.
                return reject(problem, bytes, end: end)
            }
        }
        parser.dropCompleted()
        return true
    }

    /// Writes one record with its added cells, or says why it cannot be.
    private func writeRecord(_ arena: UnsafeBufferPointer<UInt8>, firstField: Int, fieldCount: Int) -> String?
    {
        let ends = parser.fieldEnds
        func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            let fieldIndex = firstField + index
            let start = fieldIndex == 0 ? 0 : ends[fieldIndex - 1]
            return UnsafeBufferPointer(rebasing: arena[start..<ends[fieldIndex]])
        }
        // Check the masked cells before writing anything, so that a bad record leaves no trace.
        for (column, fieldIndex) in plan.maskedFields.enumerated() where !field(fieldIndex).isValidUTF8 {
            return "invalid UTF-8 in column \"\(masker.columns[column].name)\""
        }
        result.rows += 1
        let row = result.rows
        encoder.beginRecord(&output)
        for index in 0..<fieldCount {
            encoder.cell(field(index), name: index, separator: index > 0, &output)
        }
        var name = fieldCount
        for (index, fieldIndex) in plan.maskedFields.enumerated() {
            name = masker.writeAddedCells(
                field(fieldIndex), column: index, row: row, firstName: name, separator: true,
                encoder: encoder,
                to: &output)
        }
        encoder.endRecord(&output)
        return nil
    }
}
