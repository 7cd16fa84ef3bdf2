/// How each output format frames its records: what comes before the first (a CSV header row, a
/// JSON array's `[`), between two (a JSON array's `,`), and after the last (`]`).
///
/// Records are masked in chunks that know nothing of each other, so every JSON-array record is
/// written with the separator before it, and the framing drops the very first one as the chunks
/// are written in order.
struct RecordFraming {
    /// Before every record of a JSON array: the comma that ends the one before, and a line feed.
    static let arraySeparator: [UInt8] = [UInt8(ascii: ","), 0x0A]

    let format: RecordFormat
    /// The CSV output's delimiter and line end.
    let delimiter: UInt8
    var lineEnd: [UInt8]
    /// No record written yet: the next one's separator is dropped.
    private var beforeFirstRecord = true

    init(format: RecordFormat, delimiter: UInt8, lineEnd: [UInt8] = [0x0A]) {
        self.format = format
        self.delimiter = delimiter
        self.lineEnd = lineEnd
    }

    /// The writer that writes this format's records, whose columns are `columnNames`.
    func makeWriter(columnNames: [String], escapeFormulas: Bool) -> RecordWriter {
        let layout: RecordWriter.Layout =
            switch format {
            case .csv, .tsv: .csv(delimiter: delimiter, terminator: lineEnd)
            case .json: .json(array: true)
            case .ndjson: .json(array: false)
            }
        return RecordWriter(layout: layout, escapeFormulas: escapeFormulas, columnNames: columnNames)
    }

    /// What comes before the first record: `[` for a JSON array; for CSV the header row of
    /// `columns` (none when nil), after the byte-order mark the input began with.
    func preamble(columns: [String]?, byteOrderMark: Bool, writer: RecordWriter) -> [UInt8] {
        switch format {
        case .json: return [UInt8(ascii: "[")]
        case .ndjson: return []
        case .csv, .tsv:
            var bytes = byteOrderMark ? InputText.byteOrderMark : []
            if let columns { writer.record(columns, to: &bytes) }
            return bytes
        }
    }

    /// A chunk's records as they go out: the very first record of a JSON array loses the
    /// separator before it.
    mutating func records(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard format == .json, beforeFirstRecord, !bytes.isEmpty else { return bytes }
        beforeFirstRecord = false
        return UnsafeBufferPointer(rebasing: bytes.dropFirst())  // the comma; the line feed stays
    }

    /// A chunk's records compressed by a worker: the very first record of a JSON array loses
    /// the member that holds the separator before it (`ChunkCompression`).
    mutating func compressedRecords(_ bytes: UnsafeBufferPointer<UInt8>, separatorMember: Int?)
        -> UnsafeBufferPointer<UInt8>
    {
        guard format == .json, beforeFirstRecord, let separatorMember else { return bytes }
        beforeFirstRecord = false
        return UnsafeBufferPointer(rebasing: bytes.dropFirst(separatorMember))
    }

    /// What comes after the last record.
    var closing: [UInt8] {
        format == .json ? Array("\n]\n".utf8) : []
    }
}
