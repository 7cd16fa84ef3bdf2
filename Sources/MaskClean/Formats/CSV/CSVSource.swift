/// CSV and TSV input: the header names the columns (or `--columns` does, for an input without a
/// header line), and each masked column must be one of them.
struct CSVSource: RecordSource {
    let start: InputStart
    private let plan: CSVInputPlan
    private let settings: SourceSettings
    /// For each spec column, the index of its input field.
    private let maskedFields: [Int]
    /// For each spec column, the index of its `regionColumn`'s field (a phone column's), or -1.
    private let regionFields: [Int]
    /// The fields of the spec's `key` columns.
    private let keyFields: [Int]
    private let policy: RejectPolicy

    /// Reads the header (or, without one, the first record's line end) and checks the spec
    /// against the columns.
    init(input: InputFile, _ settings: SourceSettings) throws(MaskCleanError) {
        self.settings = settings
        let given = settings.options.columnNames
        var header: CSVHeader
        if let given {
            header = try CSVHeader.given(
                given, input, delimiter: settings.delimiter, limit: settings.maximumRecordBytes)
        } else {
            header = try CSVHeader.read(
                input, delimiter: settings.delimiter, limit: settings.maximumRecordBytes)
        }
        // A header that alone ends with a delimiter (its first record has one field fewer) has
        // nothing after its last name: the records are read, and written back, as they are.
        if header.trailingDelimiter,
            CSVHeader.fieldCount(ofFirstRecordIn: header.leftover, delimiter: settings.delimiter)
                == header.names.count
        {
            header.trailingDelimiter = false
        }
        let spec = settings.spec
        var fieldIndex: [String: [Int]] = [:]
        for (index, name) in header.names.enumerated() { fieldIndex[name, default: []].append(index) }
        var maskedFields: [Int] = []
        for column in spec.columns {
            guard let indices = fieldIndex[column.name] else {
                let known = header.names.map { "\"\($0)\"" }.joined(separator: ", ")
                let named: UsageMessage =
                    given == nil ? "its columns" : "its columns, as \(Setting.columnNames) names them"
                throw .spec(
                    spec.file, column.place,
                    "no column \"\(column.name)\" in \(input.name) (\(named): \(known))\(didYouMean(column.name, in: header.names))"
                )
            }
            try Self.requireOne(
                column.name, indices, spec: spec, place: column.place, given: given != nil, input: input.name,
                "the spec cannot tell which to mask")
            maskedFields.append(indices[0])
        }
        var regionFields: [Int] = []
        for column in spec.columns {
            guard let region = column.regionColumn else {
                regionFields.append(-1)
                continue
            }
            guard let indices = fieldIndex[region] else {
                let known = header.names.map { "\"\($0)\"" }.joined(separator: ", ")
                throw .spec(
                    spec.file, "\(column.place): regionColumn",
                    "no column \"\(region)\" in \(input.name) (its columns: \(known))\(didYouMean(region, in: header.names))"
                )
            }
            try Self.requireOne(
                region, indices, spec: spec, place: "\(column.place): regionColumn", given: given != nil,
                input: input.name, "the spec cannot tell which holds the regions")
            regionFields.append(indices[0])
        }
        self.regionFields = regionFields
        var keyFields: [Int] = []
        for name in spec.key {
            guard let indices = fieldIndex[name] else {
                let known = header.names.map { "\"\($0)\"" }.joined(separator: ", ")
                throw .spec(
                    spec.file, "key",
                    "no column \"\(name)\" in \(input.name) (its columns: \(known))\(didYouMean(name, in: header.names))"
                )
            }
            try Self.requireOne(
                name, indices, spec: spec, place: "key", given: given != nil, input: input.name,
                "the spec's key cannot tell which names a record")
            keyFields.append(indices[0])
        }
        self.keyFields = keyFields
        try settings.checkAddedColumns(against: header.names, of: input.name)
        if settings.outputFormat.isJSON && settings.writesRecords {
            try Self.checkDistinctKeys(header.names, of: input.name)
        }
        // A trailing delimiter's empty field is written back in CSV (docs/record-formats.md);
        // JSON has no key for it.
        let fieldNames = header.names + (header.trailingDelimiter ? [""] : [])
        writtenFieldCount = settings.outputFormat.isJSON ? header.names.count : fieldNames.count
        start = InputStart(
            columnNames: Array(fieldNames.prefix(writtenFieldCount)), lineEnd: header.lineEnd,
            byteOrderMark: header.byteOrderMark, leftover: header.leftover, nextLine: header.nextLine,
            trailingDelimiter: header.trailingDelimiter)
        self.maskedFields = maskedFields
        policy = RejectPolicy(policy: settings.policy, file: input.name)
        plan = CSVInputPlan(
            delimiter: settings.delimiter, headerCount: fieldNames.count, columnNames: fieldNames,
            slotOfField: Array(fieldNames.indices), maximumRecordBytes: settings.maximumRecordBytes,
            splitsPlainLines: settings.splitsPlainLines, columnsGiven: given != nil,
            trailingDelimiter: header.trailingDelimiter)
    }

    /// The input's fields a writer writes one by one: all but a trailing delimiter's empty one
    /// in JSON.
    private let writtenFieldCount: Int

    func makeSplitter() -> CSVSplitter { CSVSplitter(delimiter: settings.delimiter) }

    func makeReader() -> any RecordReader { CSVRecordReader(plan: plan) }

    /// A reader, a masking stage and `writer`, for one worker. When records go out in CSV with
    /// the input's delimiter, unchanged but for their added cells, each is copied as read and the
    /// reader hands over only the masked fields; otherwise every field, for the writer.
    func makeProcessor(_ writer: RecordWriter) -> ChunkProcessor {
        var plan = plan
        let columns = settings.spec.columns
        let sameCSV = writer.isCSV && writer.delimiter == settings.delimiter
        let copiesRecords = sameCSV && !writer.escapeFormulas && !settings.spec.replaces
        if copiesRecords {
            // Masked fields only, in field order.
            let wanted = Set(maskedFields + regionFields.filter { $0 >= 0 } + keyFields)
            var next = 0
            plan.slotOfField = plan.slotOfField.indices.map { field in
                guard wanted.contains(field) else { return -1 }
                defer { next += 1 }
                return next
            }
        }
        var replacing = [Int](repeating: -1, count: plan.slots)
        for (column, field) in maskedFields.enumerated().reversed() where columns[column].replace != nil {
            replacing[plan.slotOfField[field]] = column
        }
        writer.written = WrittenFields(
            slots: copiesRecords ? [] : Array(plan.columnNames.indices.prefix(writtenFieldCount)),
            names: plan.columnNames,
            replacingColumnOfSlot: replacing, columnCount: writtenFieldCount, copiesCSV: sameCSV)
        writer.copiesRecords = copiesRecords
        let stage = MaskingStage(
            columns: columns, slotOfColumn: maskedFields.map { plan.slotOfField[$0] },
            regionSlotOfColumn: regionFields.map { $0 >= 0 ? plan.slotOfField[$0] : -1 },
            keySlots: keyFields.map { plan.slotOfField[$0] }, policy: policy, writer: writer)
        return BatchProcessor(reader: CSVRecordReader(plan: plan), stage: stage)
    }

    /// A column the spec names must be one field. A header that repeats the name is the data's
    /// doing; `--columns` that repeats it (for columns no spec column names) makes naming it a
    /// spec error: the message lists the positions.
    private static func requireOne(
        _ name: String, _ indices: [Int], spec: Spec, place: String, given: Bool, input: String,
        _ consequence: String
    ) throws(MaskCleanError) {
        guard indices.count > 1 else { return }
        let positions = indices.map { String($0 + 1) }.joined(separator: ", ")
        guard given else {
            throw .data(
                input, line: 1,
                "the header names column \"\(name)\" \(indices.count) times (fields \(positions)); \(consequence)"
            )
        }
        throw .spec(
            spec.file, place,
            "\"\(name)\" names \(indices.count) columns of \(Setting.columnNames) (columns \(positions)); \(consequence): give the column a name of its own there"
        )
    }

    /// CSV to JSON: a header name written twice (two empty names too) would give every record
    /// a duplicate key, of which a consumer keeps one value.
    private static func checkDistinctKeys(_ names: [String], of file: String) throws(MaskCleanError) {
        var first: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            if let earlier = first[name] {
                throw .data(
                    file, line: 1,
                    "the header names column \"\(name)\" twice (fields \(earlier + 1) and \(index + 1)): JSON output would give each record two \"\(name)\" keys; rename one"
                )
            }
            first[name] = index
        }
    }
}

/// A CSV input's header record, read before the chunks.
struct CSVHeader {
    var names: [String]
    /// The header's line end, which a CSV output keeps.
    var lineEnd: [UInt8]
    var byteOrderMark: Bool
    /// The header ended with a delimiter: its last, empty field is not in `names`
    /// (docs/record-formats.md#a-trailing-delimiter).
    var trailingDelimiter = false
    /// Bytes read past the header, and the line they start on.
    var leftover: [UInt8]
    var nextLine: Int

    /// Reads up to the end of the header record and parses it.
    static func read(_ input: InputFile, delimiter: UInt8, limit: Int) throws(MaskCleanError) -> CSVHeader {
        let (bytes, end) = try readFirstRecord(input, delimiter: delimiter, limit: limit)
        if end == nil && bytes.count > limit {
            throw .data(input.name, line: 1, "the header is longer than \(byteCount(limit))")
        }
        try InputText.refuseUTF16(bytes, file: input.name)
        let skip = InputText.byteOrderMarkLength(bytes)
        let headerEnd = end ?? bytes.count
        guard headerEnd > skip else {
            throw .data(
                input.name, line: 1, "empty file: no header line (a CSV input starts with its column names)"
            )
        }
        let headerBytes = Array(bytes[skip..<headerEnd])
        let fields = HeaderFields()
        let parser = CSVParser(delimiter: delimiter, sink: fields)
        // The header ends where its record does, at a bare CR too: the records after it on the
        // line are data.
        var parsed = true
        var headerLength = 0
        while headerLength < headerBytes.count, !fields.ended, parsed {
            parsed = headerBytes.withUnsafeBufferPointer { header in
                let end = CSVParser.pieceEnd(header, from: headerLength, before: header.count) ?? header.count
                defer { headerLength = end }
                return parser.feed(
                    UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(header)[headerLength..<end]))
            }
        }
        if parsed && !fields.ended { parsed = parser.finish() }
        guard parsed, fields.ended else {
            throw .data(
                input.name, line: 1, UsageMessage(parsed ? "no header line" : parser.errorDescription))
        }
        var names: [String] = []
        for field in fields.fields {
            guard let name = String(validating: field, as: UTF8.self) else {
                let hint = InputText.encodingHint(headerBytes).map { " (" + $0 + ")" } ?? ""
                throw .data(input.name, line: 1, "invalid UTF-8 in the header" + hint)
            }
            names.append(name)
        }
        let header = headerBytes[..<headerLength]
        // One empty name at the end, after a named column: the line ends with a delimiter.
        let trailingDelimiter = names.count >= 2 && names.last == "" && names[names.count - 2] != ""
        if trailingDelimiter { names.removeLast() }
        return CSVHeader(
            names: names, lineEnd: header.suffix(2) == [0x0D, 0x0A] ? [0x0D, 0x0A] : [0x0A],
            byteOrderMark: skip > 0, trailingDelimiter: trailingDelimiter,
            leftover: Array(bytes[(skip + headerLength)...]), nextLine: 1 + header.count { $0 == 0x0A })
    }

    /// How many fields the first record in `bytes` has, when `bytes` hold all of it and it
    /// reads as CSV; nil otherwise.
    static func fieldCount(ofFirstRecordIn bytes: [UInt8], delimiter: UInt8) -> Int? {
        var splitter = CSVSplitter(delimiter: delimiter)
        let end = bytes.withUnsafeBufferPointer { splitter.scanToFirstBoundary($0).boundary }
        guard let end else { return nil }
        let fields = HeaderFields()
        let parser = CSVParser(delimiter: delimiter, sink: fields)
        var parsed = bytes.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[..<end])) }
        if parsed && !fields.ended { parsed = parser.finish() }
        return parsed && fields.ended ? fields.fields.count : nil
    }

    /// The start of an input without a header line (`--no-header`): `names` are its columns, and
    /// its first record begins at its first byte, past a byte-order mark. That record's line end
    /// is the output's, as a header's would be (a line feed when there is no record, or when the
    /// first is longer than `limit`, which the records' reading then reports).
    static func given(_ names: [String], _ input: InputFile, delimiter: UInt8, limit: Int)
        throws(MaskCleanError) -> CSVHeader
    {
        let (bytes, end) = try readFirstRecord(input, delimiter: delimiter, limit: limit)
        try InputText.refuseUTF16(bytes, file: input.name)
        let skip = InputText.byteOrderMarkLength(bytes)
        let first = bytes[skip..<(end ?? (bytes.count > limit ? skip : bytes.count))]
        return CSVHeader(
            names: names, lineEnd: first.suffix(2) == [0x0D, 0x0A] ? [0x0D, 0x0A] : [0x0A],
            byteOrderMark: skip > 0, leftover: Array(bytes[skip...]), nextLine: 1)
    }

    /// Reads block by block up to the first record boundary (a line feed or a bare CR outside
    /// quotes: an old Mac export has no line feed at all), past a byte-order mark. Returns the
    /// bytes read and where that boundary is in them: nil at the end of the input, or once more
    /// than `limit` bytes were read without one.
    private static func readFirstRecord(_ input: InputFile, delimiter: UInt8, limit: Int)
        throws(MaskCleanError) -> (bytes: [UInt8], end: Int?)
    {
        var bytes: [UInt8] = []
        var splitter = CSVSplitter(delimiter: delimiter)
        var scanned = -1  // set past the byte-order mark, if any, once the first bytes are in
        while true {
            if scanned < 0 && bytes.count >= 3 { scanned = InputText.byteOrderMarkLength(bytes) }
            if scanned >= 0 && scanned < bytes.count {
                let scan = bytes.withUnsafeBufferPointer {
                    splitter.scanToFirstBoundary(UnsafeBufferPointer(rebasing: $0[scanned...]))
                }
                if let boundary = scan.boundary { return (bytes, scanned + boundary) }
                scanned = bytes.count
            }
            if bytes.count > limit { return (bytes, nil) }
            if try input.read(appendingTo: &bytes) == 0 { return (bytes, nil) }
        }
    }
}
