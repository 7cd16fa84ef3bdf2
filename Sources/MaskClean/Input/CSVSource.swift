/// CSV and TSV input: the header names the columns (or `--columns` does, for an input without a
/// header line), and each masked column must be one of them.
struct CSVSource: RecordSource {
    let start: InputStart
    private let plan: CSVInputPlan
    private let settings: SourceSettings
    /// For each spec column, the index of its input field.
    private let maskedFields: [Int]
    private let policy: RejectPolicy

    /// Reads the header (or, without one, the first record's line end) and checks the spec
    /// against the columns.
    init(input: InputFile, _ settings: SourceSettings) throws(MaskCleanError) {
        self.settings = settings
        let given = settings.options.columnNames
        let header: CSVHeader
        if let given {
            header = try CSVHeader.given(
                given, input, delimiter: settings.delimiter, limit: settings.maximumRecordBytes)
        } else {
            header = try CSVHeader.read(
                input, delimiter: settings.delimiter, limit: settings.maximumRecordBytes)
        }
        let spec = settings.spec
        var fieldIndex: [String: [Int]] = [:]
        for (index, name) in header.names.enumerated() { fieldIndex[name, default: []].append(index) }
        var maskedFields: [Int] = []
        for column in spec.columns {
            guard let indices = fieldIndex[column.name] else {
                let known = header.names.map { "\"\($0)\"" }.joined(separator: ", ")
                let named = given == nil ? "its columns" : "its columns, as --columns names them"
                throw .spec(
                    spec.file, column.place,
                    "no column \"\(column.name)\" in \(input.name) (\(named): \(known))"
                        + didYouMean(column.name, in: header.names))
            }
            guard indices.count == 1 else {
                throw .data(
                    input.name, line: 1,
                    "the header names column \"\(column.name)\" \(indices.count) times (fields \(indices.map { String($0 + 1) }.joined(separator: ", "))); the spec cannot tell which to mask"
                )
            }
            maskedFields.append(indices[0])
        }
        try settings.checkAddedColumns(against: header.names, of: input.name)
        if settings.outputFormat.isJSON { try Self.checkDistinctKeys(header.names, of: input.name) }
        start = InputStart(
            columnNames: header.names, lineEnd: header.lineEnd, byteOrderMark: header.byteOrderMark,
            leftover: header.leftover, nextLine: header.nextLine)
        self.maskedFields = maskedFields
        policy = RejectPolicy(policy: settings.policy, file: input.name)
        plan = CSVInputPlan(
            delimiter: settings.delimiter, headerCount: header.names.count, columnNames: header.names,
            slotOfField: Array(header.names.indices), maximumRecordBytes: settings.maximumRecordBytes,
            splitsPlainLines: settings.splitsPlainLines, columnsGiven: given != nil)
    }

    func makeSplitter() -> CSVSplitter { CSVSplitter(delimiter: settings.delimiter) }

    func makeReader() -> any RecordReader { CSVRecordReader(plan: plan) }

    /// A reader, a masking stage and `encoder`, for one worker. When records go out in CSV with
    /// the input's delimiter, unchanged but for their added cells, each is copied as read and the
    /// reader hands over only the masked fields; otherwise every field, for the writer.
    func makeProcessor(_ encoder: RecordEncoder) -> ChunkProcessor {
        var plan = plan
        let columns = settings.spec.columns
        let sameCSV = encoder.isCSV && encoder.delimiter == settings.delimiter
        let copiesRecords = sameCSV && !encoder.escapeFormulas && !settings.spec.replaces
        if copiesRecords {
            // Masked fields only, in field order.
            let wanted = Set(maskedFields)
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
        encoder.written = WrittenFields(
            slots: copiesRecords ? [] : Array(plan.columnNames.indices), names: plan.columnNames,
            replacingColumnOfSlot: replacing, columnCount: plan.headerCount, copiesCSV: sameCSV)
        encoder.copiesRecords = copiesRecords
        let stage = MaskingStage(
            columns: columns, slotOfColumn: maskedFields.map { plan.slotOfField[$0] }, policy: policy,
            writer: encoder)
        return BatchProcessor(reader: CSVRecordReader(plan: plan), stage: stage)
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
            throw .data(input.name, line: 1, parsed ? "no header line" : parser.errorDescription)
        }
        var names: [String] = []
        for field in fields.fields {
            guard let name = String(validating: field, as: UTF8.self) else {
                throw .data(input.name, line: 1, "invalid UTF-8 in the header")
            }
            names.append(name)
        }
        let header = headerBytes[..<headerLength]
        return CSVHeader(
            names: names, lineEnd: header.suffix(2) == [0x0D, 0x0A] ? [0x0D, 0x0A] : [0x0A],
            byteOrderMark: skip > 0, leftover: Array(bytes[(skip + headerLength)...]),
            nextLine: 1 + header.count { $0 == 0x0A })
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

/// The column names of an input without a header line (`--no-header --columns`;
/// docs/command-line.md#inputs-without-a-header-line).
public enum ColumnList {
    /// Reads `text` as the header line the input lacks: one CSV record with the run's
    /// `delimiter`, so a name holding the delimiter is quoted (`id,"name, full",phone`). A usage
    /// error when it is not one record of distinct, non-empty names.
    public static func parse(_ text: String, delimiter: UInt8) throws(MaskCleanError) -> [String] {
        let names = try fields(of: text, delimiter: delimiter, option: "--columns", line: "header line")
        try check(names)
        return names
    }

    /// `text` read as one CSV record with `delimiter`: its fields, unchecked. `option` and `line`
    /// say in a message what the text is (`--only`, `line`).
    public static func fields(of text: String, delimiter: UInt8, option: String, line: String = "line")
        throws(MaskCleanError) -> [String]
    {
        let fields = HeaderFields()
        let parser = CSVParser(delimiter: delimiter, sink: fields)
        var parsed = Array(text.utf8).withUnsafeBytes { parser.feed($0) }
        if parsed { parsed = parser.finish() }
        guard parsed else { throw .usage("\(option): \(parser.errorDescription)") }
        guard fields.records <= 1 else {
            throw .usage("\(option) holds a line break outside quotes; it is one \(line)")
        }
        // From a Swift string, the bytes are UTF-8.
        return fields.fields.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A column name as it is typed in a shell for an option that reads a CSV line with commas
    /// (`--only`): quoted as a CSV field when it holds a comma, a quote, a line break or spaces
    /// at its ends, then in single quotes when the shell would take it apart. A name with a
    /// character that cannot be seen or typed (a variation selector, a zero-width space) is made
    /// by printf(1) from octal escapes, as every POSIX shell reads them:
    /// `"$(printf 'd\357\270\217')"`; messages show such a character as an escape, which is
    /// not what the name holds.
    public static func typed(_ name: String) -> String {
        if name.unicodeScalars.contains(where: isShownEscaped) {
            return "\"$(printf '" + printfFormat(csvField(name)) + "')\""
        }
        let field = csvField(name)
        let plain =
            !field.isEmpty
            && field.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "_./:@%+=-".utf8.contains(byte)
                }
            }
        return plain ? field : "'" + replacing("'", with: "'\\''", in: field) + "'"
    }

    /// The name as one field of a CSV line with commas: quoted when it must be.
    private static func csvField(_ name: String) -> String {
        let csvSpecial =
            name.unicodeScalars.contains { ",\"\r\n".unicodeScalars.contains($0) } || name.first == " "
            || name.last == " "
        return csvSpecial ? "\"" + replacing("\"", with: "\"\"", in: name) + "\"" : name
    }

    /// `text` as printf's format between single quotes: `%` doubled, and each byte of a
    /// backslash, a single quote and a character shown as an escape written in octal.
    private static func printfFormat(_ text: String) -> String {
        var format = ""
        for scalar in text.unicodeScalars {
            if scalar == "%" {
                format += "%%"
            } else if scalar == "\\" || scalar == "'" || isShownEscaped(scalar) {
                for byte in String(scalar).utf8 { format += "\\" + String(byte, radix: 8) }
            } else {
                format.unicodeScalars.append(scalar)
            }
        }
        return format
    }

    private static func replacing(_ character: Character, with text: String, in name: String) -> String {
        name.split(separator: character, omittingEmptySubsequences: false).joined(separator: text)
    }

    /// The rules `parse` keeps, for names given another way: at least one name, none of them
    /// empty, no name twice (a masked column would be ambiguous, a JSON record's key doubled).
    public static func check(_ names: [String]) throws(MaskCleanError) {
        guard !names.isEmpty else {
            throw .usage("--columns is empty; name the input's columns in order: --columns id,name,phone")
        }
        var first: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            guard !name.isEmpty else {
                throw .usage("--columns: column \(index + 1) of \(names.count) has an empty name")
            }
            if let earlier = first[name] {
                throw .usage("--columns names \"\(name)\" twice (columns \(earlier + 1) and \(index + 1))")
            }
            first[name] = index
        }
    }
}

extension RunOptions {
    /// `columnNames` are for CSV and TSV input only, and keep `ColumnList`'s rules.
    func checkColumnNames(inputFormat: RecordFormat) throws(MaskCleanError) {
        guard let columnNames else { return }
        guard !inputFormat.isJSON else {
            throw .usage(
                "--no-header is for CSV and TSV input; \(inputFormat.rawValue) records name their own keys")
        }
        try ColumnList.check(columnNames)
    }
}

/// The header's fields, as the parser hands them over; what follows the first record is not
/// the header's.
private final class HeaderFields: CSVFieldSink {
    var fields: [[UInt8]] = []
    /// Records ended: the header's, then any after it.
    var records = 0
    var ended: Bool { records > 0 }

    func field(_ bytes: UnsafeRawBufferPointer) {
        if !ended { fields.append(Array(bytes)) }
    }

    func endRecord() {
        records += 1
    }
}
