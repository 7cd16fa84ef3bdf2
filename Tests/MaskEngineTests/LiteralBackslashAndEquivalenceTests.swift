import MaskEngine
import Testing

/// Two rules the engine once broke, and keeps now.
///
/// docs/mask-syntax.md (contract): "`\\` is one literal backslash and escapes nothing after it". A literal
/// backslash must therefore behave exactly like any other literal character in the same place,
/// whatever the direction. Right to left, the engine rebuilds the format the way the reference
/// does (text reversed, escapes moved by text replacement); next to a `{}` block that turns `\\`
/// into other characters (`{\\}` became two free `}`), so a format holding `\\` is reversed by its
/// compiled pieces instead. No conformance case has `\\` in a right-to-left format.
///
/// docs/mask-syntax.md (contract, and the reference's Swift `Character` comparison): a free or fixed
/// character consumes an *equal* input character, equality being canonical equivalence (a
/// decomposed `é` matches a composed one, and the engine's cluster walk does so). The ASCII fast
/// path compares bytes, so a format character whose canonical form is ASCII (U+212A KELVIN SIGN ≡
/// `K`, U+037E GREEK QUESTION MARK ≡ `;`, U+1FEF GREEK VARIA ≡ `` ` ``) is compiled with the ASCII
/// byte it is equivalent to.
@Suite("Literal backslashes right to left, and ASCII-equivalent format characters")
struct LiteralBackslashAndEquivalenceTests {
    /// Applies `format` right to left, and the same format with `stand-in` in place of the
    /// backslash, to values in which the backslash is replaced the same way.
    func compareWithStandIn(
        _ format: String, standIn: String, values: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let withBackslash = try Mask(format: format, options: SyntaxOptions(rightToLeft: true))
        let withStandIn = try Mask(
            format: format.replacing(#"\\"#, with: standIn), options: SyntaxOptions(rightToLeft: true))
        #expect(
            withBackslash.placeholder == withStandIn.placeholder.replacing(standIn, with: #"\"#),
            sourceLocation: sourceLocation)
        #expect(
            withBackslash.minimumValueLength == withStandIn.minimumValueLength, sourceLocation: sourceLocation
        )
        for value in values {
            let expected = withStandIn.apply(value.replacing(#"\"#, with: standIn))
            let actual = withBackslash.apply(value)
            #expect(
                actual.formatted == expected.formatted.replacing(standIn, with: #"\"#),
                "\(value.debugDescription)", sourceLocation: sourceLocation)
            #expect(
                actual.extracted == expected.extracted.replacing(standIn, with: #"\"#),
                "\(value.debugDescription)", sourceLocation: sourceLocation)
            #expect(
                actual.status == expected.status, "\(value.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test(#"right to left, {\\} is a fixed backslash, as {/} is a fixed slash"#)
    func fixedBackslashRightToLeft() throws {
        // Actual: placeholder "}}00"; "\12" gives "}}12", extracted "12".
        let mask = try Mask(format: #"{\\}[00]"#, options: SyntaxOptions(rightToLeft: true))
        #expect(mask.placeholder == #"\00"#)
        let result = mask.apply(#"\12"#)
        #expect(result.formatted == #"\12"#)
        #expect(result.extracted == #"\12"#)
        try compareWithStandIn(#"{\\}[00]"#, standIn: "/", values: ["12", #"\12"#, "1"])
    }

    @Test(#"right to left, a fixed backslash at the end stays a backslash"#)
    func trailingFixedBackslashRightToLeft() throws {
        // Actual: "12\" gives "12}}", extracted "12".
        let result = try Mask(format: #"[00]{\\}"#, options: SyntaxOptions(rightToLeft: true)).apply(#"12\"#)
        #expect(result.formatted == #"12\"#)
        #expect(result.extracted == #"12\"#)
    }

    @Test(#"right to left, a free \\ before {/} stays out of the extracted value"#)
    func freeBackslashRightToLeft() throws {
        // Actual: extracted "12\/34" and a minimum value length of 6; left to right it is "12/34" and 5.
        let mask = try Mask(format: #"[00]\\{/}[00]"#, options: SyntaxOptions(rightToLeft: true))
        #expect(mask.apply("1234").extracted == "12/34")
        #expect(mask.minimumValueLength == 5)
        try compareWithStandIn(#"[00]\\{/}[00]"#, standIn: "-", values: ["1234", #"12\/34"#])
    }

    @Test("a Kelvin sign in the format matches the letter K of a plain ASCII value")
    func kelvinSignMatchesASCII() throws {
        // Actual: "300 K" is lossy (the K is dropped, the Kelvin sign inserted), affinity 2.
        let temperature = try Mask(format: "[000] \u{212A}")
        let ascii = temperature.apply("300 K")
        #expect(ascii.dropped == "")
        #expect(ascii.status == .complete)
        #expect(ascii.affinity == 5)
        // With a no-break space after it the value takes the cluster walk, and the K is matched.
        let nonASCII = temperature.apply("300 K\u{A0}")
        #expect(nonASCII.status == .complete)
        #expect(ascii.status == nonASCII.status)
        #expect(ascii.affinity == nonASCII.affinity + 1)
    }

    @Test("a Greek question mark in the format matches a semicolon whatever else the value holds")
    func greekQuestionMarkMatchesASCII() throws {
        // Actual: affinity 2 for "12;34" (inserted and skipped), but the ; is consumed in "12;34٥".
        let pair = try Mask(format: "[00]\u{37E}[00]")
        #expect(pair.apply("12;34").affinity == 5)
        #expect(pair.apply("12;34٥").affinity == 5 - 1)
        let fixed = try Mask(format: "{\u{212A}}[00]")
        #expect(fixed.apply("K12").status == .complete)
        #expect(fixed.apply("K12").affinity == 3)
    }
}
