/// One chunk's records as every reader hands them on and every later stage takes them: the one
/// batch shape between the record formats and the masking (docs/architecture.md).
///
/// A reader fills it from a chunk: per record its line, its bytes as read, and its fields, each a
/// span of the chunk (its bytes as read, quotes or escapes and all) and its text, which lies in
/// the chunk too unless the format had to decode it (a doubled quote, a JSON escape), when it lies
/// in `decoded`. The masking stage reads texts only; a writer of the reader's own format may copy
/// the bytes as read. Neither sees how the format spells a field.
///
/// Reused from chunk to chunk by one worker: its lists keep their capacity. A class, so that a
/// reader and the stage reach its lists in place; one worker owns it, so exclusivity is checked
/// statically (a dynamic check on every field cost 400 instructions a row).
final class RecordBatch {
    /// The chunk the spans point into, valid while the batch is processed.
    @exclusivity(unchecked) var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The records in input order, bad ones included where they were read.
    @exclusivity(unchecked) var records = BatchList<Record>()
    /// Each record's fields from `Record.firstField`, one per slot the reader was asked for
    /// (docs/architecture.md: which fields a reader hands over); a bad record has none.
    @exclusivity(unchecked) var fields = BatchList<Field>()
    /// The texts the reader decoded.
    @exclusivity(unchecked) var decoded = ByteBuffer()
    /// Why each bad record is bad, in order: `Record.problem` indexes it.
    @exclusivity(unchecked) var problems: [RecordProblem] = []
    /// The reader checked that every text is UTF-8 (JSON's).
    @exclusivity(unchecked) var textIsUTF8 = false

    // What the reader learnt of the chunk besides its records, for the report.
    /// Blank lines passed over (CSV with several columns), and the first few of their numbers.
    @exclusivity(unchecked) var blankLines = 0
    @exclusivity(unchecked) var blankLineNumbers: [Int] = []
    /// Where the blank lines lie among the records: for each run of them, the index of the
    /// record after it and the blank lines up to its end. A run stopped by a bad record counts
    /// only the blank lines before it (docs/report.md, "A run that stopped"), wherever the input
    /// was cut into chunks.
    @exclusivity(unchecked) var blankLineRuns: [(nextRecord: Int, blankLinesSoFar: Int)] = []
    /// JSON: for each masked key, whether a record of the chunk has it; the first record's keys.
    @exclusivity(unchecked) var maskedKeysSeen: [Bool] = []
    @exclusivity(unchecked) var keysSeen: [String] = []
    /// JSON read to be written as JSON, with spec columns whose added cells go inside an object
    /// of the record (docs/record-formats.md#nested-values): for each record, bad ones too,
    /// `placesPerRecord` places in a row, record `i`'s from `i * placesPerRecord`. Empty for
    /// every other run.
    @exclusivity(unchecked) var nestedPlaces = BatchList<NestedPlace>()
    @exclusivity(unchecked) var placesPerRecord = 0
    /// The chunk cannot be read past its last record: the run stops once they are done.
    @exclusivity(unchecked) var fatal: MaskCleanError?

    /// One record. Offsets into a chunk are 32-bit: a chunk is at most the chunk size and one
    /// record of the largest size a reader takes (`RunOptions.maximumRecordBytes`), far below 2
    /// GiB; the smaller records and fields cost a reader less to note.
    struct Record {
        /// The physical line it starts on.
        var line: Int
        private var rawStart, rawEnd, contentStart, contentEnd: Int32
        private var first, count, problemIndex: Int32
        /// Its fields' bytes as read, without the record's framing (a CSV line end, a JSON
        /// object's closing brace), when a writer of the same format may copy them as they are;
        /// empty and `copiable` false when the reader does not have them.
        var copiable: Bool

        init(
            line: Int, raw: Range<Int>, content: Range<Int>, copiable: Bool, firstField: Int, fieldCount: Int,
            problem: Int = -1
        ) {
            self.line = line
            rawStart = Int32(truncatingIfNeeded: raw.lowerBound)
            rawEnd = Int32(truncatingIfNeeded: raw.upperBound)
            contentStart = Int32(truncatingIfNeeded: content.lowerBound)
            contentEnd = Int32(truncatingIfNeeded: content.upperBound)
            first = Int32(truncatingIfNeeded: firstField)
            count = Int32(truncatingIfNeeded: fieldCount)
            problemIndex = Int32(truncatingIfNeeded: problem)
            self.copiable = copiable
        }

        /// Its bytes as read, line end included: what a quarantine gets.
        var raw: Range<Int> { Int(rawStart)..<Int(rawEnd) }
        var content: Range<Int> { Int(contentStart)..<Int(contentEnd) }
        var contentOffset: Int { Int(contentStart) }
        var contentCount: Int { Int(contentEnd &- contentStart) }
        /// Its first field's index in `fields`.
        var firstField: Int { Int(first) }
        /// A JSON object's members; a CSV record's fields.
        var fieldCount: Int { Int(count) }
        /// An index into `problems` for a bad record, else -1.
        var problem: Int { Int(problemIndex) }
    }

    /// One field of a record.
    struct Field {
        private var rawStart, rawEnd, textStart, textEnd: Int32
        /// Its text lies in `decoded`, not in the chunk.
        var isDecoded: Bool
        /// Whether `raw` holds its bytes as read.
        var hasRaw: Bool
        /// JSON: what the value is (a missing key is `.missing`); CSV: `.string`.
        var kind: FieldKind

        @inline(__always)
        init(raw: Range<Int>, text: Range<Int>, isDecoded: Bool, hasRaw: Bool, kind: FieldKind) {
            rawStart = Int32(truncatingIfNeeded: raw.lowerBound)
            rawEnd = Int32(truncatingIfNeeded: raw.upperBound)
            textStart = Int32(truncatingIfNeeded: text.lowerBound)
            textEnd = Int32(truncatingIfNeeded: text.upperBound)
            self.isDecoded = isDecoded
            self.hasRaw = hasRaw
            self.kind = kind
        }

        /// Its bytes as read, in the chunk: a CSV field with its quotes, a JSON value as written.
        var raw: Range<Int> { Int(rawStart)..<Int(rawEnd) }
        /// Its text: in the chunk, or in `decoded` when `isDecoded`.
        var text: Range<Int> { Int(textStart)..<Int(textEnd) }
        var textCount: Int { Int(textEnd &- textStart) }
        var textOffset: Int { Int(textStart) }

        static let missing = Field(raw: 0..<0, text: 0..<0, isDecoded: false, hasRaw: false, kind: .missing)
    }

    /// Where a nested column's added cells go in one JSON record, as its reader found it.
    struct NestedPlace {
        /// In the chunk: the `}` of the object that holds them (or of the deepest one the record
        /// has on the way), the `null` that stands where one is missing, or -1: the record's end.
        var at: Int
        /// The bytes at `at` replaced: a `null`'s 4, else 0.
        var replaced: Int
        /// How many of the object's keys the record has: those after are created.
        var existing: Int
        /// The record has the member named as the spec wrote the path: its cells go at its end,
        /// under their full names.
        var atTopLevel: Bool

        static let recordEnd = NestedPlace(at: -1, replaced: 0, existing: 0, atTopLevel: false)
    }

    /// What a field holds, as far as a writer of another format needs to know.
    enum FieldKind: UInt8 {
        case string, number, other, null, missing
    }

    /// Empties the batch for the chunk `bytes`, keeping the arrays' capacity.
    func reset(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        records.truncate(to: 0)
        fields.truncate(to: 0)
        nestedPlaces.truncate(to: 0)
        // Room for a chunk of typical records at once: growing from nothing copied the first
        // chunk's entries over and over (a 50,000-row run paid 50 instructions a row for it).
        // Bounded: a chunk of one 30 MB record holds one record.
        let typical = min(bytes.count, 1 << 20)
        records.reserve(typical / 64)
        fields.reserve(typical / 16)
        decoded.truncate(to: 0)
        problems.removeAll(keepingCapacity: true)
        blankLines = 0
        blankLineNumbers.removeAll()
        blankLineRuns.removeAll(keepingCapacity: true)
        keysSeen.removeAll()
        fatal = nil
    }

    /// Notes a blank line on `line`, before the record the reader reads next.
    func noteBlankLine(at line: Int) {
        blankLines += 1
        if blankLineNumbers.count < Report.blankLinesKept { blankLineNumbers.append(line) }
        if let last = blankLineRuns.last, last.nextRecord == records.count {
            blankLineRuns[blankLineRuns.count - 1].blankLinesSoFar = blankLines
        } else {
            blankLineRuns.append((records.count, blankLines))
        }
    }

    /// The blank lines before record `index`, the one that stopped the run, and the first few
    /// of their numbers. By count, not by line number: line numbers count line feeds
    /// (docs/record-formats.md, Line ends), so with bare CRs a blank line has its record's.
    func blankLines(beforeRecord index: Int) -> (count: Int, numbers: [Int]) {
        let count = blankLineRuns.last { $0.nextRecord <= index }?.blankLinesSoFar ?? 0
        return (count, Array(blankLineNumbers.prefix(count)))
    }

    /// The text of field `slot` of `record`.
    @inline(__always)
    func text(_ record: Record, _ slot: Int) -> UnsafeBufferPointer<UInt8> {
        text(of: fields[record.firstField + slot])
    }

    @inline(__always)
    func text(of field: Field) -> UnsafeBufferPointer<UInt8> {
        let source = field.isDecoded ? decoded.bytes : bytes
        return UnsafeBufferPointer(
            start: source.baseAddress.map { $0 + field.textOffset }, count: field.textCount)
    }

    /// A record's bytes as read (for the quarantine).
    func raw(_ record: Record) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[record.raw])
    }

    /// Adds a bad record: it counts as read, and the run's `--on-error` decides what becomes of it.
    func appendBad(_ problem: RecordProblem, line: Int, raw: Range<Int>) {
        for _ in 0..<placesPerRecord { nestedPlaces.append(.recordEnd) }
        records.append(
            Record(
                line: line, raw: raw, content: 0..<0, copiable: false, firstField: fields.count,
                fieldCount: 0,
                problem: problems.count))
        problems.append(problem)
    }
}
