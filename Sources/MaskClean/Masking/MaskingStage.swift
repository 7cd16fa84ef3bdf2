/// Masks a record batch and has its records written: for each record, the spec's columns are
/// looked up among its fields, masked and counted, and the record goes to the writer with its
/// added cells. It reads fields' texts only: it never sees how a record format spells them.
///
/// One per worker, with its reader and its writer (`BatchProcessor`).
final class MaskingStage {
    let masker: CellMasker
    let writer: RecordWriter
    /// For each spec column, the batch slot its value is in: plain memory, read for every cell.
    let slotOfColumn: UnsafeMutableBufferPointer<Int>
    /// What becomes of a bad record.
    let policy: RejectPolicy
    /// The values replacing their input in the record being written, by spec column, in the
    /// masker's premasked bytes.
    @exclusivity(unchecked) var replacements: [Range<Int>?]
    /// The record's masked values, by spec column, found once for the checks and the masking.
    let values: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>
    /// Whether each spec column has rules (`CellRules`), in plain memory: read for every cell.
    let hasRules: UnsafeMutableBufferPointer<Bool>
    /// Whether each spec column is a phone column; read only for columns with rules.
    let isPhone: UnsafeMutableBufferPointer<Bool>
    /// For each spec column, the batch slot of its `regionColumn` (a phone column's), or -1.
    let regionSlotOfColumn: UnsafeMutableBufferPointer<Int>
    /// JSON from JSON with nested spec columns: where their cells go (nil for every other run).
    let nested: JSONNestedCells?
    /// Whether any column has a region slot: only then are the records' regions looked up.
    let readsRegions: Bool
    /// The record's region cells, by spec column (empty for a column without one).
    let regions: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>
    /// The batch slots of the spec's `key` columns, whose values each sample carries; empty
    /// without a key, and then nothing is looked up.
    let keySlots: [Int]

    /// `regionSlotOfColumn`: for each spec column, the batch slot of its `regionColumn`, or -1
    /// (nil: none has one). The reader hands that slot over as it hands the masked ones; a slot
    /// of a record that lacks it (a JSON key) holds empty text.
    init(
        columns: [ColumnSpec], slotOfColumn: [Int], regionSlotOfColumn: [Int]? = nil, keySlots: [Int] = [],
        policy: RejectPolicy, writer: RecordWriter
    ) {
        self.keySlots = keySlots
        self.masker = CellMasker(columns: columns)
        self.slotOfColumn = .allocate(capacity: slotOfColumn.count)
        _ = self.slotOfColumn.initialize(from: slotOfColumn)
        self.policy = policy
        self.writer = writer
        self.nested = writer.nested
        self.replacements = Array(repeating: nil, count: columns.count)
        self.values = .allocate(capacity: columns.count)
        values.initialize(repeating: UnsafeBufferPointer(start: nil, count: 0))
        self.hasRules = .allocate(capacity: columns.count)
        _ = hasRules.initialize(from: masker.hasRules)
        self.isPhone = .allocate(capacity: columns.count)
        _ = isPhone.initialize(from: masker.isPhone)
        let regionSlots = regionSlotOfColumn ?? Array(repeating: -1, count: columns.count)
        self.regionSlotOfColumn = .allocate(capacity: columns.count)
        _ = self.regionSlotOfColumn.initialize(from: regionSlots)
        self.readsRegions = regionSlots.contains { $0 >= 0 }
        self.regions = .allocate(capacity: columns.count)
        regions.initialize(repeating: UnsafeBufferPointer(start: nil, count: 0))
    }

    deinit {
        slotOfColumn.deallocate()
        values.deallocate()
        hasRules.deallocate()
        isPhone.deallocate()
        regionSlotOfColumn.deallocate()
        regions.deallocate()
    }

    /// Masks `batch`'s records and writes them to `output` (empty), which the result carries.
    func process(_ batch: RecordBatch, into output: ByteBuffer) -> ChunkResult {
        masker.resetStats()
        var result = ChunkResult()
        var out = output
        // Room for the added cells of ordinary records; a huge one grows the buffer only as it needs.
        out.reserve(batch.bytes.count + min(batch.bytes.count, 4 << 20))
        let columnCount = masker.columns.count
        let replaces = masker.replaces
        let checksUTF8 = !batch.textIsUTF8
        // Out in the input's format, nothing replaced or guarded: records are copied as read.
        let copiesRecords = writer.copiesRecords && !replaces
        let joinsLines = writer.joinsLines
        // The texts' two homes, reached without a buffer's checks per cell.
        let decodedBase = batch.decoded.bytes.baseAddress!
        let chunkBase = batch.bytes.baseAddress ?? decodedBase
        // The record that ended the run (`--on-error fail`), if one did.
        var stoppedBy: Int?
        for index in 0..<batch.records.count {
            let record = batch.records[index]
            result.rows += 1
            if record.problem >= 0 {
                guard reject(batch.problems[record.problem], record, batch, &result) else {
                    stoppedBy = index
                    break
                }
                continue
            }
            let first = record.firstField
            var unmaskable = -1
            for column in 0..<columnCount {
                let field = batch.fields[first + slotOfColumn[column]]
                let value = UnsafeBufferPointer(
                    start: (field.isDecoded ? decodedBase : chunkBase) + field.textOffset,
                    count: field.textCount)
                values[column] = value
                if checksUTF8 && unmaskable < 0 && !value.isValidUTF8 { unmaskable = column }
            }
            // A masked value that is not UTF-8 cannot be masked: the record is bad.
            if let problem = writer.problem(record, batch)
                ?? (unmaskable >= 0 ? .invalidUTF8InColumn(masker.columns[unmaskable].name) : nil)
            {
                guard reject(problem, record, batch, &result) else {
                    stoppedBy = index
                    break
                }
                continue
            }
            if !keySlots.isEmpty { readKey(record, batch, decodedBase, chunkBase) }
            if readsRegions {
                for column in 0..<columnCount where regionSlotOfColumn[column] >= 0 {
                    let field = batch.fields[first + regionSlotOfColumn[column]]
                    regions[column] = UnsafeBufferPointer(
                        start: (field.isDecoded ? decodedBase : chunkBase) + field.textOffset,
                        count: field.textCount)
                }
            }
            let row = result.rows
            if replaces { premask(record, row: row) }
            var outputColumn: Int
            let separator: Bool
            let bodyStart = out.count
            if copiesRecords && record.copiable {
                if let nested {
                    nested.checkpoints = [(record.contentOffset, out.count + writer.copiedRecordPrefix.count)]
                }
                (outputColumn, separator) = writer.copy(
                    UnsafeBufferPointer(start: chunkBase + record.contentOffset, count: record.contentCount),
                    fieldCount: record.fieldCount, &out)
            } else {
                writer.beginRecord(&out)
                (outputColumn, separator) = writer.writeFields(
                    record, batch, replacements: replacements, masker: masker, &out)
            }
            if let nested {
                writeCells(
                    index, batch, row: row, outputColumn: outputColumn, separator: separator, nested,
                    bodyStart, &out)
            } else {
                // The cells written here, not through `writeCells`: a call per cell cost 22
                // instructions a cell, which the compiler did not inline away.
                for column in 0..<columnCount {
                    if hasRules[column] {
                        if isPhone[column] {
                            outputColumn = masker.writePhoneCells(
                                values[column], region: region(column), column: column, row: row,
                                outputColumn: outputColumn, separator: separator || column > 0,
                                writer: writer,
                                to: &out)
                            continue
                        }
                        outputColumn = masker.writeAddedCells(
                            values[column], column: column, row: row, outputColumn: outputColumn,
                            separator: separator || column > 0, writer: writer, to: &out, CellsWithRules.self)
                    } else {
                        outputColumn = masker.writeAddedCells(
                            values[column], column: column, row: row, outputColumn: outputColumn,
                            separator: separator || column > 0, writer: writer, to: &out, PlainCells.self)
                    }
                }
            }
            if joinsLines { RecordWriter.joinLines(out, from: bodyStart) }
            writer.endRecord(&out)
        }
        if let stoppedBy {
            (result.blankLines, result.blankLineNumbers) = batch.blankLines(beforeRecord: stoppedBy)
        } else {
            result.blankLines = batch.blankLines
            result.blankLineNumbers = batch.blankLineNumbers
        }
        result.maskedKeysSeen = batch.maskedKeysSeen
        result.keysSeen = batch.keysSeen
        if result.fatal == nil { result.fatal = batch.fatal }
        result.output = out
        result.stats = masker.stats
        return result
    }

    /// Masks spec column `column`'s cell and writes its added cells, the first as output column
    /// `outputColumn`; returns the output column after them. What `process` does inline, for
    /// records with nested columns.
    func writeCells(_ column: Int, row: Int, outputColumn: Int, separator: Bool, _ out: inout ByteBuffer)
        -> Int
    {
        if hasRules[column] {
            if isPhone[column] {
                return masker.writePhoneCells(
                    values[column], region: region(column), column: column, row: row,
                    outputColumn: outputColumn, separator: separator, writer: writer, to: &out)
            }
            return masker.writeAddedCells(
                values[column], column: column, row: row, outputColumn: outputColumn,
                separator: separator, writer: writer, to: &out, CellsWithRules.self)
        }
        return masker.writeAddedCells(
            values[column], column: column, row: row, outputColumn: outputColumn,
            separator: separator, writer: writer, to: &out, PlainCells.self)
    }

    /// The added cells of a record written in JSON with nested spec columns: those of a column
    /// read through its path go inside their object (`JSONNestedCells`), the others at its end.
    @inline(never)
    func writeCells(
        _ record: Int, _ batch: RecordBatch, row: Int, outputColumn first: Int, separator: Bool,
        _ nested: JSONNestedCells, _ bodyStart: Int, _ out: inout ByteBuffer
    ) {
        nested.begin(record, batch)
        var outputColumn = first
        var atEnd = separator
        var cells = nested.cells
        for column in 0..<masker.columns.count {
            if let placed = nested.outputColumn(of: column) {
                let start = cells.count
                let end = writeCells(column, row: row, outputColumn: placed, separator: true, &cells)
                nested.spans[nested.placedIndex[column]] = start..<cells.count
                outputColumn += end - placed
            } else {
                let before = out.count
                outputColumn = writeCells(
                    column, row: row, outputColumn: outputColumn, separator: atEnd, &out)
                atEnd = atEnd || out.count > before
            }
        }
        nested.place(bodyStart: bodyStart, out)
    }

    /// Hands the record's key values to the masker, for the samples it keeps. Out of line: only
    /// a spec with a key pays for it.
    @inline(never)
    func readKey(
        _ record: RecordBatch.Record, _ batch: RecordBatch, _ decodedBase: UnsafePointer<UInt8>,
        _ chunkBase: UnsafePointer<UInt8>
    ) {
        masker.currentKey = keySlots.map { slot in
            let field = batch.fields[record.firstField + slot]
            return UnsafeBufferPointer(
                start: (field.isDecoded ? decodedBase : chunkBase) + field.textOffset, count: field.textCount)
        }
    }

    /// Masks the record's cells that replace their input, before the record is written.
    func premask(_ record: RecordBatch.Record, row: Int) {
        masker.endPremaskedRecord()
        for column in replacements.indices {
            replacements[column] = nil
            guard masker.addedCells[column].replace != nil else { continue }
            replacements[column] = masker.premask(
                values[column], column: column, row: row, region: region(column))
        }
    }

    /// The record's region cell for spec column `column`: nil when it has no `regionColumn`.
    @inline(__always)
    func region(_ column: Int) -> UnsafeBufferPointer<UInt8>? {
        regionSlotOfColumn[column] >= 0 ? regions[column] : nil
    }

    /// Applies `--on-error` to a bad record; false when the run stops. The record that stops it
    /// is not counted: a stopped run's report counts the records before it, whose statuses
    /// add up to its rows (docs/report.md#a-run-that-stopped).
    @inline(never)  // the bad records' path, kept out of the good records' code
    func reject(
        _ problem: RecordProblem, _ record: RecordBatch.Record, _ batch: RecordBatch,
        _ result: inout ChunkResult
    ) -> Bool {
        let outcome = policy.reject(
            problem, line: record.line, record: batch.raw(record), endLine: policy.endsLines, into: &result)
        if outcome == .stop { result.rows -= 1 }
        return outcome == .rejected
    }
}
