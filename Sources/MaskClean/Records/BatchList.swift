/// A batch's records or fields: plain memory that keeps its capacity from chunk to chunk, read
/// and appended to without an array's uniqueness check. A batch belongs to one worker, and its
/// elements are plain values (offsets and flags).
///
/// Fenced fast code: an array here cost about 100 instructions a row in appends and in the
/// masking stage's lookups (docs/architecture.md, "Fast paths"); indices are checked in debug
/// builds only, and every index is one the batch's own reader wrote.
final class BatchList<Element> {
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
    func append(_ element: Element) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Makes room for `total` elements in all.
    func reserve(_ total: Int) {
        if total > capacity { grow(to: total) }
    }

    /// Keeps the first `newCount` elements.
    func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count)
        (base + newCount).deinitialize(count: count - newCount)
        count = newCount
    }

    @inline(never)
    private func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
