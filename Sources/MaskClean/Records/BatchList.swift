/// A batch's records or fields: plain memory that keeps its capacity from chunk to chunk, read
/// and appended to with no array's uniqueness check and no reference counted. A batch belongs
/// to one worker, and its elements are plain values (offsets and flags).
///
/// Fenced fast code: arrays here cost about 50 instructions a row in uniqueness checks, and a
/// class about 200 in reference counting (docs/architecture.md, "Fast paths"). Indices are
/// checked in debug builds only; every index read is one the batch's own reader wrote.
struct BatchList<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    subscript(index: Int) -> Element {
        assert(index >= 0 && index < count)
        return base[index]
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Makes room for `total` elements in all.
    mutating func reserve(_ total: Int) {
        if total > capacity { grow(to: total) }
    }

    /// Keeps the first `newCount` elements.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count)
        (base + newCount).deinitialize(count: count - newCount)
        count = newCount
    }

    @inline(never)
    private mutating func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
