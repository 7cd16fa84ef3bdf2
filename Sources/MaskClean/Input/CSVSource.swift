/// CSV and TSV input: the header names the columns, and each masked column must be one of them.
struct CSVSource: RecordSource {
    let start: InputStart
    private let plan: CSVInputPlan
    private let settings: SourceSettings

    /// Reads the header and checks the spec against it.
    init(input: InputFile, _ settings: SourceSettings) throws(MaskCleanError) {
        self.settings = settings
        let header = try CSVHeader.read(
            input, delimiter: settings.delimiter, limit: settings.maximumRecordBytes)
        let spec = settings.spec
        var fieldIndex: [String: [Int]] = [:]
        for (index, name) in header.names.enumerated() { fieldIndex[name, default: []].append(index) }
        var maskedFields: [Int] = []
        for column in spec.columns {
            guard let indices = fieldIndex[column.name] else {
                let known = header.names.map { "\"\($0)\"" }.joined(separator: ", ")
                throw .spec(
                    spec.file, column.place,
                    "no column \"\(column.name)\" in \(input.name) (its columns: \(known))"
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
        plan = CSVInputPlan(
            delimiter: settings.delimiter, headerCount: header.names.count, columnNames: header.names,
            maskedFields: maskedFields, rejectPolicy: RejectPolicy(policy: settings.policy, file: input.name),
            maximumRecordBytes: settings.maximumRecordBytes, splitsPlainLines: false)
    }

    func makeSplitter() -> CSVSplitter { CSVSplitter(delimiter: settings.delimiter) }

    func makeProcessor(_ encoder: RecordEncoder) -> ChunkProcessor {
        var plan = plan
        plan.splitsPlainLines =
            settings.splitsPlainLines && encoder.writesFieldsAsRead(delimiter: settings.delimiter)
            && !settings.spec.replaces
        return CSVChunkProcessor(plan: plan, encoder: encoder, columns: settings.spec.columns)
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
        var bytes: [UInt8] = []
        var splitter = CSVSplitter(delimiter: delimiter)
        var scanned = -1  // set past the byte-order mark, if any, once the first bytes are in
        var end: Int?
        // Up to the first record boundary (a line feed or a bare CR outside quotes), read block by
        // block: an old Mac export has no line feed at all.
        reading: while true {
            if scanned < 0 && bytes.count >= 3 { scanned = InputText.byteOrderMarkLength(bytes) }
            if scanned >= 0 && scanned < bytes.count {
                let scan = bytes.withUnsafeBufferPointer {
                    splitter.scanToFirstBoundary(UnsafeBufferPointer(rebasing: $0[scanned...]))
                }
                if let boundary = scan.boundary {
                    end = scanned + boundary
                    break reading
                }
                scanned = bytes.count
            }
            if bytes.count > limit {
                throw .data(input.name, line: 1, "the header is longer than \(byteCount(limit))")
            }
            if try input.read(appendingTo: &bytes) == 0 { break }
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
}

/// The header's fields, as the parser hands them over; what follows the first record is not
/// the header's.
private final class HeaderFields: CSVFieldSink {
    var fields: [[UInt8]] = []
    var ended = false

    func field(_ bytes: UnsafeRawBufferPointer) {
        if !ended { fields.append(Array(bytes)) }
    }

    func endRecord() {
        ended = true
    }
}
