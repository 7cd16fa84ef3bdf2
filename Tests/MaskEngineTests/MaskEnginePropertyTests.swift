import MaskEngine
import PropertyBased
import Testing

// MARK: Generators

/// The notations every generated format may use.
private let notations = [currencySymbol, optionalPoint, hexDigit, dateSeparator]

/// Pieces of hostile text: combining marks, emoji with modifiers and ZWJ, flags, CR/LF, Hangul
/// jamo, prepended and format characters, and digits and letters of several scripts.
private let unicodePieces: [String] = [
    "0", "1", "5", "9", "a", "Z", "x", " ", "-", "(", ")", ".", "/", "+", "$", "€", "£", "\\", "[", "}",
    "\r", "\n", "\r\n", "\t", "\u{0}", "é", "e\u{301}", "\u{301}", "\u{308}", "\u{20E3}", "\u{FE0F}",
    "1\u{FE0F}\u{20E3}", "٣", "४", "５", "²", "½", "Ж", "中", "ß", "Å", "न", "\u{93F}", "👍", "👍🏽", "😀",
    "👨‍👩‍👧", "\u{200D}", "🇺🇸", "\u{1F1FA}", "\u{1100}", "\u{1161}", "\u{11A8}", "가", "각",
    "\u{600}", "\u{200F}", "\u{E0041}",
]

/// One piece of hostile text, or one random scalar (surrogate code points become "?").
private let unicodePiece = zip(
    Gen.bool(0.7), Gen.int(in: 0..<unicodePieces.count), Gen.uint32(in: 0x20...0x2_FFFF)
)
.map { piece -> String in
    if piece.0 { return unicodePieces[piece.1] }
    return Unicode.Scalar(piece.2).map { String(Character($0)) } ?? "?"
}

/// Random Unicode values, up to a few dozen scalars.
private let unicodeValue = unicodePiece.array(of: 0...24).map { $0.joined() }

/// Random ASCII values, controls included.
private let asciiValue = Gen.ascii.string(of: 0...30)

/// ASCII characters with a one-scalar canonical equivalent outside ASCII, and that equivalent.
private let canonicalTwins: [Character: Character] = ["K": "\u{212A}", ";": "\u{37E}", "`": "\u{1FEF}"]

/// Printable ASCII values, rich in the characters that have a non-ASCII twin.
private let asciiPieces: [Character] = Array(" -()./+$€:;`0123456789abcxyzKKKABC").filter(\.isASCII)
private let printableASCIIValue = Gen.int(in: 0..<asciiPieces.count).array(of: 0...24)
    .map { String($0.map { asciiPieces[$0] }) }

/// Formats with ASCII literals that have a non-ASCII twin.
private let twinTokens = mandatoryTokens + optionalTokens + ["K", ";", "`", "{K}", "{;}", "[A…]K"]
private let twinFormat = Gen.int(in: 0..<twinTokens.count).array(of: 1...6)
    .map { $0.map { twinTokens[$0] }.joined() }

/// Letters and digits that are one scalar each and never merge with a neighbour.
private let plainAlphanumerics: [Character] = Array(
    "abcxyzABCXYZ0123456789" + "éßÅЖك中٣४²")
private let alphanumericValue = Gen.int(in: 0..<plainAlphanumerics.count).array(of: 0...20)
    .map { String($0.map { plainAlphanumerics[$0] }) }

/// Well-formed pieces of format with mandatory slots, fixed and free characters only.
private let mandatoryTokens = [
    "[0]", "[00]", "[000]", "[A]", "[AA]", "[_]", "[0A]", "[A0_]", "[h]", "[0h]", "[D]",
    "{/}", "{-}", "{é}", "{0}", "-", " ", "(", ")", "+1 ", "/", "x", "é", "€", ".",
]

/// Well-formed pieces with optional slots, ellipses, notations and empty blocks.
private let optionalTokens = [
    "[9]", "[99]", "[a]", "[-]", "[s]", "[09]", "[.]", "[0…]", "[A…]", "[…]", "[s…]", "[9…]", "[_-]",
    "{+}", "{ }", "[]", "{}",
]

/// Formats of mandatory steps only.
private let mandatoryFormat = Gen.int(in: 0..<mandatoryTokens.count).array(of: 1...6)
    .map { $0.map { mandatoryTokens[$0] }.joined() }

/// Formats of any tokens, without escapes: their `{}` contents are exactly the fixed characters.
private let allTokens = mandatoryTokens + optionalTokens
private let tokenFormat = Gen.int(in: 0..<allTokens.count).array(of: 1...6)
    .map { $0.map { allTokens[$0] }.joined() }

/// Real formats, escapes and odd corners included.
private let listedFormats = [
    "+1 ([000]) [000]-[0000]", "[0000] [0000] [0000] [0000]", "[00]{/}[00]{/}[9900]",
    "[A][-----------------------------------------------------]", "[s][9999]", "[999999999][.][99]",
    "[000],[000],[000]", "[999] [999] [990]{.}[00]", #"\[[00]\]"#, #"[00]\\[00]"#, #"{\}}[00]"#,
    #"{\{}[0]"#, #"\\"#, #"[00]\"#, "café [00]", "{café}[00]", "x[A]", "[AA]", "[…]", "[_…]",
    " AC[___]№", "[]", "{}", "", "[0…][AAA]", "👍[A]{👍}",
]

/// A listed format or a generated one.
private let anyFormat = zip(Gen.bool(0.4), Gen.int(in: 0..<listedFormats.count), tokenFormat)
    .map { choice -> String in choice.0 ? listedFormats[choice.1] : choice.2 }

/// The characters inside the `{}` blocks of a format without escapes.
private func fixedScalars(of format: String) -> Set<Unicode.Scalar> {
    var inFixed = false
    var scalars: Set<Unicode.Scalar> = []
    for scalar in format.unicodeScalars {
        switch scalar {
        case "{": inFixed = true
        case "}": inFixed = false
        default: if inFixed { scalars.insert(scalar) }
        }
    }
    return scalars
}

private func makeMask(
    _ formats: [String], strategy: AffinityStrategy = .wholeString, rightToLeft: Bool,
    autocomplete: Bool = true
) throws -> AffineMask {
    try AffineMask(
        format: formats[0], affineFormats: Array(formats.dropFirst()),
        options: SyntaxOptions(notations: notations, rightToLeft: rightToLeft), strategy: strategy,
        autocomplete: autocomplete)
}

// MARK: Properties

@Suite("Properties of the mask engine")
struct MaskEnginePropertyTests {
    @Test("no value crashes the engine, whatever the formats, direction and strategy")
    func noValueCrashes() async {
        await propertyCheck(
            count: 400, input: anyFormat.array(of: 1...3), unicodeValue, Gen<AffinityStrategy>.case, Gen.bool,
            Gen.bool
        ) { formats, value, strategy, rightToLeft, autocomplete in
            let mask = try makeMask(
                formats, strategy: strategy, rightToLeft: rightToLeft, autocomplete: autocomplete)
            let outcome = mask.apply(value)
            #expect(mask.masks.indices.contains(outcome.chosen))
            #expect(outcome.result.status != .empty)
            #expect(
                outcome.result.formatted.utf8.count
                    <= mask.outputCapacity(forInputCount: value.utf8.count))
            #expect(outcome.result.dropped.unicodeScalars.count <= value.unicodeScalars.count)
        }
    }

    @Test("a mandatory-only format applied to its own output gives the same output")
    func idempotence() async {
        // Every character of the output was written by the step it stands at: a slot it fits or a
        // literal it equals. Walking the output again consumes each character at the same step, so
        // nothing is inserted, skipped or dropped. Optional slots break this (`[a]x[0]` turns "5"
        // into "x5", then "x5" into "xx5"), and characters that merge change the walk, so the
        // formats have mandatory steps only and the values one-scalar letters and digits.
        await propertyCheck(
            count: 500, input: mandatoryFormat, alphanumericValue, Gen.bool, Gen.bool
        ) { format, value, rightToLeft, autocomplete in
            let mask = try Mask(
                format: format,
                options: SyntaxOptions(notations: notations, rightToLeft: rightToLeft)
            )
            let first = mask.apply(value, autocomplete: autocomplete)
            let second = mask.apply(first.formatted, autocomplete: autocomplete)
            #expect(second.formatted == first.formatted)
            #expect(second.extracted == first.extracted)
            #expect(second.complete == first.complete)
            #expect(second.dropped == "")
            #expect(second.affinity == first.formatted.count)
        }
    }

    @Test("the byte API and the String API agree, with one buffer reused throughout")
    func byteAndStringAgree() async {
        let buffer = ApplyBuffer(capacity: 16)
        await propertyCheck(
            count: 400, input: anyFormat.array(of: 1...3), unicodeValue, Gen<AffinityStrategy>.case, Gen.bool,
            Gen.bool
        ) { formats, value, strategy, rightToLeft, autocomplete in
            let mask = try makeMask(
                formats, strategy: strategy, rightToLeft: rightToLeft, autocomplete: autocomplete)
            #expect(snapshotOfByteAPI(mask, value, buffer: buffer) == snapshotOfStringAPI(mask, value))
        }
    }

    @Test("status is incomplete exactly when not complete, and lossy exactly when data was dropped")
    func statusFollowsCompleteAndDropped() async {
        let buffer = ApplyBuffer()
        await propertyCheck(
            count: 400, input: anyFormat, unicodeValue, Gen.bool
        ) { format, value, rightToLeft in
            let mask = try makeMask([format], rightToLeft: rightToLeft)
            let result = mask.primary.apply(value)
            #expect(result.complete == (result.status != .incomplete))
            #expect((result.status == .lossy) == (result.complete && !result.dropped.isEmpty))

            var bytes = value
            let counts = bytes.withUTF8 { mask.apply(utf8: $0, into: buffer).counts }
            #expect(counts.status == result.status)
            #expect((counts.droppedDataCharacters > 0) == !result.dropped.isEmpty)
        }
    }

    @Test("from ASCII values only letters, digits and notation characters count as dropped")
    func droppedIsData() async {
        let notationCharacters = Set(notations.flatMap(\.characterSet))
        await propertyCheck(count: 400, input: anyFormat, asciiValue, Gen.bool) {
            format, value, rightToLeft in
            let result = try makeMask([format], rightToLeft: rightToLeft).primary.apply(value)
            for character in result.dropped {
                #expect(
                    character.isLetter || character.isNumber || notationCharacters.contains(character),
                    "\(character.debugDescription) dropped from \(value.debugDescription)")
            }
        }
    }

    @Test("the extracted value holds only characters of the value or of the format's {} blocks")
    func extractedComesFromValueOrFixed() async {
        await propertyCheck(count: 500, input: tokenFormat, unicodeValue, Gen.bool) {
            format, value, rightToLeft in
            let result = try makeMask([format], rightToLeft: rightToLeft).primary.apply(value)
            let fixed = fixedScalars(of: format)
            let valueScalars = Array(value.unicodeScalars)
            for scalar in Set(result.extracted.unicodeScalars) {
                #expect(
                    fixed.contains(scalar) || valueScalars.contains(scalar),
                    "\(scalar.escaped(asASCII: true))")
                if !fixed.contains(scalar) {
                    // Each character of the value is taken at most once.
                    let taken = result.extracted.unicodeScalars.count { $0 == scalar }
                    #expect(taken <= valueScalars.count { $0 == scalar })
                }
            }
        }
    }

    @Test("the ASCII fast path gives what the walk by grapheme clusters gives")
    func fastPathMatchesClusterWalk() async {
        // Swapping K, ; and ` for their canonical twins (KELVIN SIGN, GREEK QUESTION MARK, GREEK
        // VARIA) sends the value down the cluster walk; each twin is in the same classes, equal to
        // the same literals, and as much data, so only the characters written may differ.
        await propertyCheck(count: 400, input: twinFormat, printableASCIIValue, Gen.bool, Gen.bool) {
            format, value, rightToLeft, autocomplete in
            let mask = try Mask(
                format: format,
                options: SyntaxOptions(notations: notations, rightToLeft: rightToLeft)
            )
            let twin = String(value.map { canonicalTwins[$0] ?? $0 })
            let untwin: (String) -> [Unicode.Scalar] = { text in
                text.unicodeScalars.map { scalar in
                    canonicalTwins.first { $0.value.unicodeScalars.first == scalar }?.key.unicodeScalars.first
                        ?? scalar
                }
            }
            let plain = mask.apply(value, autocomplete: autocomplete)
            let general = mask.apply(twin, autocomplete: autocomplete)
            #expect(untwin(general.formatted) == Array(plain.formatted.unicodeScalars))
            #expect(untwin(general.extracted) == Array(plain.extracted.unicodeScalars))
            #expect(untwin(general.dropped) == Array(plain.dropped.unicodeScalars))
            #expect(general.complete == plain.complete)
            #expect(general.affinity == plain.affinity)
            #expect(general.status == plain.status)
            #expect(general.tailPlaceholder == plain.tailPlaceholder)
        }
    }

    @Test("a value ten times longer gives an output at most ten times longer plus the format")
    func linearOutput() async {
        // Every step of the walk consumes a character of the value or moves past a step of the
        // format, so the output and the affinity are bounded by the two lengths added.
        await propertyCheck(count: 200, input: anyFormat, unicodeValue, Gen.bool) {
            format, value, rightToLeft in
            let mask = try Mask(
                format: format,
                options: SyntaxOptions(notations: notations, rightToLeft: rightToLeft)
            )
            let formatSize = format.unicodeScalars.count
            for repetitions in [1, 10] {
                let input = String(repeating: value, count: repetitions)
                let size = input.unicodeScalars.count
                let result = mask.apply(input)
                #expect(result.formatted.unicodeScalars.count <= size + formatSize)
                #expect(result.extracted.unicodeScalars.count <= size + formatSize)
                #expect(result.dropped.unicodeScalars.count <= size)
                #expect(result.affinity <= size)
                #expect(result.affinity >= -(size + formatSize))
            }
        }
    }
}
