#if canImport(Glibc)
    import Glibc
#endif

/// Decompresses a compressed input ahead of its reader, on a thread of its own, into a few
/// blocks: one stream is inflated by one core, and under the reader's lock it held every worker
/// back (a `.gz` input took 5.5 times the plain file's time at 16 jobs, issue 32). With the
/// inflating apart, the lock holder only copies a block's bytes and cuts records.
///
/// At most `blocks` blocks of `blockSize` bytes are inflated and not yet read, so memory stays
/// bounded. What the input gives is the same, in the same order: the bytes, then its end or the
/// error that stopped it (a corrupt or truncated stream), once the bytes before are read.
final class ReadAhead: @unchecked Sendable {
    /// Fills the buffer's front with the next bytes; 0 at the end. Called on the thread only.
    typealias Fill = (UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int

    private struct Block {
        let storage: UnsafeMutableRawBufferPointer
        var count: Int
        var taken = 0
        /// The input's file bytes read once the block was filled, for the progress bar.
        var fileBytesRead: Int
    }

    private let fill: Fill
    /// The file bytes read so far; read on the thread only.
    private let fileBytesRead: () -> Int
    private let condition = Condition()
    // Guarded by `condition`:
    private var ready: [Block] = []
    private var empty: [UnsafeMutableRawBufferPointer]
    private var all: [UnsafeMutableRawBufferPointer]
    /// The thread is done: the input ended, or `failure` stopped it.
    private var ended = false
    private var failure: MaskCleanError?
    private var stopping = false
    private var running = true
    /// The block being read; the reader's alone.
    private var current: Block?
    /// The file bytes read by the time the block being read was filled.
    private(set) var fileBytesReadSoFar = 0

    /// Without `onThread`, the reads fill the blocks themselves, one at a time as they need them.
    init(
        blockSize: Int = 1 << 20, blocks: Int = 4, onThread: Bool = true, fileBytesRead: @escaping () -> Int,
        fill: @escaping Fill
    ) {
        self.fill = fill
        self.fileBytesRead = fileBytesRead
        all = (0..<max(2, blocks)).map { _ in .allocate(byteCount: blockSize, alignment: 64) }
        empty = all
        guard onThread else {
            running = false
            return
        }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { context in
                let readAhead = Unmanaged<ReadAhead>.fromOpaque(context!).takeRetainedValue()
                readAhead.produce()
                return nil
            }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<ReadAhead>.fromOpaque(context).release()
            // No thread: the reader fills the blocks itself (`read`).
            running = false
        }
    }

    deinit {
        for storage in all { storage.deallocate() }
    }

    /// Stops the thread and waits for it to leave `fill`: the input it reads is going away.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    /// Up to `buffer.count` bytes, the next ones in order; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int {
        if current == nil {
            condition.lock()
            if !running && !ended { fillOnce() }
            while ready.isEmpty && !ended { condition.wait() }
            guard !ready.isEmpty else {
                let failure = self.failure
                condition.unlock()
                if let failure { throw failure }
                return 0
            }
            current = ready.removeFirst()
            condition.unlock()
        }
        var block = current!
        let count = min(buffer.count, block.count - block.taken)
        buffer.baseAddress!.copyMemory(from: block.storage.baseAddress! + block.taken, byteCount: count)
        block.taken += count
        fileBytesReadSoFar = block.fileBytesRead
        if block.taken == block.count {
            current = nil
            condition.withLock {
                empty.append(block.storage)
                condition.signal()
            }
        } else {
            current = block
        }
        return count
    }

    /// The thread: fills empty blocks until the input ends, fails, or the reader stops it.
    private func produce() {
        condition.lock()
        while !ended {
            while empty.isEmpty && !stopping { condition.wait() }
            if stopping { break }
            fillOnce()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }

    /// Fills one empty block, with the lock let go while it fills; called with the lock held.
    private func fillOnce() {
        let storage = empty.removeLast()
        condition.unlock()
        var count = 0
        var failure: MaskCleanError?
        var atEnd = false
        do throws(MaskCleanError) {
            // A whole block, in as many reads as it takes, so that the reader takes few.
            while count < storage.count {
                let filled = try fill(UnsafeMutableRawBufferPointer(rebasing: storage[count...]))
                if filled == 0 {
                    atEnd = true
                    break
                }
                count += filled
            }
        } catch {
            failure = error
        }
        let fileBytes = fileBytesRead()
        condition.lock()
        if count > 0 {
            ready.append(Block(storage: storage, count: count, fileBytesRead: fileBytes))
        } else {
            empty.append(storage)
        }
        if atEnd || failure != nil {
            ended = true
            self.failure = failure
        }
        condition.broadcast()
    }
}
