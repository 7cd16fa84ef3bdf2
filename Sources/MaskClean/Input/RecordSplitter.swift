import Foundation

/// Finds record boundaries in a byte stream, so that the input can be cut into chunks of whole
/// records and each chunk parsed on its own, in parallel.
///
/// A splitter sees every byte once, in order, and keeps its state across calls. It also counts
/// line feeds, so that each chunk knows the physical line it starts on.
protocol RecordSplitter {
    /// Scans `bytes`, the continuation of everything scanned before.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan
    /// Scans `bytes` only up to the first record boundary in them: `boundary` is that one (or
    /// nil, everything scanned), and `lineFeeds` counts the line feeds scanned.
    mutating func scanToFirstBoundary(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan
    /// The bytes scanned so far end inside a quoted field (CSV only).
    var isInsideQuotedField: Bool { get }
}

extension RecordSplitter {
    var isInsideQuotedField: Bool { false }
}

/// A splitter with one scan that can stop at the first boundary, for both of the protocol's.
protocol StoppingSplitter: RecordSplitter {
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, stoppingAtFirst: Bool) -> SplitScan
}

extension StoppingSplitter {
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan {
        scan(bytes, stoppingAtFirst: false)
    }

    mutating func scanToFirstBoundary(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan {
        scan(bytes, stoppingAtFirst: true)
    }
}

/// What one scan found.
struct SplitScan {
    /// The offset just after the last record boundary in the scanned bytes, if any.
    var boundary: Int?
    /// Line feeds before `boundary`.
    var lineFeedsBeforeBoundary = 0
    /// Line feeds in all the scanned bytes.
    var lineFeeds = 0
    /// Record boundaries in the scanned bytes.
    var boundaries = 0
    /// A JSON array: the offset of the `]` that closes it, when it was scanned.
    var arrayEnd: Int?
    /// A JSON array whose brackets stopped matching (`{"a":[1,2}`): line feeds before the
    /// bracket that broke it. Past it no boundary can be trusted, so none is reported.
    var brokenAfterLineFeeds: Int?

    /// A record ends just after `index`.
    @inline(__always)
    mutating func noteBoundary(after index: Int) {
        boundary = index + 1
        lineFeedsBeforeBoundary = lineFeeds
        boundaries += 1
    }
}

/// CSV (RFC 4180): a record ends at a line feed outside quotes, or at a bare CR (an old Mac
/// export; a CR before a line feed is part of that line's end). The scan follows libcsv's strict
/// reading, so both agree on where records end; a quote opens a quoted field only at the start
/// of a field, and a doubled quote inside one is a literal quote.
///
/// Only line feeds, CRs and quotes matter, so the scan jumps from one to the next
/// (`CSVSpecialBytes`): it runs on the reading thread, ahead of every worker.
struct CSVSplitter: StoppingSplitter {
    private enum State {
        /// Outside a quoted field.
        case outside
        case quoted
        /// Just after a quote inside a quoted field: a second quote makes it a literal one.
        case quoteInQuoted
    }

    private var state = State.outside
    /// The last byte scanned: whether a quote starts a field depends on the byte before it.
    private var previous: UInt8 = 0x0A
    /// A CR outside quotes ended the last scan: the next byte says whether a line feed follows
    /// (one CRLF end) or a record ended after the CR.
    private var pendingCR = false
    let delimiter: UInt8

    init(delimiter: UInt8) {
        self.delimiter = delimiter
    }

    var isInsideQuotedField: Bool { state != .outside }

    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, stoppingAtFirst: Bool) -> SplitScan {
        var found = SplitScan()
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return found }
        let count = bytes.count
        var index = 0
        var state = self.state
        if pendingCR {
            pendingCR = false
            if base[0] != 0x0A {
                // The record ended with the CR the last scan ended on.
                found.boundary = 0
                found.boundaries += 1
                if stoppingAtFirst {
                    self.previous = 0x0D
                    return found
                }
            }
        }
        if state == .quoteInQuoted {
            state = base[0] == 0x22 ? .quoted : .outside
            if state == .quoted { index = 1 }
        }
        var specials = CSVSpecialBytes(base: base, count: count, withinLine: stoppingAtFirst)
        while true {
            index = specials.first(from: index)
            guard index < count else { break }
            let byte = base[index]
            if byte == 0x0A {
                found.lineFeeds &+= 1
                if state == .outside {
                    found.noteBoundary(after: index)
                    if stoppingAtFirst {
                        index += 1
                        break
                    }
                }
            } else if byte == 0x0D {
                // A CR that no LF follows ends a record; on the scan's last byte it waits for the
                // next.
                if state == .outside {
                    if index + 1 == count {
                        pendingCR = true
                    } else if base[index + 1] != 0x0A {
                        found.noteBoundary(after: index)
                        if stoppingAtFirst {
                            index += 1
                            break
                        }
                    }
                }
            } else if state == .quoted {
                // A closing quote, or the first of a doubled one: the next byte tells.
                if index + 1 == count {
                    state = .quoteInQuoted
                } else if base[index + 1] == 0x22 {
                    index += 1
                } else {
                    state = .outside
                }
            } else {
                let before = index == 0 ? previous : base[index - 1]
                if before == delimiter || before == 0x0A || before == 0x0D {
                    state = .quoted
                }
            }
            index += 1
        }
        self.state = state
        let last = min(index, count) - 1
        if last >= 0 { previous = base[last] }
        return found
    }

}

/// Where the next line feed, CR and quote of a CSV scan are, each found with `memchr` and kept
/// until the scan passes it: most lines hold no quote and no CR, and are passed with one search
/// for their line feed. Eight bytes at a time, the three cost 400 instructions per record of the
/// bench export; `memchr`'s vector search costs a fraction of that.
private struct CSVSpecialBytes {
    let base: UnsafePointer<UInt8>
    let count: Int
    /// A quote or CR is looked for only up to the next line feed, so that a scan that stops at
    /// its first boundary reads no further than that record's line.
    let withinLine: Bool
    /// The next line feed at or after the last search, or `count`.
    private var feed = -1
    /// The next quote and CR, or where their search ended (`feed` or `count`) when it found none.
    private var quote = -1
    private var carriageReturn = -1

    init(base: UnsafePointer<UInt8>, count: Int, withinLine: Bool) {
        self.base = base
        self.count = count
        self.withinLine = withinLine
    }

    /// The index of the first LF, CR or `"` at or after `index`, or `count`.
    @inline(__always)
    mutating func first(from index: Int) -> Int {
        if feed < index { feed = find(0x0A, from: index, before: count) }
        let end = withinLine ? feed : count
        if quote < index { quote = find(0x22, from: index, before: end) }
        if carriageReturn < index { carriageReturn = find(0x0D, from: index, before: end) }
        return min(feed, quote, carriageReturn)
    }

    /// The index of the first `byte` in `base[start..<end]`, or `end`.
    @inline(__always)
    private func find(_ byte: UInt8, from start: Int, before end: Int) -> Int {
        guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return end }
        return UnsafeRawPointer(base).distance(to: found)
    }
}

/// NDJSON: every line feed ends a record (JSON strings cannot hold a raw line feed).
struct LineSplitter: RecordSplitter {
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan {
        var boundary: Int?
        var lineFeeds = 0
        guard let base = bytes.baseAddress else { return SplitScan() }
        var start = 0
        // memchr from one line feed to the next: it runs on the reading thread, ahead of the workers.
        while start < bytes.count, let feed = memchr(base + start, 0x0A, bytes.count - start) {
            let index = base.distance(to: feed.assumingMemoryBound(to: UInt8.self))
            lineFeeds &+= 1
            boundary = index + 1
            start = index + 1
        }
        return SplitScan(
            boundary: boundary, lineFeedsBeforeBoundary: lineFeeds, lineFeeds: lineFeeds,
            boundaries: lineFeeds)
    }

    mutating func scanToFirstBoundary(_ bytes: UnsafeBufferPointer<UInt8>) -> SplitScan {
        guard let feed = bytes.firstIndex(of: 0x0A) else { return SplitScan(lineFeeds: 0) }
        return SplitScan(boundary: feed + 1, lineFeedsBeforeBoundary: 1, lineFeeds: 1)
    }
}

/// A JSON array of records: a record ends at a comma between the array's elements, outside
/// strings and nested containers. The reader strips the opening `[` first.
///
/// Which bracket is open is kept, not only how many: a closer that does not match its opener, or
/// a string that runs into a line feed (its closing quote is missing), means the array's
/// structure is broken, and from there on no comma can be told to be between records. The scan
/// then reports no more boundaries, and says where it broke.
struct JSONArraySplitter: StoppingSplitter {
    /// The open containers inside the top-level array: true for `{`, false for `[`.
    private var open: [Bool] = []
    private var inString = false
    private var escaped = false
    private var closed = false
    private(set) var isBroken = false

    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, stoppingAtFirst: Bool) -> SplitScan {
        var found = SplitScan()
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x0A { found.lineFeeds &+= 1 }
            if isBroken || closed { continue }
            if inString {
                if byte == 0x0A {
                    // A JSON string cannot hold a raw line feed: its closing quote is missing, and
                    // every quote after it would be read the wrong way round.
                    isBroken = true
                    found.brokenAfterLineFeeds = found.lineFeeds - 1
                    continue
                }
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
            case UInt8(ascii: "{"): open.append(true)
            case UInt8(ascii: "["): open.append(false)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let isBrace = byte == UInt8(ascii: "}")
                if let innermost = open.last {
                    guard innermost == isBrace else {
                        isBroken = true
                        found.brokenAfterLineFeeds = found.lineFeeds
                        continue
                    }
                    open.removeLast()
                } else if isBrace {
                    isBroken = true
                    found.brokenAfterLineFeeds = found.lineFeeds
                } else {
                    closed = true
                    found.arrayEnd = index
                    if stoppingAtFirst { return found }
                }
            case UInt8(ascii: ",") where open.isEmpty:
                found.boundary = index + 1
                found.lineFeedsBeforeBoundary = found.lineFeeds
                found.boundaries += 1
                if stoppingAtFirst { return found }
            default: break
            }
        }
        return found
    }
}
