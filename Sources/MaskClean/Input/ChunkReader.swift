/// Reads the input in blocks and cuts it into chunks of whole records, each at least
/// `chunkSize` bytes (but for the last), using a splitter to find record boundaries.
///
/// Memory stays bounded: a record that grows past `maximumRecordBytes` without ending (a runaway
/// quote, a 100 MB cell) is reported instead of being held.
final class ChunkReader<Splitter: RecordSplitter> {
    enum Event {
        case chunk(Chunk)
        /// A record longer than the maximum begins on `line`; `skipOversizedRecord` passes it.
        case oversizedRecord(line: Int)
        /// The input's structure broke on `line` (a JSON array whose brackets stopped matching):
        /// the records before it were handed out, and where the next ones start is unknown.
        case brokenStructure(line: Int)
    }

    private let input: InputFile
    private var splitter: Splitter
    /// The splitter as it was at the start: the state at any record's start.
    private let freshSplitter: Splitter
    private let chunkSize: Int
    /// At most this many records to a chunk, when the spec's formats write much per record (a
    /// format of 10,000 literals): with chunks cut by input size alone, short records made each
    /// chunk's output gigabytes. Nil for ordinary specs.
    var recordBudget: Int?
    /// Bytes scanned and record boundaries found, for the average record's size.
    private var scannedBytes = 0
    private var recordsSeen = 0
    /// Where chunks' buffers come from and, once masked, go back to.
    let pool: BufferPool
    let maximumRecordBytes: Int
    /// Bytes read and not yet handed out; the splitter has seen all of them. At a cut, this
    /// buffer becomes the chunk's and the bytes after the cut move to a fresh one: the copy is
    /// the remainder (less than a read), not the chunk (a 30 MB record was held twice).
    private var pending: ByteBuffer
    /// The buffer `pending` was before a caller's buffer took its bytes over: the next cut's
    /// fresh buffer, so that reading into callers' buffers takes none from the pool.
    private var spare: ByteBuffer?
    /// At most this many bytes not yet handed out are copied into a caller's buffer: at a cut,
    /// what is left is the start of one record.
    private static var carriedOver: Int { 64 << 10 }
    /// The end of the last record boundary in `pending` (0: none), and the line feeds before it.
    private var boundary = 0
    private var lineFeedsBeforeBoundary = 0
    /// Line feeds in all of `pending`.
    private var lineFeeds = 0
    /// The physical line `pending` starts on.
    private var line: Int
    private var atEnd = false
    private var handedOut = false
    /// Bytes before `pending`'s first: handed out in chunks or passed over in a record too long.
    private var offset = 0
    /// The line the splitter found the input's structure broken on.
    private var brokenLine: Int?
    /// The input read so far ends inside a quoted field.
    var isInsideQuotedField: Bool { splitter.isInsideQuotedField }

    /// Input bytes read so far, for the progress bar.
    private(set) var bytesRead = 0

    init(
        input: InputFile, splitter: Splitter, chunkSize: Int, maximumRecordBytes: Int, leftover: [UInt8],
        firstLine: Int, firstOffset: Int = 0, pool: BufferPool? = nil
    ) {
        self.offset = firstOffset
        // Taking over from ranges read at offsets (`RangedChunks`), past the first record.
        self.handedOut = firstOffset > 0
        self.input = input
        self.splitter = splitter
        self.chunkSize = chunkSize
        self.freshSplitter = splitter
        self.pool = pool ?? BufferPool(initialCapacity: chunkSize * 2)
        self.maximumRecordBytes = maximumRecordBytes
        self.line = firstLine
        self.pending = self.pool.take()
        leftover.withUnsafeBufferPointer { pending.append($0) }
        scan(from: 0)
    }

    /// The next chunk, or nil at the end of the input. With `buffer` (the one the caller masked
    /// its last chunk in, now the reader's), the chunk is read straight into it, after the start
    /// of the record the last read left unfinished: a worker that reads, masks and writes its
    /// chunks in its own buffers keeps their bytes in its own core's cache.
    func next(into buffer: ByteBuffer? = nil) throws(MaskCleanError) -> Event? {
        if let buffer {
            buffer.truncate(to: 0)
            if pending.count <= Self.carriedOver {
                buffer.append(pending.bytes)
                pending.truncate(to: 0)
                if spare == nil { spare = pending } else { pool.give(pending) }
                pending = buffer
            } else if spare == nil {
                spare = buffer
            } else {
                pool.give(buffer)
            }
        }
        while true {
            if atEnd {
                if let early = cutWithinBudget() { return .chunk(early) }
                return pending.isEmpty
                    ? nil : .chunk(cut(at: pending.count, lineFeeds: lineFeeds, isLast: true))
            }
            if let brokenLine {
                // Hand out the whole records before the break, then stop.
                if boundary > 0 {
                    return .chunk(cut(at: boundary, lineFeeds: lineFeedsBeforeBoundary, isLast: false))
                }
                return .brokenStructure(line: brokenLine)
            }
            if let early = cutWithinBudget() { return .chunk(early) }
            if boundary >= target {
                return .chunk(cut(at: boundary, lineFeeds: lineFeedsBeforeBoundary, isLast: false))
            }
            // (One more byte: the CR of a CRLF, which is no part of the record's length.)
            if pending.count - boundary > maximumRecordBytes + 1 {
                // Hand out the whole records before the long one first.
                if boundary > 0 {
                    return .chunk(cut(at: boundary, lineFeeds: lineFeedsBeforeBoundary, isLast: false))
                }
                return .oversizedRecord(line: line)
            }
            try readBlock()
        }
    }

    /// Passes the oversized record `next()` reported to `sink` as it is read (for the quarantine
    /// file) without holding it, and resumes after it.
    func skipOversizedRecord(_ sink: (UnsafeBufferPointer<UInt8>) throws(MaskCleanError) -> Void)
        throws(MaskCleanError)
    {
        // `pending` holds the start of the record, scanned, with no boundary in it.
        while !atEnd {
            try sink(pending.bytes)
            line += lineFeeds
            lineFeeds = 0
            offset += pending.count
            pending.truncate(to: 0)
            let count = try readIntoPending()
            guard count > 0 else { return }
            let found = splitter.scanToFirstBoundary(pending.bytes)
            if let end = found.boundary {
                try sink(UnsafeBufferPointer(rebasing: pending.bytes[..<end]))
                line += found.lineFeedsBeforeBoundary
                offset += end
                pending.removeFirst(end)
                scan(from: 0)
                return
            }
            lineFeeds = found.lineFeeds
        }
        // The input ended inside the record: all of it was the record.
        try sink(pending.bytes)
        line += lineFeeds
        lineFeeds = 0
        offset += pending.count
        pending.truncate(to: 0)
    }

    /// Under a record budget, the records held may be far more than a chunk should take (the
    /// header's first read brings many): a chunk of about `target` bytes is cut from the front,
    /// where a splitter started afresh (the front is a record's start) finds the last boundary.
    private func cutWithinBudget() -> Chunk? {
        guard recordBudget != nil else { return nil }
        let held = atEnd ? pending.count : boundary
        let size = target
        guard held > 2 * size else { return nil }
        var splitter = freshSplitter
        let found = splitter.scan(UnsafeBufferPointer(rebasing: pending.bytes[..<size]))
        guard let end = found.boundary, end > 0, end < held else { return nil }
        let remainingBoundary = boundary - end
        let remainingLineFeeds = lineFeedsBeforeBoundary - found.lineFeedsBeforeBoundary
        let chunk = cut(at: end, lineFeeds: found.lineFeedsBeforeBoundary, isLast: false)
        if !atEnd && remainingBoundary > 0 {
            boundary = remainingBoundary
            lineFeedsBeforeBoundary = remainingLineFeeds
        }
        return chunk
    }

    private func cut(at end: Int, lineFeeds cutLineFeeds: Int, isLast: Bool) -> Chunk {
        // Whichever side of the cut is smaller is copied into a fresh buffer.
        let fresh = spare ?? pool.take()
        spare = nil
        let chunkBuffer: ByteBuffer
        if end >= pending.count - end {
            fresh.append(UnsafeBufferPointer(rebasing: pending.bytes[end...]))
            pending.truncate(to: end)
            chunkBuffer = pending
            pending = fresh
        } else {
            fresh.append(UnsafeBufferPointer(rebasing: pending.bytes[..<end]))
            pending.removeFirst(end)
            chunkBuffer = fresh
        }
        let chunk = Chunk(
            buffer: chunkBuffer, firstLine: line, isLast: isLast, isFirst: !handedOut, firstOffset: offset)
        handedOut = true
        offset += end
        line += cutLineFeeds
        lineFeeds -= cutLineFeeds
        // The boundary found so far is the one just cut at, or none remains before the end.
        boundary = 0
        lineFeedsBeforeBoundary = 0
        return chunk
    }

    private func readBlock() throws(MaskCleanError) {
        let start = pending.count
        if try readIntoPending() > 0 { scan(from: start) }
    }

    /// The size of chunk to cut: `chunkSize`, or less when the record budget says so.
    private var target: Int {
        guard let recordBudget else { return chunkSize }
        // Until records are seen, small reads find out how long they are.
        guard recordsSeen > 0 else { return min(chunkSize, 1024) }
        let average = max(1, scannedBytes / recordsSeen)
        return max(256, min(chunkSize, recordBudget.multipliedReportingOverflow(by: average).partialValue))
    }

    /// Appends input to `pending`, unscanned; 0 at the end.
    private func readIntoPending() throws(MaskCleanError) -> Int {
        // Up to a chunk's size, then a little at a time until a record ends past it: reading a
        // whole chunk size more made chunks of one to two chunk sizes, and the last of them
        // kept one worker busy while the others had nothing left.
        let size = target
        let step = min(size, max(4096, size / 64))
        let count = try pending.appendFilling(upTo: max(size - pending.count, step)) {
            buffer throws(MaskCleanError) in
            try input.read(into: buffer)
        }
        bytesRead += count
        if count == 0 { atEnd = true }
        return count
    }

    private func scan(from start: Int) {
        let found = splitter.scan(UnsafeBufferPointer(rebasing: pending.bytes[start...]))
        if let foundBoundary = found.boundary {
            boundary = start + foundBoundary
            lineFeedsBeforeBoundary = lineFeeds + found.lineFeedsBeforeBoundary
        }
        scannedBytes += pending.count - start
        recordsSeen += found.boundaries
        if let broken = found.brokenAfterLineFeeds, brokenLine == nil {
            brokenLine = line + lineFeeds + broken
        }
        lineFeeds += found.lineFeeds
    }
}
