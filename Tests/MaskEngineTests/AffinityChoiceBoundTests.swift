import PropertyBased
import Testing

@testable import MaskEngine

// The affine choice skips a format when its bound says it cannot beat the best so far
// (`AffineMask+Choose.swift`). That is only sound while every strategy's bounds are at least the
// score they stand for: these properties check exactly that, format by format, on the values
// the choice tests use.

private let pieces = [
    "+1 ", "(", "[000]", ") ", "[000]", "-", "[0000]", " x[9999]", "[00]", "[0]", "{/}", "[AA]", "[99]",
    "[a…]", " ", "-",
]
private let format = Gen.int(in: 0..<pieces.count).array(of: 1...6).map { $0.map { pieces[$0] }.joined() }
private let valuePieces = ["5", "55", "555", "1234", "+1 ", "(", ") ", "-", " ", ".", "x", "ab", "/", "é"]
private let value = Gen.int(in: 0..<valuePieces.count).array(of: 0...8).map {
    $0.map { valuePieces[$0] }.joined()
}

/// The strategy's score for `program` on `input`, and its two bounds.
private func scoreAndBounds<Choice: WalkedChoice>(
    _: Choice.Type, _ program: Program, _ input: UnsafeBufferPointer<UInt8>, autocomplete: Bool,
    _ buffer: ApplyBuffer
) -> (score: Int, bound: Int, ceiling: Int) {
    let plain = input.isPlainASCII
    buffer.reserve(3 * input.count + program.literalByteCount, halves: 2)
    let counts = buffer.applyToSpare(program, input, autocomplete, plain, EachProgramsSyntax.self)
    var dataCharacters = -1
    return (
        Choice.score(counts, of: program, input: input, buffer: buffer),
        Choice.bound(consumable: program.consumableCount, characters: input.count, plain: plain),
        Choice.ceiling(of: program, input, plain: plain, &dataCharacters)
    )
}

@Suite("Every strategy's bounds are at least its score")
struct AffinityChoiceBoundTests {
    @Test("bound and ceiling hold for every walked strategy")
    func boundsHold() async {
        let buffer = ApplyBuffer(capacity: 8)
        await propertyCheck(count: 1_000, input: format, value, Gen.bool) { format, value, autocomplete in
            let program = try Mask(format: format).program
            var value = value
            value.withUTF8 { input in
                func check<Choice: WalkedChoice>(_ choice: Choice.Type) {
                    let (score, bound, ceiling) = scoreAndBounds(
                        choice, program, input, autocomplete: autocomplete, buffer)
                    #expect(score <= ceiling, "\(choice) \(format) on \(value.debugDescription)")
                    #expect(ceiling <= bound, "\(choice) \(format) on \(value.debugDescription)")
                }
                check(BestStatusChoice.self)
                check(WholeStringChoice.self)
                check(PrefixChoice.self)
                check(ExtractedValueCapacityChoice.self)
            }
        }
    }

    @Test("bestStatus ranks every status above every affinity")
    func statusFirst() {
        let ranks = [CellStatus.incomplete, .lossy, .complete].map(\.rank)
        #expect(ranks == [0, 1, 2])
        #expect(CellStatus.empty.rank == 0)
        // Affinity stays below 2³⁹ either way (a value or a format that long does not fit in
        // memory), so no affinity closes the 2⁴⁰ between two ranks.
        let worstComplete = StatusFirstScore.pack(rank: 2, affinity: 1 - (1 << 39))
        let bestLossy = StatusFirstScore.pack(rank: 1, affinity: (1 << 39) - 1)
        #expect(worstComplete > bestLossy)
    }
}
