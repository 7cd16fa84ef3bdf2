import FoundationEssentials

/// Buffers handed back once their bytes are used, for the next chunk to fill.
///
/// Allocating megabyte buffers per chunk on one thread and freeing them on another lets malloc's
/// arenas keep growing with the file; with a pool, the buffers in use are the chunks in flight,
/// and after the first few chunks nothing is allocated at all.
final class BufferPool: @unchecked Sendable {
    private let lock = Lock()
    private var free: [ByteBuffer] = []
    private let initialCapacity: Int

    init(initialCapacity: Int) {
        self.initialCapacity = initialCapacity
    }

    /// An empty buffer, with the capacity it grew to when last used.
    func take() -> ByteBuffer {
        lock.lock()
        let buffer = free.popLast()
        lock.unlock()
        return buffer ?? ByteBuffer(capacity: initialCapacity)
    }

    func give(_ buffer: ByteBuffer) {
        guard let buffer = recycled(buffer) else { return }
        lock.lock()
        free.append(buffer)
        lock.unlock()
    }

    /// `buffer` emptied, for its holder to fill again instead of giving it back; nil when it
    /// is not worth keeping.
    func recycled(_ buffer: ByteBuffer) -> ByteBuffer? {
        // A buffer that grew for one huge record (a 30 MB cell) is let go, not kept for every
        // chunk after it: the pool holds what ordinary chunks need.
        guard buffer.reservedCapacity <= max(initialCapacity * 4, 16 << 20) else { return nil }
        buffer.truncate(to: 0)
        return buffer
    }
}
