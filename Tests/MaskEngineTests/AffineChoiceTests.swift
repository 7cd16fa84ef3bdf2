import PropertyBased
import Testing

@testable import MaskEngine

// The affine choice skips formats that cannot beat the best so far. These properties hold it to
// the rule it shortcuts: apply every format, score each as docs/mask-syntax.md says, and take the
// highest, the first listed on a tie.

/// Format pieces that share starts with each other, so that formats built from them share their
/// first steps in many ways (the phone trio of the bench spec among them).
private let sharedPieces = [
    "+1 ", "(", "[000]", ") ", "[000]", "-", "[0000]", " x[9999]", "[00]", "[0]", "{/}", "[AA]", "[99]",
    "[a…]",
    " ", "-",
]

/// A format made of a run of the shared pieces: formats drawn together often begin alike.
private let sharedFormat = Gen.int(in: 0..<sharedPieces.count).array(of: 1...6)
    .map { indices in
        indices.enumerated().map { sharedPieces[($0.offset < 2 ? $0.offset : $0.element)] }.joined()
    }

/// Values in the shapes of the bench export's phones, cards and dates, and some noise.
private let valuePieces = [
    "5", "55", "555", "1234", "+1 ", "(", ") ", "-", " ", ".", "x", "ab", "/", "é", "١٢",
]
private let shapedValue = Gen.int(in: 0..<valuePieces.count).array(of: 0...8)
    .map { $0.map { valuePieces[$0] }.joined() }

/// The score docs/mask-syntax.md gives a format's result for `value`.
private func referenceScore(
    _ result: MaskResult, of mask: Mask, value: String, strategy: AffinityStrategy
) -> Int {
    switch strategy {
    case .bestStatus:
        let rank = result.status == .complete ? 2 : result.status == .lossy ? 1 : 0
        return rank << 40 + result.affinity
    case .wholeString:
        return result.affinity
    case .prefix:
        return commonPrefixCount(result.formatted, value)
    case .extractedValueCapacity:
        let capacity = mask.program.capacityValueLength
        return result.extracted.count > capacity ? Int.min : result.extracted.count - capacity
    case .capacity:
        let capacity = mask.program.capacityTextLength
        return value.count > capacity ? Int.min : value.count - capacity
    }
}

/// The format every format's score picks: the first of the highest.
private func referenceChoice(_ mask: AffineMask, _ value: String) -> Int {
    var chosen = 0
    var best = Int.min
    for (index, format) in mask.masks.enumerated() {
        let score = referenceScore(
            format.apply(value, autocomplete: mask.autocomplete), of: format, value: value,
            strategy: mask.strategy)
        if index == 0 || score > best {
            best = score
            chosen = index
        }
    }
    return chosen
}

/// Leading literals and the steps after them, for formats that differ only in how they begin
/// ("+1 (…", "+44 (…"): enough of them, written together, form groups that share their steps.
private let leadPieces = ["+", "1", "44", "5", " ", "(", "-", "{/}", "{-}", "x", "555", "0"]
private let sharedTails = ["[000]) [000]-[0000]", "[00]-[00]", "[0…]", "[AA] [99]", "[000]", "[9999]", ""]

/// The leading literals a number stands for: its digits in base `leadPieces.count`.
private func lead(_ number: Int) -> String {
    var number = number
    var text = ""
    while number > 0 {
        text += leadPieces[number % leadPieces.count]
        number /= leadPieces.count
    }
    return text
}

/// Many formats, each a run of leading literals and then the tail of its run of about eight.
private let leadingFormats = Gen.int(in: 0..<5_000).array(of: 16...40)
    .map { numbers in
        numbers.enumerated().map {
            lead($0.element) + sharedTails[($0.offset / 8 + numbers[0]) % sharedTails.count]
        }
    }

/// Pieces of formats in each syntax, alike enough that formats built from them share their
/// first steps.
private let piecesBySyntax: [Syntax: [String]] = [
    .inputMask: sharedPieces,
    .akmask: ["+1 ", "(", "{ddd}", ") ", "-", "{dddd}", " x", "{dd}", "{aa}", "{.}", " ", "/"],
    .maskara: ["+?7|8", "(", "DDD", ")", "-", "DDDD", "-?", "DD", "XX", " ", "D?D?", "X|D"],
]

/// Two to five formats in `syntax`, drawn from its pieces by `seed`; the first two pieces of
/// each are the same, so that they share their first steps.
private func syntaxFormats(_ syntax: Syntax, seed: Int) -> [String] {
    let pieces = piecesBySyntax[syntax]!
    var state = UInt64(seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    return (0..<(2 + next(4))).map { _ in
        (0..<(1 + next(6))).map { $0 < 2 ? pieces[$0] : pieces[next(pieces.count)] }.joined()
    }
}

@Suite("The affine choice skips only formats that cannot win")
struct AffineChoiceTests {
    @Test("the chosen format is the one scoring every format would choose")
    func sameChoiceAsScoringEvery() async {
        let buffer = ApplyBuffer(capacity: 8)
        await propertyCheck(
            count: 1_500, input: sharedFormat.array(of: 2...5), shapedValue, Gen<AffinityStrategy>.case,
            Gen.bool
        ) { formats, value, strategy, autocomplete in
            try expectSameChoiceAsScoringEvery(formats, value, strategy, autocomplete, buffer: buffer)
        }
    }

    @Test("formats of every syntax choose as scoring every format would")
    func sameChoiceInEverySyntax() async {
        let buffer = ApplyBuffer(capacity: 8)
        await propertyCheck(
            count: 600, input: Gen.int(in: 0..<Syntax.allCases.count), Gen.int(in: 0..<1_000_000),
            shapedValue, Gen<AffinityStrategy>.case, Gen.bool
        ) { syntaxIndex, seed, value, strategy, autocomplete in
            let syntax = Syntax.allCases[syntaxIndex]
            try expectSameChoiceAsScoringEvery(
                syntaxFormats(syntax, seed: seed), value, strategy, autocomplete, buffer: buffer,
                syntax: syntax)
        }
    }

    @Test("a mask mixing syntaxes walks each format by its own syntax's rules")
    func mixedSyntaxes() async throws {
        let buffer = ApplyBuffer(capacity: 8)
        await propertyCheck(
            count: 300, input: Gen.int(in: 0..<1_000_000), shapedValue, Gen<AffinityStrategy>.case, Gen.bool
        ) { seed, value, strategy, autocomplete in
            // Each format in the syntax its position picks, so that every mask mixes them.
            let masks = try Syntax.allCases.enumerated().map { offset, syntax in
                try Mask(syntax: syntax, format: syntaxFormats(syntax, seed: seed + offset)[0])
            }
            let mask = AffineMask(
                primary: masks[0], affineFormats: Array(masks.dropFirst()), strategy: strategy,
                autocomplete: autocomplete)
            let expected = referenceChoice(mask, value)
            let outcome = snapshotOfByteAPI(mask, value, buffer: buffer)
            #expect(
                outcome.chosen == expected, "\(masks.map(\.format)) on \(value.debugDescription), \(strategy)"
            )
            let result = mask.masks[expected].apply(value, autocomplete: autocomplete)
            #expect(outcome.formatted == result.formatted)
            #expect(outcome.extracted == result.extracted)
        }
    }

    /// The byte API's choice and outcome for `value` equal the reference's, which scores every
    /// format.
    func expectSameChoiceAsScoringEvery(
        _ formats: [String], _ value: String, _ strategy: AffinityStrategy, _ autocomplete: Bool,
        buffer: ApplyBuffer, syntax: Syntax = .inputMask
    ) throws {
        let mask = try AffineMask(
            syntax: syntax, format: formats[0], affineFormats: Array(formats.dropFirst()), strategy: strategy,
            autocomplete: autocomplete)
        let expected = referenceChoice(mask, value)
        let outcome = snapshotOfByteAPI(mask, value, buffer: buffer)
        #expect(outcome.chosen == expected, "\(formats) on \(value.debugDescription), \(strategy)")
        let result = mask.masks[expected].apply(value, autocomplete: autocomplete)
        #expect(outcome.formatted == result.formatted)
        #expect(outcome.extracted == result.extracted)
        #expect(outcome.status == result.status)
    }

    @Test("many formats differing in their leading literals choose as scoring every format would")
    func sameChoiceAmongLeadingLiterals() async {
        let buffer = ApplyBuffer(capacity: 8)
        await propertyCheck(
            count: 300, input: leadingFormats, shapedValue, Gen<AffinityStrategy>.case, Gen.bool
        ) { formats, value, strategy, autocomplete in
            try expectSameChoiceAsScoringEvery(formats, value, strategy, autocomplete, buffer: buffer)
        }
    }

    @Test(
        "the 10,000-format spec's shape chooses as scoring every format would",
        arguments: AffinityStrategy.allCases)
    func countryCodes(strategy: AffinityStrategy) throws {
        let formats = (1...1_500).map { "+\($0) ([000]) [000]-[0000]" }
        let mask = try AffineMask(format: "[000]-[0000]", affineFormats: formats, strategy: strategy)
        let buffer = ApplyBuffer(capacity: 8)
        let values = [
            "5551234567", "(555) 123-4567", "555", "", "+44 20 7946 0958", "12-34", "abc",
            "+1 (555) 123-4567",
            "+5551 234", "+12", "1234 (555) 123-4567",
        ]
        for value in values {
            let outcome = snapshotOfByteAPI(mask, value, buffer: buffer)
            #expect(outcome.chosen == referenceChoice(mask, value), "\(value), \(strategy)")
        }
    }

    @Test(
        "the bench spec's phone formats choose as scoring every format would",
        arguments: AffinityStrategy.allCases)
    func phoneTrio(strategy: AffinityStrategy) throws {
        let mask = try AffineMask(
            format: "+1 ([000]) [000]-[0000]",
            affineFormats: ["+1 ([000]) [000]-[0000] x[9999]", "[000]-[0000]"],
            strategy: strategy)
        let values = [
            "5551234567", "(555) 123-4567", "555-123-4567", "555.123.4567", "+1 555 123 4567", "555-1234",
            "1-555-123-4567", "+15551234567", "+1 (555) 123-4567", "55512345", "555-123-456",
            "5551234567 x12",
            "555-123-4567 ext. 89", "+1 (555) 123-4567 x1234", "", "x", "555", "call me",
        ]
        for value in values {
            #expect(snapshotOfStringAPI(mask, value).chosen == referenceChoice(mask, value), "\(value)")
        }
    }

    @Test("many formats: the best of 300 is found, and the first of equals")
    func manyFormats() throws {
        // "[0]", "[00]", … "[0 × 300]": a value of n digits fits the n-th exactly.
        let formats = (1...300).map { "[" + String(repeating: "0", count: $0) + "]" }
        for strategy in [AffinityStrategy.bestStatus, .wholeString, .prefix, .extractedValueCapacity] {
            let mask = try AffineMask(
                format: formats[0], affineFormats: Array(formats.dropFirst()), strategy: strategy)
            for value in ["5", "5551234", "555-1234", "12345678901234567890", "abc"] {
                let outcome = mask.apply(value)
                #expect(outcome.chosen == referenceChoice(mask, value), "\(value), \(strategy)")
            }
        }
        let reversed = try AffineMask(
            format: formats.last!, affineFormats: formats.dropLast().reversed(), strategy: .bestStatus)
        #expect(reversed.apply("5551234").chosen == 293)
        #expect(reversed.apply("5551234").result.formatted == "5551234")
    }
}
