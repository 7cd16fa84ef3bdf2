import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where encoded bytes go: the pipeline's chunk output, or a plain array for small texts.
protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension [UInt8]: ByteSink {
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}

/// A growable byte buffer written through a pointer: a chunk's output, appended to a few bytes
/// at a time, without the uniqueness check an array makes on every append.
///
/// A buffer belongs to one thread at a time (a worker, then the writer), so exclusivity is
/// checked statically only.
final class ByteBuffer: ByteSink, @unchecked Sendable {
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = Self.allocate(self.capacity)
    }

    deinit {
        free(base)
    }

    /// malloc's memory, so that growing is a realloc: a large buffer (a 30 MB cell's output)
    /// then grows in place or by remapping its pages, never held twice while it is copied.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory allocating \(capacity) bytes") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    var isEmpty: Bool { count == 0 }

    /// The bytes it can hold without growing.
    var reservedCapacity: Int { capacity }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        guard let memory = realloc(base, newCapacity) else {
            fatalError("out of memory growing a buffer to \(newCapacity) bytes")
        }
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count > 0 else { return }
        reserve(bytes.count)
        appendInRoom(bytes)
    }

    /// Appends `byte`, then `bytes`, making room once: a separator and a short cell.
    @inline(__always)
    func append(_ byte: UInt8, then bytes: UnsafeBufferPointer<UInt8>) {
        reserve(1 + bytes.count)
        base[count] = byte
        count += 1
        appendInRoom(bytes)
    }

    /// Makes room for `extra` more bytes and gives where they go, for a writer that counts what
    /// it wrote there with `advance(by:)`.
    @inline(__always)
    func room(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        reserve(extra)
        return base + count
    }

    /// Keeps `written` bytes written into `room`.
    @inline(__always)
    func advance(by written: Int) {
        count += written
    }

    /// Appends `byte`, for which `reserve` made room.
    @inline(__always)
    func appendInRoom(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`, for which `reserve` made room.
    @inline(__always)
    func appendInRoom(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        let target = UnsafeMutableRawPointer(base + count)
        let length = bytes.count
        // Most cells are a few bytes: two overlapping word copies cost less than a call to memcpy.
        if length >= 8 && length <= 16 {
            let raw = UnsafeRawPointer(source)
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        } else if length > 16 && length <= 32 {
            // A JSON member's name and quotes: four overlapping words.
            let raw = UnsafeRawPointer(source)
            let first = raw.loadUnaligned(as: UInt64.self)
            let second = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let third = raw.loadUnaligned(fromByteOffset: length - 16, as: UInt64.self)
            let fourth = raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
            target.storeBytes(of: third, toByteOffset: length - 16, as: UInt64.self)
            target.storeBytes(of: fourth, toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 4 && length < 8 {
            let raw = UnsafeRawPointer(source)
            let head = raw.loadUnaligned(as: UInt32.self)
            let tail = raw.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        } else {
            target.copyMemory(from: source, byteCount: length)
        }
        count += length
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Drops everything after the first `newCount` bytes.
    func truncate(to newCount: Int) {
        count = min(count, newCount)
    }

    /// Drops the first `dropped` bytes, moving the rest to the front.
    func removeFirst(_ dropped: Int) {
        let kept = count - dropped
        if kept > 0 { base.update(from: base + dropped, count: kept) }
        count = max(0, kept)
    }

    /// Lets `fill` write up to `extra` bytes past the end (a read from a file), and keeps the
    /// number it says it wrote: no zeroing first.
    func appendFilling<Failure: Error>(
        upTo extra: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> Int {
        reserve(extra)
        let written = try fill(UnsafeMutableRawBufferPointer(start: base + count, count: extra))
        count += written
        return written
    }
}
