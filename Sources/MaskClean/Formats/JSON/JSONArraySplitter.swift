import FoundationEssentials

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
