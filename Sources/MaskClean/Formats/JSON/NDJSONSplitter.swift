import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// NDJSON: every line feed ends a record (JSON strings cannot hold a raw line feed).
struct LineSplitter: LineStartSplitter {
    var bareCarriageReturnEndsLine: Bool { false }
    var insideQuotedField: LineSplitter? { nil }

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
