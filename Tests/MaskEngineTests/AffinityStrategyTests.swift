import MaskEngine
import Testing

@Suite("Affinity strategies choose a format")
struct AffinityStrategyTests {
    /// Four formats for the value "12-345", each of which wins under exactly one strategy:
    ///
    /// | format            | wholeString | prefix | capacity     | extractedValueCapacity |
    /// | ----------------- | ----------- | ------ | ------------ | ---------------------- |
    /// | `([00]-[0000])`   | **5**       | 0      | 6 − 9 = −3   | 5 − 6 = −1             |
    /// | `[00]-[0][AAA]`   | 2           | **4**  | 6 − 7 = −1   | 3 − 5 = −2             |
    /// | `[AAAAAA]`        | −6          | 0      | **6 − 6 = 0** | 0 − 6 = −6            |
    /// | `[00000]`         | 4           | 2      | too small    | **5 − 5 = 0**          |
    static let formats = ["([00]-[0000])", "[00]-[0][AAA]", "[AAAAAA]", "[00000]"]

    static func mask(_ strategy: AffinityStrategy) throws -> AffineMask {
        try AffineMask(format: formats[0], affineFormats: Array(formats.dropFirst()), strategy: strategy)
    }

    @Test("wholeString picks the format that consumes the most and inserts the least")
    func wholeString() throws {
        let outcome = try Self.mask(.wholeString).apply("12-345")
        #expect(outcome.chosen == 0)
        #expect(outcome.result.formatted == "(12-345")
        #expect(outcome.result.affinity == 5)
    }

    @Test("prefix picks the format whose output starts like the value")
    func prefix() throws {
        let outcome = try Self.mask(.prefix).apply("12-345")
        #expect(outcome.chosen == 1)
        #expect(outcome.result.formatted == "12-3")
    }

    @Test("capacity picks the smallest format that holds the value's length, whatever its content")
    func capacity() throws {
        let outcome = try Self.mask(.capacity).apply("12-345")
        #expect(outcome.chosen == 2)
        #expect(outcome.result.formatted == "")
        #expect(outcome.result.status == .incomplete)
    }

    @Test("extractedValueCapacity picks the format whose value capacity fits the extracted value")
    func extractedValueCapacity() throws {
        let outcome = try Self.mask(.extractedValueCapacity).apply("12-345")
        #expect(outcome.chosen == 3)
        #expect(outcome.result.formatted == "12345")
    }

    @Test("the String result is the chosen format's own result")
    func resultIsChosenFormats() throws {
        for strategy in AffinityStrategy.allCases {
            let mask = try Self.mask(strategy)
            let outcome = mask.apply("12-345")
            #expect(outcome.result == mask.masks[outcome.chosen].apply("12-345"))
        }
    }

    @Test("the primary format wins a tie against an alternative")
    func primaryWinsTies() throws {
        let spaced = try AffineMask(format: "[00] [00]", affineFormats: ["[00]-[00]"])
        let dashed = try AffineMask(format: "[00]-[00]", affineFormats: ["[00] [00]"])
        #expect(spaced.apply("1234").chosen == 0)
        #expect(spaced.apply("1234").result.formatted == "12 34")
        #expect(dashed.apply("1234").chosen == 0)
        #expect(dashed.apply("1234").result.formatted == "12-34")
    }

    @Test("the first listed alternative wins a tie among alternatives")
    func firstAlternativeWinsTies() throws {
        let spacedFirst = try AffineMask(format: "[AAAA]", affineFormats: ["[00] [00]", "[00]-[00]"])
        let dashedFirst = try AffineMask(format: "[AAAA]", affineFormats: ["[00]-[00]", "[00] [00]"])
        #expect(spacedFirst.apply("1234").chosen == 1)
        #expect(spacedFirst.apply("1234").result.formatted == "12 34")
        #expect(dashedFirst.apply("1234").chosen == 1)
        #expect(dashedFirst.apply("1234").result.formatted == "12-34")
    }

    @Test("a better alternative beats the primary")
    func alternativeWins() throws {
        let phones = try AffineMask(
            format: "+1 ([000]) [000]-[0000]", affineFormats: ["[000]-[0000]"], strategy: .prefix)
        #expect(phones.apply("555-1234").chosen == 1)
        #expect(phones.apply("555-1234").result.formatted == "555-1234")
        #expect(phones.apply("+1 (555) 123-4567").chosen == 0)
    }

    @Test("the primary wins on capacity when every format is too small for the value")
    func allTooSmall() throws {
        let mask = try AffineMask(format: "[00]", affineFormats: ["[000]"], strategy: .capacity)
        #expect(mask.apply("12345").chosen == 0)
        #expect(mask.apply("12345").result.formatted == "12")
    }

    @Test("on capacity, a format too small for the value loses to a larger one")
    func tooSmallLoses() throws {
        let mask = try AffineMask(format: "[00]", affineFormats: ["[0000000]"], strategy: .capacity)
        #expect(mask.apply("12345").chosen == 1)
        #expect(mask.apply("12").chosen == 0)
    }

    @Test("extractedValueCapacity scores what the format extracted, so a small format filled up wins")
    func extractedValueCapacityFullFormat() throws {
        // [00] extracts "12" from "12345": 2 − 2 = 0; [0000000] extracts all five: 5 − 7 = −2.
        let mask = try AffineMask(
            format: "[0000000]", affineFormats: ["[00]"], strategy: .extractedValueCapacity)
        #expect(mask.apply("12345").chosen == 1)
        #expect(mask.apply("12345").result.status == .lossy)
    }

    @Test("extractedValueCapacity: an ellipsis holds one character in the score, so it is too small")
    func extractedValueCapacityEllipsis() throws {
        // [0…] extracts "12345": 5 is more than the 2 it holds, the minimum score; [00000000]: 5 − 8.
        let mask = try AffineMask(
            format: "[0…]", affineFormats: ["[00000000]"], strategy: .extractedValueCapacity)
        #expect(mask.apply("12345").chosen == 1)
        #expect(mask.apply("12").chosen == 0)
    }
}
