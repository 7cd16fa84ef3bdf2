import CLibCSV
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a `CSVParser` hands what it reads: each field as libcsv completes it, then the end of
/// its record. The bytes are libcsv's, valid only during the call.
protocol CSVFieldSink: AnyObject {
    func field(_ bytes: UnsafeRawBufferPointer)
    func endRecord()
}

/// libcsv set up the way maskclean reads CSV: a quote is data unless it starts a field (`12"
/// ruler`, `37.8"N`, as Python's csv module and rust-csv read them), but a quoted field must be
/// one: text after its closing quote (`"Na"me`) is an error; nothing trimmed (padded phone
/// numbers are data). Fields go to its sink as they are parsed; it knows nothing of the sink.
///
/// Feed it one physical line at a time: between lines, `isBetweenRecords` says whether the lines
/// so far ended a record, which is how errors name the line a record begins on.
final class CSVParser {
    // A parser belongs to one worker, and libcsv calls back into it synchronously: exclusivity is
    // checked statically, not on every field.
    @exclusivity(unchecked) private var parser = csv_parser()
    /// The sink owns this parser, so the parser does not own it.
    private unowned(unsafe) let sink: any CSVFieldSink

    private let delimiter: UInt8
    @exclusivity(unchecked) private var quoting = QuotedFieldCheck()
    @exclusivity(unchecked) private var textAfterClosingQuote = false
    @exclusivity(unchecked) private var unterminated = false

    init(delimiter: UInt8, sink: any CSVFieldSink) {
        self.sink = sink
        self.delimiter = delimiter
        start()
    }

    deinit {
        csv_free(&parser)
    }

    private func start() {
        csv_init(&parser, UInt8(CSV_STRICT_FINI))
        csv_set_delim(&parser, delimiter)
        csv_set_space_func(&parser, maskclean_no_space)
    }

    /// libcsv ends a record at a bare CR too (an old Mac export), not only at a line feed: bytes
    /// fed to it must end just after such a CR, so that each piece ends at most one record (a bad
    /// one is then taken out alone). Where the piece starting at `start` must end, when a CR in
    /// `bytes[start..<end]` is bare: the first one, followed by anything but a line feed.
    static func pieceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int) -> Int? {
        guard let base = bytes.baseAddress, start < end, let cr = memchr(base + start, 0x0D, end - start)
        else { return nil }
        return pieceEnd(
            bytes, firstCR: base.distance(to: cr.assumingMemoryBound(to: UInt8.self)), before: end)
    }

    /// The same, given where the first CR at or after the piece's start is (`Int.max` for none):
    /// found once for many pieces.
    @inline(__always)
    static func pieceEnd(_ bytes: UnsafeBufferPointer<UInt8>, firstCR cr: Int, before end: Int) -> Int? {
        guard cr < end else { return nil }
        let crEnd = cr + 1
        return crEnd < bytes.count && bytes[crEnd] != 0x0A ? crEnd : nil
    }

    /// No record is open: the bytes fed so far end on a record boundary.
    var isBetweenRecords: Bool { parser.pstate == 0 }

    /// Parses more bytes. False on a parse error, described by `errorDescription`.
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // libcsv without CSV_STRICT reads a stray quote as data, as wanted, but also reads a
        // quote followed by text as part of a quoted field that goes on: that is caught here,
        // before libcsv sees it.
        guard quoting.accepts(bytes.assumingMemoryBound(to: UInt8.self), delimiter: delimiter) else {
            textAfterClosingQuote = true
            return false
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let parsed = csv_parse(
            &parser, bytes.baseAddress, bytes.count, fieldCallback, recordCallback, context)
        return parsed == bytes.count
    }

    /// Ends the input: a last record without a line break is completed. False when a quoted field
    /// is still open.
    func finish() -> Bool {
        // libcsv's loose mode closes an open quoted field at the end without a word.
        guard !quoting.isInsideQuotedField else {
            unterminated = true
            return false
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        return csv_fini(&parser, fieldCallback, recordCallback, context) == 0
    }

    /// What went wrong, for the message, given the state the parser stopped in.
    var errorDescription: String {
        if unterminated { return "unterminated quoted field" }
        if textAfterClosingQuote {
            return
                "unexpected character after a closing quote (a quote inside a quoted field must be doubled)"
        }
        return String(cString: csv_strerror(csv_error(&parser)))
    }

    /// Starts over after an error, as if on a fresh input.
    func reset() {
        csv_free(&parser)
        parser = csv_parser()
        start()
        quoting = QuotedFieldCheck()
        textAfterClosingQuote = false
        unterminated = false
    }

    fileprivate func field(_ start: UnsafeRawPointer?, _ count: Int) {
        sink.field(UnsafeRawBufferPointer(start: start, count: count))
    }

    fileprivate func endRecord() {
        sink.endRecord()
    }
}

/// Follows the bytes fed to libcsv as it reads them, to catch what its loose mode lets through:
/// a closing quote followed by anything but another quote, the delimiter or a line end.
struct QuotedFieldCheck {
    private enum State {
        case fieldStart, unquoted, quoted, quoteInQuoted
    }

    private var state = State.fieldStart

    /// A quoted field is open: its closing quote has not come (a quote just read may yet be
    /// doubled, but at the end of the input it closes the field).
    var isInsideQuotedField: Bool { state == .quoted }

    /// Whether `bytes`, following those seen before, keep every quoted field whole.
    mutating func accepts(_ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        // Most pieces have no quote: outside a quoted field only their end matters, inside one
        // nothing does.
        if state != .quoteInQuoted && memchr(base, 0x22, bytes.count) == nil {
            if state != .quoted {
                let last = base[bytes.count - 1]
                state = last == delimiter || last == 0x0A || last == 0x0D ? .fieldStart : .unquoted
            }
            return true
        }
        for byte in bytes {
            let endsField = byte == delimiter || byte == 0x0A || byte == 0x0D
            switch state {
            case .fieldStart: state = byte == 0x22 ? .quoted : endsField ? .fieldStart : .unquoted
            case .unquoted: if endsField { state = .fieldStart }
            case .quoted: if byte == 0x22 { state = .quoteInQuoted }
            case .quoteInQuoted:
                if byte == 0x22 {
                    state = .quoted
                } else if endsField {
                    state = .fieldStart
                } else {
                    return false
                }
            }
        }
        return true
    }
}

// The parser outlives every call libcsv makes back into it: no reference counting per field.
private func fieldCallback(
    _ start: UnsafeMutableRawPointer?, _ count: Int, _ context: UnsafeMutableRawPointer?
) {
    Unmanaged<CSVParser>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.field(start, count) }
}

private func recordCallback(_ terminator: Int32, _ context: UnsafeMutableRawPointer?) {
    Unmanaged<CSVParser>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.endRecord() }
}
