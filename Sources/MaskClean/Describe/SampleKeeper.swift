import FoundationEssentials

/// `describe`'s sample (docs/command-line.md): of all the records read, the `size` whose keys are
/// the smallest, a record's key being a hash of its place in the input (bottom-k sampling). Every
/// place is as likely as any other to hash small, so the sample is spread uniformly over the
/// whole input; and a key depends on the record's place alone, not on when it is read, so the
/// threads of a reading, taking the input's chunks in whatever order they come, keep the same
/// records as one thread does, on every run and every machine.
///
/// One keeper is shared by a reading's threads, and holds at most `size` records whatever the
/// input. A thread offers it a record only when the record's key is below the largest key kept
/// when it last offered one (its `bar`): once the keeper is full, few are, so the lock is seldom
/// taken and few records are copied out of their chunks.
final class SampleKeeper<Element>: @unchecked Sendable {
    /// The most records kept.
    let size: Int
    private let lock = Lock()
    /// The records kept, by key in a heap (the largest first) whose entries say where their
    /// record is in `elements`: the heap moves a few numbers, never a record.
    private var heap: [(key: UInt64, offset: Int, slot: Int)] = []
    private var elements: [Element] = []

    init(size: Int) {
        self.size = size
        heap.reserveCapacity(min(size, 1 << 16))
    }

    /// The key of the record at `offset`: SplitMix64's output for a fixed seed and the offset,
    /// a bijection of it, so that no two records share a key.
    static func key(_ offset: Int) -> UInt64 {
        var random = SplitMix64(seed: 0x6D61_736B_636C_6561 ^ UInt64(bitPattern: Int64(offset)))
        return random.next()
    }

    /// Offers the record at `offset` of key `key`, made by `element` only if it is kept. Returns
    /// the bar for the next offer: a key not below it is not kept.
    func offer(_ key: UInt64, offset: Int, _ element: () -> Element) -> UInt64 {
        guard size > 0 else { return 0 }
        let made = element()
        return lock.withLock {
            if heap.count < size {
                heap.append((key, offset, elements.count))
                elements.append(made)
                siftUp(heap.count - 1)
            } else if key < heap[0].key {
                elements[heap[0].slot] = made
                heap[0] = (key, offset, heap[0].slot)
                siftDown(0)
            }
            return heap.count < size ? UInt64.max : heap[0].key
        }
    }

    /// The records kept, in input order.
    var kept: [(offset: Int, element: Element)] {
        lock.withLock { heap.sorted { $0.offset < $1.offset }.map { ($0.offset, elements[$0.slot]) } }
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent].key < heap[child].key else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            var largest = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < heap.count, heap[left].key > heap[largest].key { largest = left }
            if right < heap.count, heap[right].key > heap[largest].key { largest = right }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}

/// Steele, Lea and Flood's SplitMix64: a small, fast generator of 64-bit numbers, the same
/// sequence for the same seed everywhere (Swift's own generator is seeded at random).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
