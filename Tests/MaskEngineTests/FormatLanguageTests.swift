import MaskEngine
import Testing

@Suite("Mixed slot blocks are split by kind and sorted")
struct BlockSplittingTests {
    @Test(
        "[000AA] behaves as [000][AA]",
        arguments: ["123ab", "12ab", "123a", "ab123", "1234abc", "1a2b3c"])
    func digitsThenLetters(_ value: String) throws {
        let mixed = try Mask(format: "[000AA]")
        let split = try Mask(format: "[000][AA]")
        #expect(mixed.apply(value) == split.apply(value))
        #expect(mixed.placeholder == "000aa")
    }

    @Test("[000AA] fills the digits first, then the letters")
    func mixedBlockResult() throws {
        let result = try Mask(format: "[000AA]").apply("123ab")
        #expect(result.formatted == "123ab")
        #expect(result.status == .complete)
    }

    @Test(
        "[0909] behaves as [0099]: mandatory slots come first",
        arguments: ["1", "12", "123", "1234", "12345", "1a2"])
    func mandatoryFirst(_ value: String) throws {
        let written = try Mask(format: "[0909]")
        let sorted = try Mask(format: "[0099]")
        #expect(written.apply(value) == sorted.apply(value))
    }

    @Test("two digits complete [0909], which they would not if the order were kept")
    func twoDigitsComplete() throws {
        let result = try Mask(format: "[0909]").apply("12")
        #expect(result.complete)
        #expect(result.tailPlaceholder == "00")
    }

    @Test("[_-_-] puts both mandatory alphanumerics first")
    func alphanumericsSorted() throws {
        let mask = try Mask(format: "[_-_-]")
        #expect(mask.minimumTextLength == 2)
        #expect(mask.apply("a1").complete)
    }

    @Test("a custom notation character sorts by code point with its block")
    func notationSortsByCodePoint() throws {
        // "s" (U+0073) sorts after "0" (U+0030): [s0s0] is [00ss].
        let optionalSymbols = try Mask(format: "[s0s0]", options: SyntaxOptions(notations: [currencySymbol]))
        #expect(optionalSymbols.placeholder == "00ss")
        #expect(optionalSymbols.apply("12$").formatted == "12$")
        #expect(optionalSymbols.apply("12$").status == .complete)

        let symbolFirst = optionalSymbols.apply("$12")
        #expect(symbolFirst.formatted == "12")
        #expect(symbolFirst.dropped == "$")

        let mandatory = Notation(character: "s", characterSet: "$€", isOptional: false)
        let mandatorySymbol = try Mask(format: "[0s00]", options: SyntaxOptions(notations: [mandatory]))
        #expect(mandatorySymbol.placeholder == "000s")
        #expect(mandatorySymbol.apply("123$").status == .complete)
    }
}

@Suite("Ellipsis")
struct EllipsisTests {
    @Test("[0…] takes any number of digits and drops letters as loss")
    func digitsForever() throws {
        let result = try Mask(format: "[0…]").apply("12ab34")
        #expect(result.formatted == "1234")
        #expect(result.dropped == "ab")
        #expect(result.status == .lossy)
    }

    @Test("[A…] takes a whole sentence's letters; spaces are not loss")
    func lettersForever() throws {
        let result = try Mask(format: "[A…]").apply("Hello World")
        #expect(result.formatted == "HelloWorld")
        #expect(result.status == .complete)
    }

    @Test("[…] alone takes letters and numbers")
    func wildcard() throws {
        let result = try Mask(format: "[…]").apply("x²y-7")
        #expect(result.formatted == "x²y7")
        #expect(result.status == .complete)
    }

    @Test("an ellipsis inherits the type before it")
    func inheritsBuiltInType() throws {
        let digitsThenLetters = try Mask(format: "[0A…]")
        let result = digitsThenLetters.apply("1ab2c")
        #expect(result.formatted == "1abc")
        #expect(result.dropped == "2")
    }

    @Test("an ellipsis inherits a custom notation's set")
    func inheritsNotationType() throws {
        let symbols = try Mask(format: "[s…]", options: SyntaxOptions(notations: [currencySymbol]))
        let result = symbols.apply("$€$x")
        #expect(result.formatted == "$€$")
        #expect(result.dropped == "x")
        #expect(result.status == .lossy)

        let digitThenSymbols = try Mask(format: "[0s…]", options: SyntaxOptions(notations: [currencySymbol]))
        #expect(digitThenSymbols.apply("1$€€").formatted == "1$€€")
    }

    @Test("slots after an ellipsis are never reached")
    func ellipsisEndsTheFormat() throws {
        let result = try Mask(format: "[0…][AAA]").apply("12abc")
        #expect(result.formatted == "12")
        #expect(result.dropped == "abc")
        #expect(result.complete)
    }

    @Test("mandatory slots before an ellipsis must be filled")
    func mandatoryBeforeEllipsis() throws {
        let mask = try Mask(format: "[00…]")
        #expect(mask.apply("1").status == .incomplete)
        #expect(mask.apply("12").status == .complete)
        #expect(mask.apply("123456").status == .complete)
        #expect(try Mask(format: "[_…]").apply("").status == .incomplete)
        #expect(try Mask(format: "[9…]").apply("").status == .complete)
    }
}

@Suite("Empty blocks")
struct EmptyBlockTests {
    @Test("[] and {} add nothing to a format")
    func emptyBlocksVanish() throws {
        let withEmpty = try Mask(format: "[]{}[00]{}-[]")
        let without = try Mask(format: "[00]-")
        #expect(withEmpty.placeholder == "00-")
        for value in ["12", "1", "123", ""] {
            #expect(withEmpty.apply(value) == without.apply(value))
        }
    }

    @Test("a format of empty blocks drops every data character")
    func onlyEmptyBlocks() throws {
        let result = try Mask(format: "[]{}").apply("x1")
        #expect(result.formatted == "")
        #expect(result.dropped == "x1")
        #expect(result.status == .lossy)
    }
}

@Suite("Escapes")
struct EscapeTests {
    @Test("escaped square brackets are free characters")
    func escapedBrackets() throws {
        let result = try Mask(format: #"\[[00]\]"#).apply("12")
        #expect(result.formatted == "[12]")
        #expect(result.extracted == "12")
    }

    @Test("an escaped bracket inside {} is part of the extracted value")
    func escapedBracketInFixedBlock() throws {
        let mask = try Mask(format: #"\[[00]{\]}"#)
        #expect(mask.apply("12").formatted == "[12]")
        #expect(mask.apply("12").extracted == "12]")
        #expect(mask.apply("[12]").extracted == "12]")
    }

    @Test("an escaped closing brace inside {} is a fixed character")
    func escapedBraceInFixedBlock() throws {
        let result = try Mask(format: #"{\}}[00]"#).apply("12")
        #expect(result.formatted == "}12")
        #expect(result.extracted == "}12")
    }

    @Test(#"\\ is one literal backslash and the [ after it still opens a block"#)
    func doubleBackslash() throws {
        let mask = try Mask(format: #"[00]\\[00]"#)
        #expect(mask.placeholder == #"00\00"#)
        let result = mask.apply("1234")
        #expect(result.formatted == #"12\34"#)
        #expect(result.extracted == "1234")
        #expect(mask.apply(#"12\34"#).affinity == 5)
    }

    @Test(#"\\ before {} escapes nothing either"#)
    func doubleBackslashBeforeFixed() throws {
        let result = try Mask(format: #"[0000]\\{\[}"#).apply("1234")
        #expect(result.formatted == #"1234\["#)
        #expect(result.extracted == "1234[")
    }

    @Test(#"a backslash inside {} can be fixed with \\"#)
    func fixedBackslash() throws {
        let result = try Mask(format: #"{\\}[00]"#).apply("12")
        #expect(result.extracted == #"\12"#)
    }

    @Test("a trailing backslash is ignored")
    func trailingBackslash() throws {
        let mask = try Mask(format: #"[00]\"#)
        #expect(mask.placeholder == "00")
        #expect(mask.apply("12").formatted == "12")
        #expect(mask.maximumTextLength == 2)
    }

    @Test(#"an escaped backslash at the end is kept, then a lone trailing one is ignored"#)
    func threeTrailingBackslashes() throws {
        let mask = try Mask(format: #"[00]\\\"#)
        #expect(mask.placeholder == #"00\"#)
        #expect(mask.apply("12").formatted == #"12\"#)
    }
}

@Suite("Custom notations")
struct NotationTests {
    @Test("a notation reusing a built-in slot character does not replace it")
    func builtInWins() throws {
        let zeroAsX = Notation(character: "0", characterSet: "x", isOptional: false)
        let mask = try Mask(format: "[0]", options: SyntaxOptions(notations: [zeroAsX]))
        #expect(mask.apply("5").status == .complete)
        #expect(mask.apply("x").status == .incomplete)
        #expect(mask.placeholder == "0")
    }

    @Test("an unused notation's characters are not data when dropped")
    func shadowedNotationIsNotData() throws {
        let nineAsDollar = Notation(character: "9", characterSet: "$", isOptional: false)
        let mask = try Mask(format: "[99]", options: SyntaxOptions(notations: [nineAsDollar]))
        let result = mask.apply("1$")
        #expect(result.formatted == "1")
        #expect(result.dropped == "")
        #expect(result.status == .complete)
        #expect(mask.minimumTextLength == 0)
    }

    @Test("a column notation replaces the spec-wide one with the same character")
    func columnReplacesSpecWide() throws {
        let euroOnly = Notation(character: "s", characterSet: "€", isOptional: false)
        let merged = try Notation.merged(specWide: [currencySymbol, hexDigit], column: [euroOnly])
        #expect(merged == [euroOnly, hexDigit])

        let specWideOnly = try Mask(format: "[s][00]", options: SyntaxOptions(notations: [currencySymbol]))
        let columnWins = try Mask(format: "[s][00]", options: SyntaxOptions(notations: merged))
        #expect(specWideOnly.apply("12").status == .complete)
        #expect(columnWins.apply("12").status == .incomplete)
        #expect(columnWins.apply("€12").formatted == "€12")
        #expect(columnWins.apply("€12").status == .complete)
    }

    @Test("column notations with new characters are added after the spec-wide ones")
    func columnAdds() throws {
        let merged = try Notation.merged(specWide: [currencySymbol], column: [hexDigit, dateSeparator])
        #expect(merged == [currencySymbol, hexDigit, dateSeparator])
        #expect(try Notation.merged(specWide: [], column: []) == [])
    }

    @Test("a character declared twice in the column list is an error")
    func duplicateInColumn() {
        let error = #expect(throws: NotationError.self) {
            try Notation.merged(
                specWide: [],
                column: [
                    currencySymbol, hexDigit, Notation(character: "s", characterSet: "£", isOptional: true),
                ])
        }
        #expect(error?.character == "s")
        #expect(error?.firstIndex == 0)
        #expect(error?.secondIndex == 2)
        #expect(error?.list == .column)
        #expect(error?.description == "notation 's' is declared twice (notations[0] and notations[2])")
    }

    @Test("a character declared twice in the spec-wide list is an error")
    func duplicateInSpecWide() {
        let error = #expect(throws: NotationError.self) {
            try Notation.merged(specWide: [hexDigit, hexDigit], column: [])
        }
        #expect(error?.list == .specWide)
        #expect(error?.firstIndex == 0)
        #expect(error?.secondIndex == 1)
    }

    @Test("an empty character set is allowed and never fills")
    func emptyCharacterSet() throws {
        let mandatory = try Mask(
            format: "[c]",
            options: SyntaxOptions(notations: [Notation(character: "c", characterSet: "", isOptional: false)])
        )
        #expect(mandatory.apply("x").status == .incomplete)
        let optional = try Mask(
            format: "[c]",
            options: SyntaxOptions(notations: [Notation(character: "c", characterSet: "", isOptional: true)]))
        #expect(optional.apply("x").formatted == "")
        #expect(optional.apply("x").status == .lossy)
    }
}
