#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cuts a plain file into chunks that the workers read themselves, each its own range of the
/// file, so that no worker waits while another reads: read under one lock, the input was most of
/// the pipeline's serial time, which bounds its speed-up on many cores (issue 32).
///
/// Under the pipeline's reading lock a claim only fixes where the next range ends: just after the
/// first line end at least a chunk size on, found by reading a few bytes there. The worker reads
/// its range outside the lock and finds its records:
///
/// - A range starts at a line's start. That is a record's start, unless the line end before it
///   lies inside a quoted field (CSV), which is known only once every range before it is
///   scanned. So the worker scans its range both ways (`RangeScan`): from a record's start, and
///   from inside a quoted field. The two readings meet at the first line end both find outside
///   quotes, within a line or two, and only the bytes before it are scanned twice.
/// - What a range hands the next (`Link`: whether the next starts inside a quoted field, and the
///   line feeds before it) is known once the range is scanned: a worker waits only for the range
///   before its own to be scanned, not masked.
/// - A range whose end lies inside a quoted field reads on to where that record ends; the next
///   range's records start there.
///
/// Its chunks hold the same records as the serial reader's (`ChunkReader`), cut in other places,
/// with the same lines and places, so the output is byte for byte the same. Where the serial
/// reader's rules for a record too long to hold apply (no line end within the longest record),
/// the ranges stop at the last record start known, and the serial reader takes over there.
final class RangedChunks<Splitter: LineStartSplitter>: @unchecked Sendable {
    private let input: InputFile
    /// The splitter at a record's start.
    private let recordStart: Splitter
    /// Where the first record starts in the file, and the physical line it is on.
    private let dataStart: Int
    private let firstLine: Int
    /// The file's size when opened: the ranges end there.
    private let fileEnd: Int
    private let chunkSize: Int
    private let maximumRecordBytes: Int
    private let pool: BufferPool

    // Used under the pipeline's reading lock only:
    /// Where the next range starts, and its index.
    private var next: Int
    private var claims = 0
    /// Where a claim looks for a line end.
    private let window = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)

    private let linked = Condition()
    // Guarded by `linked`:
    /// Links handed on and not yet taken, by the index of the range they start.
    private var links: [Int: Link] = [0: Link(startsInsideQuotedField: false, lineFeedsBefore: 0)]
    /// A range could not be read: the ones after it get no link.
    private var broken = false

    /// What the ranges before one say of where it starts.
    struct Link {
        var startsInsideQuotedField: Bool
        /// Line feeds from the first record's start to the range's.
        var lineFeedsBefore: Int
    }

    /// One range of the file, claimed in input order.
    struct Range {
        var index: Int
        var start: Int
        /// Just after a line end, or the file's end; nil when no line end came within the
        /// longest record past a chunk size on.
        var end: Int?
    }

    /// Nil when the input cannot be read at offsets (`InputFile.offsetOfUnreadText`).
    init?(
        input: InputFile, recordStart: Splitter, leftover: Int, firstLine: Int, chunkSize: Int,
        maximumRecordBytes: Int, pool: BufferPool
    ) {
        guard let unread = input.offsetOfUnreadText, let size = input.size else { return nil }
        self.input = input
        self.recordStart = recordStart
        self.dataStart = unread - leftover
        self.firstLine = firstLine
        self.fileEnd = size
        self.chunkSize = max(1, chunkSize)
        self.maximumRecordBytes = maximumRecordBytes
        self.pool = pool
        self.next = dataStart
    }

    deinit { window.deallocate() }

    // MARK: Claiming, under the reading lock

    /// The next range, for the worker that gives `buffer` to read it into; nil once the file is
    /// claimed. Called by one worker at a time, in input order.
    func claim(into buffer: ByteBuffer?) throws(MaskCleanError) -> ChunkPipeline.Claimed? {
        guard next < fileEnd else { return nil }
        let start = next
        let end = try lineEnd(atOrAfter: start + chunkSize - 1, start: start)
        let range = Range(index: claims, start: start, end: end)
        claims += 1
        next = end ?? fileEnd
        return .range(inputBytes: (end ?? start + chunkSize) - start) { () throws(MaskCleanError) in
            try self.load(range, into: buffer ?? self.pool.take())
        }
    }

    /// Just after the first line end at or after `from`; the file's end when none comes before
    /// it; nil when the range from `start` would then be longer than the longest range.
    private func lineEnd(atOrAfter from: Int, start: Int) throws(MaskCleanError) -> Int? {
        var position = from
        // A line end is most often a few hundred bytes on: a small read first (under the lock,
        // a 64 KiB copy per claim was most of what the claims cost), then larger ones.
        var size = 4096
        while position < fileEnd && position - start <= longestRange {
            let count = min(size, fileEnd - position)
            try input.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: window[..<count]))
            if let end = try lineEnd(inWindowOf: count, at: position) {
                return end - start > longestRange ? nil : end
            }
            position += count
            size = min(size * 4, window.count)
        }
        return position >= fileEnd ? fileEnd : nil
    }

    /// The most bytes a chunk of ranges may hold: the longest record. A record longer than that
    /// is never in one: the serial reader passes it without holding it, as it passes one read
    /// from standard input (docs/command-line.md, Limits). (Tests cut chunks larger than the
    /// longest record: then a chunk.)
    private var longestRange: Int { max(maximumRecordBytes, chunkSize) }

    /// Just after the first line end in the window's first `count` bytes, read from `position`.
    private func lineEnd(inWindowOf count: Int, at position: Int) throws(MaskCleanError) -> Int? {
        let base = window.baseAddress!
        let feed = memchr(base, 0x0A, count).map { base.distance(to: $0) } ?? count
        let carriageReturn =
            recordStart.bareCarriageReturnEndsLine
            ? memchr(base, 0x0D, feed).map { base.distance(to: $0) } ?? count : count
        if feed < count && feed < carriageReturn { return position + feed + 1 }
        guard carriageReturn < count else { return nil }
        // A line feed after it makes one line end of the two.
        let after = position + carriageReturn + 1
        if carriageReturn + 1 < count { return after + (window[carriageReturn + 1] == 0x0A ? 1 : 0) }
        guard after < fileEnd else { return after }
        var byte: UInt8 = 0
        try withUnsafeMutableBytes(of: &byte) { (one) throws(MaskCleanError) in
            try input.read(at: after, into: one)
        }
        return after + (byte == 0x0A ? 1 : 0)
    }

    // MARK: Loading, by the claiming worker

    /// Reads `range` into `buffer` and cuts its records: the chunk, or where the serial reader
    /// takes over.
    private func load(_ range: Range, into buffer: ByteBuffer) throws(MaskCleanError) -> ChunkPipeline.Loaded
    {
        do throws(MaskCleanError) {
            return try cut(range, in: buffer)
        } catch {
            linked.withLock {
                broken = true
                linked.broadcast()
            }
            throw error
        }
    }

    private func cut(_ range: Range, in buffer: ByteBuffer) throws(MaskCleanError) -> ChunkPipeline.Loaded {
        buffer.truncate(to: 0)
        guard let end = range.end else { return try handOver(range, in: buffer) }
        try read(range.start..<end, appendingTo: buffer)
        let scan = RangeScan(buffer.bytes, from: recordStart)
        let link = try waitForLink(range.index)
        let endsInsideQuotedField =
            link.startsInsideQuotedField
            ? scan.endsInsideQuotedFieldFromQuotedField : scan.endsInsideQuotedField
        hand(
            Link(
                startsInsideQuotedField: endsInsideQuotedField,
                lineFeedsBefore: link.lineFeedsBefore + scan.lineFeeds),
            to: range.index + 1)
        var first = 0
        var lineFeedsBefore = link.lineFeedsBefore
        var isLast = end == fileEnd
        if link.startsInsideQuotedField {
            if let start = scan.firstRecordFromQuotedField {
                first = start
                lineFeedsBefore += scan.lineFeedsBeforeFirstRecord
            } else {
                // A record that began in an earlier range goes on past this one: its range reads on
                // through this one, which holds no record of its own.
                first = buffer.count
                lineFeedsBefore += scan.lineFeeds
            }
        }
        if endsInsideQuotedField && !isLast && first < buffer.count {
            // The last record goes on past the range: read on to its end.
            guard
                let recordEnd = try readOnToRecordEnd(
                    from: end, chunkStart: range.start + first, appendingTo: buffer)
            else {
                return .handOver(
                    ChunkPipeline.HandOver(offset: range.start + first, line: firstLine + lineFeedsBefore))
            }
            isLast = recordEnd == fileEnd
        }
        buffer.removeFirst(first)
        let chunk = Chunk(
            buffer: buffer, firstLine: firstLine + lineFeedsBefore, isLast: isLast, isFirst: range.index == 0,
            firstOffset: range.start + first - dataStart)
        return .chunk((chunk, end))
    }

    /// A range with no line end within the longest range: the serial reader takes over at the
    /// first record that starts in it, and passes a long one as its rules say.
    private func handOver(_ range: Range, in buffer: ByteBuffer) throws(MaskCleanError)
        -> ChunkPipeline.Loaded
    {
        let link = try waitForLink(range.index)
        var offset = range.start
        var lineFeeds = link.lineFeedsBefore
        if link.startsInsideQuotedField, let inside = recordStart.insideQuotedField {
            // Line ends come only before the chunk size: the first record, if any, starts there.
            try read(range.start..<min(fileEnd, range.start + chunkSize), appendingTo: buffer)
            var splitter = inside
            let found = splitter.scanToFirstBoundary(buffer.bytes)
            // With none, the record before goes on past the longest record, and its own range
            // hands over first.
            if let boundary = found.boundary {
                offset += boundary
                lineFeeds += found.lineFeedsBeforeBoundary
            }
        }
        return .handOver(ChunkPipeline.HandOver(offset: offset, line: firstLine + lineFeeds))
    }

    /// Reads on from `start`, inside a quoted field at a line's start, to where the record ends
    /// (or the file does): returns that offset, or nil when the chunk from `chunkStart` would
    /// then be longer than the longest range.
    private func readOnToRecordEnd(from start: Int, chunkStart: Int, appendingTo buffer: ByteBuffer)
        throws(MaskCleanError) -> Int?
    {
        guard var splitter = recordStart.insideQuotedField else { return start }
        var position = start
        while position < fileEnd {
            guard position - chunkStart <= longestRange else { return nil }
            let before = buffer.count
            try read(position..<min(fileEnd, position + (64 << 10)), appendingTo: buffer)
            let found = splitter.scanToFirstBoundary(UnsafeBufferPointer(rebasing: buffer.bytes[before...]))
            if let boundary = found.boundary {
                // The same bound as the claim of the range after it (`lineEnd`).
                guard position + boundary - chunkStart <= longestRange else { return nil }
                buffer.truncate(to: before + boundary)
                return position + boundary
            }
            position += buffer.count - before
        }
        return fileEnd - chunkStart > longestRange ? nil : fileEnd
    }

    private func read(_ bytes: Swift.Range<Int>, appendingTo buffer: ByteBuffer) throws(MaskCleanError) {
        _ = try buffer.appendFilling(upTo: bytes.count) { (room) throws(MaskCleanError) -> Int in
            try input.read(at: bytes.lowerBound, into: room)
            return room.count
        }
    }

    // MARK: Links

    private func waitForLink(_ index: Int) throws(MaskCleanError) -> Link {
        linked.lock()
        defer { linked.unlock() }
        while true {
            if let link = links.removeValue(forKey: index) { return link }
            // The range before could not be read; its error is the one reported.
            if broken { throw .data(input.name, line: nil, "could not be read before this range") }
            linked.wait()
        }
    }

    private func hand(_ link: Link, to index: Int) {
        linked.withLock {
            links[index] = link
            linked.broadcast()
        }
    }
}

/// What the bytes of a range (`RangedChunks`) hold, whichever way it starts: at a record's
/// start, or at a line's start inside a quoted field.
struct RangeScan: Equatable {
    var lineFeeds = 0
    /// The range ends inside a quoted field, when it starts at a record's start.
    var endsInsideQuotedField = false
    /// The range ends inside a quoted field, when it starts inside one.
    var endsInsideQuotedFieldFromQuotedField = false
    /// Starting inside a quoted field: where the first record starts (nil: none in the range),
    /// and the line feeds before it.
    var firstRecordFromQuotedField: Int?
    var lineFeedsBeforeFirstRecord = 0

    /// Scans `bytes` both ways. At each step one reading is inside a quoted field and the other at
    /// a record's start: the first scans to its first record end, the second reads up to there;
    /// if the second is then outside quotes too, both are at a record's start and read the rest
    /// alike, else they swap.
    init<Splitter: LineStartSplitter>(_ bytes: UnsafeBufferPointer<UInt8>, from recordStart: Splitter) {
        guard let quoted = recordStart.insideQuotedField else {
            var lines = recordStart
            lineFeeds = lines.scan(bytes).lineFeeds
            return
        }
        // Readings by where they started; at each step one is inside a quoted field.
        var fromRecordStart = recordStart
        var fromQuotedField = quoted
        var insideIsFromQuotedField = true
        var position = 0
        while true {
            let rest = UnsafeBufferPointer(rebasing: bytes[position...])
            var inside = insideIsFromQuotedField ? fromQuotedField : fromRecordStart
            var atStart = insideIsFromQuotedField ? fromRecordStart : fromQuotedField
            let found = inside.scanToFirstBoundary(rest)
            guard let boundary = found.boundary else {
                // The one inside a quoted field finds no record end in the rest.
                _ = atStart.scan(rest)
                lineFeeds += found.lineFeeds
                endsInsideQuotedField = (insideIsFromQuotedField ? atStart : inside).isInsideQuotedField
                endsInsideQuotedFieldFromQuotedField =
                    (insideIsFromQuotedField ? inside : atStart).isInsideQuotedField
                return
            }
            if insideIsFromQuotedField && firstRecordFromQuotedField == nil {
                firstRecordFromQuotedField = position + boundary
                lineFeedsBeforeFirstRecord = lineFeeds + found.lineFeedsBeforeBoundary
            }
            _ = atStart.scan(UnsafeBufferPointer(rebasing: rest[..<boundary]))
            lineFeeds += found.lineFeedsBeforeBoundary
            position += boundary
            if !atStart.isInsideQuotedField {
                // Both at a record's start: one reading of the rest for both.
                var both = recordStart
                lineFeeds += both.scan(UnsafeBufferPointer(rebasing: bytes[position...])).lineFeeds
                endsInsideQuotedField = both.isInsideQuotedField
                endsInsideQuotedFieldFromQuotedField = both.isInsideQuotedField
                return
            }
            if insideIsFromQuotedField {
                fromQuotedField = inside
                fromRecordStart = atStart
            } else {
                fromRecordStart = inside
                fromQuotedField = atStart
            }
            insideIsFromQuotedField.toggle()
        }
    }
}
