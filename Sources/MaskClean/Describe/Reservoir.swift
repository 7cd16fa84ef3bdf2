import Foundation

/// A uniform sample of `size` elements out of however many come, chosen as they come, in memory
/// for `size` elements whatever the count (Vitter's reservoir sampling, with Li's Algorithm L:
/// the number of elements to pass over is drawn at once, so that most are never looked at).
/// The random numbers come from a fixed seed: the same elements give the same sample on every
/// run and every machine, and so the same proposal.
struct Reservoir<Element> {
    /// The most elements kept; 0 keeps none (describe's `--sample 0` adds every record up).
    let size: Int
    /// The elements kept, each with its number in the order they came; in no particular order.
    private(set) var kept: [(number: Int, element: Element)] = []
    private var random = SplitMix64(seed: 0x6D61_736B_636C_6561)
    /// Algorithm L's weight: the largest of the kept elements' random keys, in effect.
    private var weight = 1.0
    /// The number of the next element to keep once the reservoir is full.
    private var next = 0

    init(size: Int) {
        self.size = size
        if size > 0 {
            weight = exp(log(random.unit()) / Double(size))
            next = size + skip()
        }
    }

    /// Where element `number` goes, asked of every element in order from 0: a slot of `kept`
    /// (`kept.count` for a new one), or nil when it is not kept.
    mutating func slot(for number: Int) -> Int? {
        guard size > 0 else { return nil }
        if number < size { return number }
        guard number == next else { return nil }
        let slot = Int(random.next() % UInt64(size))
        weight *= exp(log(random.unit()) / Double(size))
        next = number + 1 + skip()
        return slot
    }

    /// Keeps `element` in `slot`, as `slot(for: number)` said.
    mutating func keep(_ element: Element, number: Int, at slot: Int) {
        if slot == kept.count {
            kept.append((number, element))
        } else {
            kept[slot] = (number, element)
        }
    }

    /// Elements to pass over before the next one kept.
    private mutating func skip() -> Int {
        let skip = (log(random.unit()) / log(1 - weight)).rounded(.down)
        // A weight that rounds to 0 or 1 gives no finite count: pass over as many as can come.
        return skip.isFinite && skip < 1e15 ? Int(skip) : Int(1e15)
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

    /// A number strictly between 0 and 1, of 53 random bits.
    mutating func unit() -> Double {
        (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992
    }
}
