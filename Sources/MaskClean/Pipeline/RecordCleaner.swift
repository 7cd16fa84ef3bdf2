/// Masks records held in memory as `maskclean run` masks a file's, for a Swift program that
/// links MaskClean: nothing is read from or written to a file, and nothing is printed. The
/// records go through the masking stage and the report a run makes (docs/architecture.md).
///
/// ```swift
/// import MaskClean
///
/// let spec = try SpecLoader.parse(
///     Array(#"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]"}]}"#.utf8),
///     file: "spec.json")
/// var cleaner = try RecordCleaner(spec: spec, columns: ["id", "phone"])
/// let cleaned = try cleaner.clean([["1", "(555) 123-4567"], ["2", "555-12"]])
/// // cleaner.columns: id, phone, phone_formatted, phone_extracted, phone_status
/// // cleaned[0]: 1, (555) 123-4567, +1 (555) 123-4567, 5551234567, complete
/// // cleaned[1]: 2, 555-12, +1 (555) 12, 55512, incomplete
/// print(cleaner.report.columns[0].stats.complete, cleaner.report.passed)  // 1 true
/// ```
///
/// Records may be cleaned in several calls; the report adds them all up, and rows are numbered
/// on from one call to the next.
public struct RecordCleaner {
    /// The columns of the records `clean` returns: the input's, then the ones the spec adds.
    public let columns: [String]
    /// What the records cleaned so far add up to, as a run's report.
    public var report: Report { totals.report }

    private let inputColumns: [String]
    private let stage: MaskingStage
    private var totals: RunTotals

    /// Checks the spec against the records' columns, in order, as a run checks it against a CSV
    /// header: every masked column must be one of them, and no added column may repeat one.
    public init(spec: Spec, columns: [String]) throws(MaskCleanError) {
        for column in spec.columns where !columns.contains(column.name) {
            let known = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            throw .spec(
                spec.file, column.place,
                "no column \"\(column.name)\" in the records (their columns: \(known))\(didYouMean(column.name, in: columns))"
            )
        }
        for column in spec.columns {
            guard let region = column.regionColumn, !columns.contains(region) else { continue }
            let known = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            throw .spec(
                spec.file, "\(column.place): regionColumn",
                "no column \"\(region)\" in the records (their columns: \(known))\(didYouMean(region, in: columns))"
            )
        }
        let settings = SourceSettings(
            spec: spec, options: RunOptions(input: "", output: nil, jobs: 1), outputFormat: .csv,
            delimiter: UInt8(ascii: ","))
        try settings.checkAddedColumns(against: columns, of: "the records")
        self.inputColumns = columns
        self.columns = columns + spec.addedColumns
        let writer = RecordWriter(layout: .cells, escapeFormulas: false, columnNames: self.columns)
        var replacing = [Int](repeating: -1, count: columns.count)
        for (index, column) in spec.columns.enumerated().reversed() where column.replace != nil {
            replacing[columns.firstIndex(of: column.name)!] = index
        }
        writer.written = WrittenFields(
            slots: Array(columns.indices), names: columns, replacingColumnOfSlot: replacing,
            columnCount: columns.count)
        stage = MaskingStage(
            columns: spec.columns, slotOfColumn: spec.columns.map { columns.firstIndex(of: $0.name)! },
            regionSlotOfColumn: spec.columns.map {
                $0.regionColumn.map { columns.firstIndex(of: $0)! } ?? -1
            },
            policy: RejectPolicy(policy: .fail, file: "records"), writer: writer)
        totals = RunTotals(spec: spec)
    }

    /// Masks `records`, each its cells in `columns` order, and returns each with its added cells;
    /// the report counts them. A record with another number of cells is an error naming the
    /// record (counted from 1 over every call), and nothing of this call's records is counted.
    /// (A Swift `String` is always UTF-8, so no cell is refused for its text.)
    public mutating func clean(_ records: [[String]]) throws(MaskCleanError) -> [[String]] {
        let bytes = ByteBuffer()
        let batch = RecordBatch()
        var spans: [(Int, Int)] = []
        for record in records {
            let start = bytes.count
            spans.removeAll(keepingCapacity: true)
            for cell in record {
                let cellStart = bytes.count
                bytes.append(Array(cell.utf8))
                spans.append((cellStart, bytes.count))
            }
            spans.append((start, bytes.count))
            batch.records.append(
                RecordBatch.Record(
                    line: totals.report.rows + batch.records.count + 1, raw: start..<bytes.count,
                    content: 0..<0,
                    copiable: false, firstField: batch.fields.count, fieldCount: record.count,
                    problem: record.count == inputColumns.count ? -1 : batch.problems.count))
            if record.count != inputColumns.count {
                batch.problems.append(.fieldCount(expected: inputColumns.count, found: record.count))
                continue
            }
            for (cellStart, cellEnd) in spans.dropLast() {
                batch.fields.append(
                    RecordBatch.Field(
                        raw: cellStart..<cellEnd, text: cellStart..<cellEnd, isDecoded: false, hasRaw: false,
                        kind: .string))
            }
        }
        batch.bytes = bytes.bytes
        let result = stage.process(batch, into: ByteBuffer())
        if let fatal = result.fatal { throw fatal }
        totals.add(result)
        return CellsLayout.records(result.output.bytes)
    }
}
