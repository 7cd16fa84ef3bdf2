import MaskEngine
import Testing

@Suite("Unicode digits and letters")
struct UnicodeClassTests {
    @Test(
        "Unicode decimal digits fill 0",
        arguments: [
            ("٥٥٥١٢٣٤", "٥٥٥-١٢٣٤"),  // Arabic-Indic
            ("۵۵۵۱۲۳۴", "۵۵۵-۱۲۳۴"),  // Extended Arabic-Indic (Persian)
            ("१२३४५६७", "१२३-४५६७"),  // Devanagari
            ("１２３４５６７", "１２３-４５６７"),  // fullwidth
        ])
    func decimalDigits(_ value: String, _ formatted: String) throws {
        let result = try Mask(format: "[000]-[0000]").apply(value)
        #expect(result.formatted == formatted)
        #expect(result.extracted == value)
        #expect(result.status == .complete)
    }

    @Test("letters with combining marks fill A, written composed or decomposed")
    func combiningMarks() throws {
        let mask = try Mask(format: "[AAAA]")
        for value in ["José", "Jose\u{301}"] {
            let result = mask.apply(value)
            #expect(result.formatted == "José")
            #expect(result.status == .complete)
        }
        #expect(try Mask(format: "[A…]").apply("Ångström").formatted == "Ångström")
    }

    @Test("a Devanagari syllable with its vowel sign is one letter")
    func devanagariSyllables() throws {
        // न ि त ि न: three grapheme clusters.
        #expect(try Mask(format: "[AAA]").apply("नितिन").status == .complete)
        #expect(try Mask(format: "[AAAA]").apply("नितिन").status == .incomplete)
    }

    @Test("superscript two fits _ but not 0")
    func superscriptTwo() throws {
        #expect(try Mask(format: "[____]").apply("²³¹½").status == .complete)
        let digits = try Mask(format: "[0000]").apply("²³¹½")
        #expect(digits.formatted == "")
        #expect(digits.dropped == "²³¹½")
        #expect(digits.status == .incomplete)
        #expect(try Mask(format: "[…]").apply("١a²").formatted == "١a²")
    }

    @Test("a keycap digit is not a digit: every scalar of a cluster must belong to the set")
    func keycap() throws {
        let keycapOne = "1\u{FE0F}\u{20E3}"
        #expect(try Mask(format: "[0]").apply(keycapOne).status == .incomplete)
        #expect(try Mask(format: "[0]").apply("1\u{301}").status == .incomplete)
        // The variation selector and the enclosing keycap are marks, so the cluster is alphanumeric.
        #expect(try Mask(format: "[_]").apply(keycapOne).formatted == keycapOne)
    }

    @Test("emoji are skipped and are not data")
    func emoji() throws {
        let result = try Mask(format: "[A…]").apply("👨‍👩‍👧abc👍🏽")
        #expect(result.formatted == "abc")
        #expect(result.dropped == "")
        #expect(result.status == .complete)
    }

    @Test("CR LF is one character")
    func crlf() throws {
        let result = try Mask(format: "[00]-[00]").apply("12\r\n34")
        #expect(result.formatted == "12-34")
        #expect(result.status == .complete)
    }
}

@Suite("Canonical equivalence of free and fixed characters")
struct CanonicalEquivalenceTests {
    @Test("a decomposed é in the value matches a composed é in the format")
    func decomposedValue() throws {
        let result = try Mask(format: "café [00]").apply("cafe\u{301} 12")
        #expect(result.formatted == "café 12")
        #expect(result.extracted == "12")
        #expect(result.affinity == 7)
    }

    @Test("a composed é in the value matches a decomposed é in the format")
    func decomposedFormat() throws {
        let result = try Mask(format: "cafe\u{301} [00]").apply("café 12")
        #expect(result.formatted == "café 12")
        #expect(result.affinity == 7)
    }

    @Test("a fixed é matches its decomposed form and is extracted")
    func fixedCharacter() throws {
        let result = try Mask(format: "{café}[00]").apply("cafe\u{301} 12")
        #expect(result.extracted == "café12")
        #expect(result.affinity == 4 - 1 + 2)
    }
}

@Suite("Values whose characters merge")
struct MergingCharacterTests {
    @Test("split Hangul jamo around a digit are separate characters")
    func jamoAroundDigit() throws {
        let value = "\u{1100}1\u{1161}"
        let letters = try Mask(format: "[A0A]").apply(value)
        #expect(scalarCodes(letters.formatted) == ["1100", "31", "1161"])
        #expect(letters.status == .complete)

        let digits = try Mask(format: "[000]").apply(value)
        #expect(digits.formatted == "1")
        #expect(digits.extracted == "1")
        #expect(digits.status == .incomplete)
    }

    @Test("jamo that merge once the digit between them is dropped")
    func jamoMergeInOutput() throws {
        for rightToLeft in [false, true] {
            let result = try Mask(format: "[AA]", options: SyntaxOptions(rightToLeft: rightToLeft)).apply(
                "\u{1100}1\u{1161}")
            #expect(scalarCodes(result.formatted) == ["1100", "1161"])
            #expect(result.formatted.count == 1)
            #expect(result.dropped == "1")
            #expect(result.status == .lossy)
        }
    }

    @Test("a leading combining mark after a format character merges with it")
    func leadingMarkAfterLiteral() throws {
        let result = try Mask(format: "x[A]").apply("\u{301}")
        #expect(scalarCodes(result.formatted) == ["78", "301"])
        #expect(result.formatted.count == 1)
        #expect(scalarCodes(result.extracted) == ["301"])
        #expect(result.complete)
    }

    @Test("a leading combining mark before digits is left out of the digits")
    func leadingMarkBeforeDigits() throws {
        let result = try Mask(format: "[00]").apply("\u{301}12")
        #expect(result.formatted == "12")
        #expect(result.extracted == "12")
        #expect(result.complete)
    }

    @Test("right to left, a leading mark lands on the first digit, and that loss is reported")
    func leadingMarkRightToLeft() throws {
        // Reversed by characters, "\u{301}12" walks as "2", "1\u{301}": the mark now sits on
        // the 1, which is no longer a digit.
        let result = try Mask(format: "[00]", options: SyntaxOptions(rightToLeft: true)).apply("\u{301}12")
        #expect(result.formatted == "2")
        #expect(scalarCodes(result.dropped) == ["31", "301"])
        #expect(result.status == .incomplete)
    }

    @Test("right to left, jamo split by digits are kept out of the amount")
    func rightToLeftJamo() throws {
        let result = try Mask(format: "[00]-[00]", options: SyntaxOptions(rightToLeft: true)).apply(
            "\u{1100}\u{1161}12\u{11A8}34")
        #expect(result.formatted == "12-34")
        #expect(result.extracted == "1234")
        #expect(result.complete)
        #expect(scalarCodes(result.dropped).sorted() == ["1100", "1161", "11A8"])
    }

    @Test("only combining marks, right to left, gives an empty incomplete value")
    func onlyMarks() throws {
        let result = try Mask(format: "[00]-[00]", options: SyntaxOptions(rightToLeft: true)).apply(
            "\u{301}\u{301}")
        #expect(result.formatted == "")
        #expect(result.status == .incomplete)
    }
}
