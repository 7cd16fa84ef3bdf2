import Testing

@testable import MaskClean

/// Issue 28, item 1: `describe` samples records spread over the whole input, in memory for the
/// sample alone, and the same records on every run.
@Suite("Reservoir: a uniform, seeded sample in bounded memory")
struct ReservoirTests {
    /// The numbers a reservoir of `size` keeps of `count` elements, checking as they come that
    /// it never holds more than `size`.
    static func sample(_ size: Int, of count: Int) -> [Int] {
        var reservoir = Reservoir<Int>(size: size)
        for number in 0..<count {
            if let slot = reservoir.slot(for: number) { reservoir.keep(number, number: number, at: slot) }
            #expect(reservoir.kept.count <= size)
        }
        return reservoir.kept.map(\.element)
    }

    @Test("it never holds more than its size, and holds that many once as many came")
    func bounded() {
        #expect(Self.sample(100, of: 50_000).count == 100)
        #expect(Self.sample(1, of: 1_000).count == 1)
        #expect(Self.sample(0, of: 1_000).isEmpty)
    }

    @Test("fewer elements than its size: every one, in order")
    func fewer() {
        #expect(Self.sample(10, of: 7) == Array(0..<7))
    }

    @Test("the same elements give the same sample on every run")
    func seeded() {
        #expect(Self.sample(500, of: 100_000) == Self.sample(500, of: 100_000))
    }

    @Test("spread over them all: each tenth of the elements has about a tenth of the sample")
    func uniform() {
        let kept = Self.sample(2_000, of: 200_000)
        #expect(Set(kept).count == 2_000)
        var tenths = Array(repeating: 0, count: 10)
        for number in kept { tenths[number / 20_000] += 1 }
        // 200 expected in each; a deviation of 60 is over four standard deviations.
        #expect(tenths.allSatisfy { (140...260).contains($0) }, "\(tenths)")
    }
}
