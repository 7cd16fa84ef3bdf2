import Dispatch
import Testing

@testable import MaskClean

/// Issue 28, item 1: `describe` samples records spread over the whole input, in memory for the
/// sample alone, and the same records on every run, however many threads read them.
@Suite("SampleKeeper: a uniform sample, the same whatever the order the records come in")
struct SampleKeeperTests {
    /// The places a keeper of `size` keeps of records at `places`, offered in that order,
    /// each only when its key is below the bar, as a reading's thread offers them.
    static func sample(_ size: Int, of places: [Int]) -> [Int] {
        let keeper = SampleKeeper<Int>(size: size)
        var bar = UInt64.max
        for place in places {
            let key = SampleKeeper<Int>.key(place)
            if key < bar { bar = keeper.offer(key, offset: place) { place } }
        }
        return keeper.kept.map(\.element)
    }

    @Test("it never holds more than its size, and holds that many once as many came")
    func bounded() {
        #expect(Self.sample(100, of: Array(0..<50_000)).count == 100)
        #expect(Self.sample(1, of: Array(0..<1_000)).count == 1)
        #expect(Self.sample(0, of: Array(0..<1_000)).isEmpty)
    }

    @Test("fewer records than its size: every one, in input order")
    func fewer() {
        #expect(Self.sample(10, of: [70, 0, 30, 10, 50]) == [0, 10, 30, 50, 70])
    }

    @Test("the same records whatever the order they come in")
    func orderFree() {
        let places = (0..<100_000).map { $0 * 37 }
        var shuffled = places
        var random = SplitMix64(seed: 7)
        shuffled.shuffle(using: &random)
        let inOrder = Self.sample(500, of: places)
        #expect(inOrder.count == 500)
        #expect(Self.sample(500, of: shuffled) == inOrder)
        #expect(Self.sample(500, of: places.reversed()) == inOrder)
    }

    @Test("four threads offering their shares keep what one thread keeps")
    func threads() {
        let places = Array(0..<200_000)
        let keeper = SampleKeeper<Int>(size: 1_000)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var bar = UInt64.max
            // Interleaved shares, as chunks fall to threads.
            for place in stride(from: thread * 1_000, to: places.count, by: 4_000) {
                for place in place..<min(place + 1_000, places.count) {
                    let key = SampleKeeper<Int>.key(place)
                    if key < bar { bar = keeper.offer(key, offset: place) { place } }
                }
            }
        }
        #expect(keeper.kept.map(\.element) == Self.sample(1_000, of: places))
    }

    @Test("spread over them all: each tenth of the records has about a tenth of the sample")
    func uniform() {
        // Places as a CSV's records have them: increasing, some bytes apart.
        let places = (0..<200_000).map { $0 * 61 + $0 % 7 }
        let kept = Self.sample(2_000, of: places)
        #expect(Set(kept).count == 2_000)
        var tenths = Array(repeating: 0, count: 10)
        for place in kept { tenths[place / 61 / 20_000] += 1 }
        // 200 expected in each; a deviation of 60 is over four standard deviations.
        #expect(tenths.allSatisfy { (140...260).contains($0) }, "\(tenths)")
    }
}
