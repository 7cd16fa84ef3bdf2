import FoundationEssentials

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

/// A splitter whose records can be found from any line's start, so that workers can each read a
/// range of the file and find its records themselves (`RangedChunks`): NDJSON, where every line
/// end ends a record, and CSV, where one inside a quoted field does not.
protocol LineStartSplitter: RecordSplitter {
    /// Whether a CR that no line feed follows ends a line (CSV's old Mac exports) or is text
    /// (NDJSON).
    var bareCarriageReturnEndsLine: Bool { get }
    /// This splitter, fresh, as it stands at a line's start inside a quoted field; nil where a
    /// line's start is always a record's.
    var insideQuotedField: Self? { get }
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
