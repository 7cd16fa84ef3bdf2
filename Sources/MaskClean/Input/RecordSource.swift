/// One input format's knowledge of its records, in one place: what comes before the first record
/// (a byte-order mark, the CSV header, the `[` of a JSON array), the columns it offers, how its
/// records are cut into chunks and read, and what can only be checked once all are read.
///
/// A source is made by reading the input's start and checking the spec against it; the run then
/// cuts the rest into chunks with `makeSplitter()` and masks them with `makeProcessor(_:)`, whose
/// reader fills a record batch from each (docs/architecture.md).
protocol RecordSource {
    associatedtype Splitter: RecordSplitter

    /// Reads the input's start and checks the spec against it.
    init(input: InputFile, _ settings: SourceSettings) throws(MaskCleanError)

    /// What was read before the first record.
    var start: InputStart { get }

    /// A splitter in the state the records start in.
    func makeSplitter() -> Splitter

    /// A processor for one worker, writing through `writer`.
    func makeProcessor(_ writer: RecordWriter) -> ChunkProcessor

    /// A reader handing over every field of a record: a CSV record's fields, a JSON record's
    /// bytes (`describe`).
    func makeReader() -> any RecordReader

    /// Checks what is known only once every record is read, and notes it in the report; the
    /// outputs are still temporary.
    func finish(_ totals: inout RunTotals) throws(MaskCleanError)
}

extension RecordSource {
    func finish(_ totals: inout RunTotals) throws(MaskCleanError) {}
}

/// What a source read of its input before the first record.
struct InputStart {
    /// The input's columns, known before any record: the CSV header, or the first JSON record's
    /// keys when the output is CSV. Nil when each record keeps its own keys (JSON to JSON).
    var columnNames: [String]?
    /// The line end a CSV output uses: the CSV header's own, else a line feed.
    var lineEnd: [UInt8] = [0x0A]
    /// A CSV input began with a UTF-8 byte-order mark, which a CSV output keeps.
    var byteOrderMark = false
    /// The bytes read past the start, and the physical line they begin on.
    var leftover: [UInt8]
    var nextLine: Int
    /// A CSV header ended with a delimiter: `columnNames` ends with its empty field when the
    /// output is CSV, which writes it back (docs/record-formats.md#a-trailing-delimiter).
    var trailingDelimiter = false
}

/// What every source needs to know of the run.
struct SourceSettings {
    var spec: Spec
    var options: RunOptions
    var outputFormat: RecordFormat
    /// The CSV field delimiter of the input.
    var delimiter: UInt8
    /// Records are written out (a run), not only read (`describe`): a JSON output's keys must
    /// then be distinct.
    var writesRecords = true

    var policy: ErrorPolicy { options.policy }
    var maximumRecordBytes: Int { options.maximumRecordBytes }
    var splitsPlainLines: Bool { options.splitsPlainLines }

    /// An added column may not repeat an input column: a record would have the name twice.
    func checkAddedColumns(against inputNames: [String], of file: String) throws(MaskCleanError) {
        let names = Set(inputNames)
        for column in spec.columns {
            for added in column.addedColumns where names.contains(added) {
                throw .spec(spec.file, column.place, "added column \"\(added)\" repeats a column of \(file)")
            }
        }
    }
}
