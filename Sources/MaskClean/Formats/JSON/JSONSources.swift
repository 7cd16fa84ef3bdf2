/// NDJSON input: a record a line, after an optional byte-order mark.
struct NDJSONSource: RecordSource {
    let start: InputStart
    private let records: JSONRecords

    init(input: InputFile, _ settings: SourceSettings) throws(MaskCleanError) {
        var bytes: [UInt8] = []
        while bytes.count < 3, try input.read(appendingTo: &bytes) > 0 {}
        try InputText.refuseUTF16(bytes, file: input.name)
        bytes.removeFirst(InputText.byteOrderMarkLength(bytes))
        (records, start) = try JSONRecords.open(input, settings, isArray: false, leftover: bytes, line: 1)
    }

    func makeSplitter() -> LineSplitter { LineSplitter() }

    func makeProcessor(_ writer: RecordWriter) -> ChunkProcessor { records.makeProcessor(writer) }
    func makeReader() -> any RecordReader { JSONRecordReader(plan: records.plan) }

    func finish(_ totals: inout RunTotals) throws(MaskCleanError) { try records.checkMaskedKeysSeen(&totals) }
}

/// A JSON array of records: its `[` is read first, and the splitter finds the commas between
/// records and the `]` that closes it.
struct JSONArraySource: RecordSource {
    let start: InputStart
    private let records: JSONRecords

    init(input: InputFile, _ settings: SourceSettings) throws(MaskCleanError) {
        var bytes: [UInt8] = []
        while true {
            let count = try input.read(appendingTo: &bytes)
            // A pipe may hand over a byte-order mark a byte at a time: wait for the rest of it.
            if count > 0 && bytes.count < 3 && InputText.byteOrderMark.starts(with: bytes) { continue }
            if bytes.count >= 4 || count == 0 { try InputText.refuseUTF16(bytes, file: input.name) }
            var position = InputText.byteOrderMarkLength(bytes)
            var line = 1
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
                if bytes[position] == 0x0A { line += 1 }
                position += 1
            }
            if position < bytes.count {
                guard bytes[position] == UInt8(ascii: "[") else {
                    throw .data(
                        input.name, line: line,
                        "expected a JSON array of records ('['); for one object a line, use \(Setting.inputFormat) ndjson"
                    )
                }
                (records, start) = try JSONRecords.open(
                    input, settings, isArray: true, leftover: Array(bytes[(position + 1)...]), line: line)
                return
            }
            if count == 0 {
                throw .data(input.name, line: 1, "empty file: expected a JSON array of records")
            }
        }
    }

    func makeSplitter() -> JSONArraySplitter { JSONArraySplitter() }

    func makeProcessor(_ writer: RecordWriter) -> ChunkProcessor { records.makeProcessor(writer) }
    func makeReader() -> any RecordReader { JSONRecordReader(plan: records.plan) }

    func finish(_ totals: inout RunTotals) throws(MaskCleanError) { try records.checkMaskedKeysSeen(&totals) }
}

/// What NDJSON and JSON-array inputs share once their opening is read: the keys, and the checks
/// on them.
private struct JSONRecords {
    let plan: JSONInputPlan
    let spec: Spec
    /// The input is one partition of a larger one (`--part`).
    let partitioned: Bool
    let policy: RejectPolicy

    /// Reads, for CSV output, the first record's keys (the output's columns), and checks the
    /// spec's added columns against them.
    static func open(
        _ input: InputFile, _ settings: SourceSettings, isArray: Bool, leftover: [UInt8], line: Int
    ) throws(MaskCleanError) -> (JSONRecords, InputStart) {
        var leftover = leftover
        var csvColumns: [String]?
        if !settings.outputFormat.isJSON {
            csvColumns = try firstRecordKeys(input, &leftover, limit: settings.maximumRecordBytes)
        }
        try settings.checkAddedColumns(against: csvColumns ?? [], of: input.name)
        let spec = settings.spec
        try JSONNestedCells.check(spec, writesJSON: settings.outputFormat.isJSON)
        if let csvColumns {
            // A CSV cell holds a nested value as its JSON text: `replace` cannot write into it.
            for column in spec.columns where column.replace != nil && !csvColumns.contains(column.name) {
                if let path = JSONPath(column.name), !path.isTopLevel {
                    throw .spec(
                        spec.file, "\(column.place): replace",
                        "writes into a nested value only when the output is JSON; the \(settings.outputFormat.rawValue.uppercased()) output holds \"\(path.prefix(1))\" as JSON text"
                    )
                }
            }
        }
        var plan = JSONInputPlan(
            isArray: isArray, maskedKeys: spec.columnsRead, addedKeys: spec.addedColumns,
            csvColumns: csvColumns, file: input.name, maximumRecordBytes: settings.maximumRecordBytes)
        if settings.outputFormat.isJSON {
            plan.addedMembers = Array(repeating: [], count: spec.columns.count)
            plan.addedOfColumn = spec.columns.map(\.addedColumns)
            for (index, path) in JSONNestedCells.placed(spec.columns) {
                plan.addedMembers[index] = spec.columns[index].addedColumns.map {
                    path.memberName(ofAdded: $0)
                }
                plan.placedColumns.append(index)
            }
        }
        return (
            JSONRecords(
                plan: plan, spec: spec, partitioned: settings.options.part != nil,
                policy: RejectPolicy(policy: settings.policy, file: input.name, endsLines: true)),
            InputStart(columnNames: csvColumns, leftover: leftover, nextLine: line)
        )
    }

    /// A reader, a masking stage and `writer`, for one worker. A record's slots are its masked
    /// keys' values (with the region keys of phone columns that are not masked themselves,
    /// `Spec.columnsRead`), then for CSV output its columns'; JSON output copies each record as
    /// read.
    func makeProcessor(_ writer: RecordWriter) -> ChunkProcessor {
        let columns = spec.columns
        let csvColumns = plan.csvColumns ?? []
        let masked = plan.maskedKeys.count
        var replacing = [Int](repeating: -1, count: plan.slots)
        for (index, name) in csvColumns.enumerated() {
            replacing[masked + index] = columns.firstIndex { $0.name == name && $0.replace != nil } ?? -1
        }
        writer.written = WrittenFields(
            slots: Array(masked..<(masked + csvColumns.count)), names: csvColumns,
            replacingColumnOfSlot: replacing, columnCount: csvColumns.count, copiesJSON: !writer.isCSV,
            slotOfColumn: Array(columns.indices))
        writer.copiesRecords = !writer.isCSV && !writer.escapeFormulas
        if writer.isJSON { writer.nested = Self.nestedCells(columns, writer) }
        if case .json(array: false) = writer.layout, plan.isArray { writer.joinsLines = true }
        let stage = MaskingStage(
            columns: columns, slotOfColumn: Array(columns.indices),
            regionSlotOfColumn: spec.regionIndexOfColumn, keySlots: spec.keyIndices, policy: policy,
            writer: writer)
        return BatchProcessor(reader: JSONRecordReader(plan: plan), stage: stage)
    }

    /// For JSON output: the columns whose paths go through an object, whose cells go in it; nil
    /// when there are none.
    private static func nestedCells(_ columns: [ColumnSpec], _ writer: RecordWriter) -> JSONNestedCells? {
        var placed: [JSONNestedCells.Column] = []
        for (index, path) in JSONNestedCells.placed(columns) {
            let column = columns[index]
            let first = writer.appendColumnNames(column.addedColumns.map { path.memberName(ofAdded: $0) })
            placed.append(
                JSONNestedCells.Column(
                    column: index, path: path, firstOutputColumn: first))
        }
        return placed.isEmpty ? nil : JSONNestedCells(columns: placed, columnCount: columns.count)
    }

    /// A masked key that no record has is a misspelled spec, not a column of empty cells. Only
    /// known once every record is read: the outputs are still temporary then. A partition
    /// (`--part`) may lack a sparse key: its report says which keys it found, and `merge` judges
    /// them over every partition.
    func checkMaskedKeysSeen(_ totals: inout RunTotals) throws(MaskCleanError) {
        for (index, seen) in zip(totals.report.columns.indices, totals.maskedKeysSeen) {
            totals.report.columns[index].keyFound = seen
        }
        guard totals.report.rows > totals.report.rejectedCount, !partitioned else { return }
        let known = totals.keysSeen.map { "\"\($0)\"" }.joined(separator: ", ")
        for (column, seen) in zip(spec.columns, totals.maskedKeysSeen) where !seen {
            if let path = JSONPath(column.name), !path.isTopLevel {
                // The first record's keys are top-level: a suggestion would name the wrong thing.
                throw .spec(
                    spec.file, column.place,
                    "no record of \(plan.file) has a value at \"\(column.name)\", read as a path or as a key (top-level keys seen: \(known))"
                )
            }
            throw .spec(
                spec.file, column.place,
                "no record of \(plan.file) has the key \"\(column.name)\" (keys seen: \(known))\(didYouMean(column.name, in: totals.keysSeen))"
            )
        }
        // A region key no record has is misspelled too; a record without it has an empty region.
        let regionIndices = spec.regionIndexOfColumn
        for (column, index) in zip(spec.columns, regionIndices)
        where index >= 0 && !totals.maskedKeysSeen[index] {
            let region = column.regionColumn!
            throw .spec(
                spec.file, "\(column.place): regionColumn",
                "no record of \(plan.file) has the key \"\(region)\" (keys seen: \(known))\(didYouMean(region, in: totals.keysSeen))"
            )
        }
    }

    /// For CSV output from JSON: the first record's keys are the columns. Reads ahead, onto
    /// `bytes`, until the first record is whole.
    private static func firstRecordKeys(_ input: InputFile, _ bytes: inout [UInt8], limit: Int)
        throws(MaskCleanError) -> [String]
    {
        while true {
            var keys: [String] = []
            let scanned: Bool? = bytes.withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer)
                let reader = JSONScanner(buffer)
                guard scanner.peek() != nil else { return nil }
                do {
                    _ = try scanner.scanObject { (key: JSONToken, _: JSONToken) throws(JSONSyntaxError) in
                        keys.append(reader.decodeString(key) ?? "")
                    }
                    return true
                } catch {
                    return scanner.isAtEnd ? nil : false
                }
            }
            // A key the first record repeats is one column (the record itself is rejected).
            if scanned == true {
                var distinct = Set<String>()
                return keys.filter { distinct.insert($0).inserted }
            }
            let tooLong = bytes.count > limit
            // No whole first record: the chunks will report what is wrong with it.
            if try input.read(appendingTo: &bytes) == 0 || scanned == false || tooLong { return keys }
        }
    }
}
