import Foundation

/// Buffers handed back once their bytes are used, for the next chunk to fill.
///
/// Allocating megabyte buffers per chunk on one thread and freeing them on another lets malloc's
/// arenas keep growing with the file; with a pool, the buffers in use are the chunks in flight,
/// and after the first few chunks nothing is allocated at all.
final class BufferPool: @unchecked Sendable {
    private let lock = NSLock()
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
        buffer.truncate(to: 0)
        lock.lock()
        free.append(buffer)
        lock.unlock()
    }
}
