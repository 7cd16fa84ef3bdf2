import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CSV (RFC 4180): a record ends at a line feed outside quotes, or at a bare CR (an old Mac
/// export; a CR before a line feed is part of that line's end). The scan follows libcsv's strict
/// reading, so both agree on where records end; a quote opens a quoted field only at the start
/// of a field, and a doubled quote inside one is a literal quote.
///
/// Only line feeds, CRs and quotes matter, so the scan jumps from one to the next
/// (`CSVSpecialBytes`): it runs on the reading thread, ahead of every worker.
struct CSVSplitter: StoppingSplitter, LineStartSplitter {
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

    var bareCarriageReturnEndsLine: Bool { true }

    var insideQuotedField: CSVSplitter? {
        var splitter = CSVSplitter(delimiter: delimiter)
        splitter.state = .quoted
        return splitter
    }

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
