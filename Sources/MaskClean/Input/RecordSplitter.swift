/// Finds record boundaries in a byte stream, so that the input can be cut into chunks of whole
/// records and each chunk parsed on its own, in parallel.
///
/// A splitter sees every byte once, in order, and keeps its state across calls. It also counts
/// line feeds, so that each chunk knows the physical line it starts on.
protocol RecordSplitter {
    /// Scans `bytes`, the continuation of everything scanned before.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan
}

/// What one scan found.
struct SplitScan {
    /// The offset just after the last record boundary in the scanned bytes, if any.
    var boundary: Int?
    /// Line feeds before `boundary`.
    var lineFeedsBeforeBoundary = 0
    /// Line feeds in all the scanned bytes.
    var lineFeeds = 0
}

/// CSV (RFC 4180): a record ends at a line feed outside quotes. The scan follows libcsv's strict
/// reading, so both agree on where records end; a quote opens a quoted field only at the start of
/// a field, and a doubled quote inside one is a literal quote.
struct CSVSplitter: RecordSplitter {
    private enum State {
        case fieldStart, unquoted, quoted, quoteInQuoted
    }

    private var state = State.fieldStart
    let delimiter: UInt8
    let quote: UInt8 = UInt8(ascii: "\"")

    init(delimiter: UInt8) {
        self.delimiter = delimiter
    }

    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan {
        var boundary: Int?
        var lineFeedsAtBoundary = 0
        var lineFeeds = 0
        var state = self.state
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x0A { lineFeeds &+= 1 }
            switch state {
            case .quoted:
                if byte == quote { state = .quoteInQuoted }
            case .quoteInQuoted:
                if byte == quote {
                    state = .quoted
                    continue
                }
                fallthrough
            case .fieldStart, .unquoted:
                if byte == 0x0A {
                    state = .fieldStart
                    boundary = index + 1
                    lineFeedsAtBoundary = lineFeeds
                } else if byte == delimiter || byte == 0x0D {
                    state = .fieldStart
                } else if byte == quote && state == .fieldStart {
                    state = .quoted
                } else {
                    state = .unquoted
                }
            }
        }
        self.state = state
        return SplitScan(
            boundary: boundary, lineFeedsBeforeBoundary: lineFeedsAtBoundary, lineFeeds: lineFeeds)
    }
}

/// NDJSON: every line feed ends a record (JSON strings cannot hold a raw line feed).
struct LineSplitter: RecordSplitter {
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan {
        var boundary: Int?
        var lineFeeds = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            lineFeeds &+= 1
            boundary = index + 1
        }
        return SplitScan(boundary: boundary, lineFeedsBeforeBoundary: lineFeeds, lineFeeds: lineFeeds)
    }
}

/// A JSON array of records: a record ends at a comma between the array's elements, outside
/// strings and nested containers. The reader strips the opening `[` first.
struct JSONArraySplitter: RecordSplitter {
    /// Containers open inside the top-level array.
    private var depth = 0
    private var inString = false
    private var escaped = false

    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan {
        var found = SplitScan()
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x0A { found.lineFeeds &+= 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 0:
                found.boundary = index + 1
                found.lineFeedsBeforeBoundary = found.lineFeeds
            default: break
            }
        }
        return found
    }
}
