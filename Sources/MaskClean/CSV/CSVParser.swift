import CLibCSV

/// libcsv set up the way maskclean reads CSV: strict (a stray quote is an error), nothing
/// trimmed (padded phone numbers are data). Fields go to a sink as they are parsed, or, without
/// one, are collected into one reusable byte arena.
///
/// Feed it one physical line at a time: between lines, `isBetweenRecords` says whether the lines
/// so far ended a record, which is how errors name the line a record begins on.
final class CSVParser {
    // A parser belongs to one worker, and libcsv calls back into it synchronously: exclusivity is
    // checked statically, not on every field.
    @exclusivity(unchecked) private var parser = csv_parser()
    /// The bytes of the fields collected so far, back to back.
    @exclusivity(unchecked) private(set) var arena: [UInt8] = []
    /// Where each collected field ends in `arena`.
    @exclusivity(unchecked) private(set) var fieldEnds: [Int] = []
    /// The number of fields of each completed record, in order; their fields come first in
    /// `fieldEnds`.
    @exclusivity(unchecked) private(set) var completedRecords: [Int] = []
    @exclusivity(unchecked) private var fieldsInRecord = 0
    /// Where fields go instead of the arena: the chunk processor, a concrete type so that libcsv's
    /// callback for every field is a direct call. It owns this parser, so the parser does not own
    /// it.
    private let sink: Unmanaged<CSVChunkProcessor>?

    init(delimiter: UInt8, sink: CSVChunkProcessor? = nil) {
        self.sink = sink.map { Unmanaged.passUnretained($0) }
        csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI))
        csv_set_delim(&parser, delimiter)
        csv_set_space_func(&parser, maskclean_no_space)
        arena.reserveCapacity(64 * 1024)
        fieldEnds.reserveCapacity(1024)
    }

    deinit {
        csv_free(&parser)
    }

    /// No record is open: the bytes fed so far end on a record boundary.
    var isBetweenRecords: Bool { parser.pstate == 0 }

    /// Parses more bytes. False on a parse error, described by `errorDescription`.
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let parsed = csv_parse(
            &parser, bytes.baseAddress, bytes.count, fieldCallback, recordCallback, context)
        return parsed == bytes.count
    }

    /// Ends the input: a last record without a line break is completed. False when a quoted field
    /// is still open.
    func finish() -> Bool {
        let context = Unmanaged.passUnretained(self).toOpaque()
        return csv_fini(&parser, fieldCallback, recordCallback, context) == 0
    }

    /// What went wrong, for the message, given the state the parser stopped in.
    var errorDescription: String {
        if csv_error(&parser) == CSV_EPARSE {
            // In a quoted field, strict mode fails on a character after the closing quote;
            // outside one, on a quote inside an unquoted field.
            return parser.quoted != 0
                ? "unexpected character after a closing quote (a quote inside a quoted field must be doubled)"
                : "stray quote inside an unquoted field (quote the whole field and double the quote)"
        }
        return String(cString: csv_strerror(csv_error(&parser)))
    }

    /// The fields of completed record `record`, as ranges of `arena`.
    func fields(ofCompleted record: Int, startingAt firstField: Int) -> ArraySlice<Int> {
        fieldEnds[firstField..<(firstField + completedRecords[record])]
    }

    /// Forgets the completed records, keeping the fields of a record still open.
    func dropCompleted() {
        let completedFields = completedRecords.reduce(0, +)
        completedRecords.removeAll(keepingCapacity: true)
        guard completedFields > 0 else { return }
        if completedFields == fieldEnds.count {
            arena.removeAll(keepingCapacity: true)
            fieldEnds.removeAll(keepingCapacity: true)
            return
        }
        let cut = fieldEnds[completedFields - 1]
        arena.removeFirst(cut)
        fieldEnds.removeFirst(completedFields)
        for index in fieldEnds.indices { fieldEnds[index] -= cut }
    }

    /// Starts over after an error, as if on a fresh input.
    func reset() {
        let delimiter = csv_get_delim(&parser)
        csv_free(&parser)
        parser = csv_parser()
        csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI))
        csv_set_delim(&parser, delimiter)
        csv_set_space_func(&parser, maskclean_no_space)
        arena.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        completedRecords.removeAll(keepingCapacity: true)
        fieldsInRecord = 0
    }

    fileprivate func appendField(_ start: UnsafeRawPointer?, _ count: Int) {
        if let sink {
            sink._withUnsafeGuaranteedRef { $0.field(UnsafeRawBufferPointer(start: start, count: count)) }
            return
        }
        if let start, count > 0 {
            arena.append(contentsOf: UnsafeRawBufferPointer(start: start, count: count))
        }
        fieldEnds.append(arena.count)
        fieldsInRecord += 1
    }

    fileprivate func endRecord() {
        if let sink {
            sink._withUnsafeGuaranteedRef { $0.endRecord() }
            return
        }
        completedRecords.append(fieldsInRecord)
        fieldsInRecord = 0
    }
}

// The parser outlives every call libcsv makes back into it: no reference counting per field.
private func fieldCallback(
    _ start: UnsafeMutableRawPointer?, _ count: Int, _ context: UnsafeMutableRawPointer?
) {
    Unmanaged<CSVParser>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.appendField(start, count) }
}

private func recordCallback(_ terminator: Int32, _ context: UnsafeMutableRawPointer?) {
    Unmanaged<CSVParser>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.endRecord() }
}
