import MaskEngine
import Testing

@Suite("Format errors")
struct FormatErrorTests {
    /// The error a format fails with, or nil when it compiles.
    func error(of format: String, notations: [Notation] = []) -> FormatError? {
        do {
            _ = try Mask(format: format, options: SyntaxOptions(notations: notations))
            return nil
        } catch {
            return error
        }
    }

    @Test("an unknown character inside [] names the character and its offset")
    func unknownSlotCharacter() {
        let error = error(of: "+1 ([000]) [0x0]-[0000]")
        #expect(error?.reason == .unknownSlotCharacter("x"))
        #expect(error?.offset == 13)
        #expect(error?.description == "unexpected 'x' inside [] at offset 13")
    }

    @Test("the same character is accepted once a notation declares it")
    func declaredNotationIsKnown() {
        #expect(error(of: "[0x]") != nil)
        #expect(
            error(of: "[0x]", notations: [Notation(character: "x", characterSet: "xX", isOptional: false)])
                == nil)
    }

    @Test("offsets count characters, not bytes or scalars")
    func offsetsCountCharacters() {
        #expect(error(of: "👍 [0x]")?.offset == 4)
        #expect(error(of: "e\u{301}[0x]")?.offset == 3)
        #expect(error(of: "€[0x]")?.description == "unexpected 'x' inside [] at offset 3")
    }

    @Test("an opening bracket inside [] is an error at the bracket")
    func openerInsideSlots() {
        let error = error(of: "[00]-[[00]]")
        #expect(error?.reason == .unexpectedBracket("[", block: .slots))
        #expect(error?.offset == 6)
        #expect(error?.description == "unexpected '[' inside [] at offset 6")
    }

    @Test("an opening bracket inside {} is an error at the bracket")
    func openerInsideFixed() {
        #expect(error(of: "{[00]}")?.description == "unexpected '[' inside {} at offset 1")
        #expect(error(of: "{a{b}}")?.description == "unexpected '{' inside {} at offset 2")
        #expect(error(of: "[0{0}]")?.description == "unexpected '{' inside [] at offset 2")
    }

    @Test("] inside {} does not close it")
    func squareCloserInsideFixed() {
        let error = error(of: "[00]-{00]")
        #expect(error?.reason == .unexpectedBracket("]", block: .fixed))
        #expect(error?.offset == 8)
        #expect(error?.description == "unexpected ']' inside {} at offset 8")
    }

    @Test("} inside [] does not close it")
    func curlyCloserInsideSlots() {
        #expect(error(of: "[0}")?.description == "unexpected '}' inside [] at offset 2")
    }

    @Test("a closer outside any block is an error")
    func strayCloser() {
        let error = error(of: "[00]-]")
        #expect(error?.reason == .unexpectedBracket("]", block: nil))
        #expect(error?.description == "unexpected ']' outside any block at offset 5")
        #expect(self.error(of: "}}")?.description == "unexpected '}' outside any block at offset 0")
    }

    @Test("a block still open at the end is reported at its opener")
    func unclosedBlock() {
        let slots = error(of: "[00]-[00")
        #expect(slots?.reason == .unclosedBlock(.slots))
        #expect(slots?.description == "'[' at offset 5 is never closed")
        #expect(error(of: "[00]{.}[00]{.}[0000")?.description == "'[' at offset 14 is never closed")
        #expect(error(of: #"{1\"#)?.description == "'{' at offset 0 is never closed")
    }

    @Test("a backslash inside [] is an error")
    func escapeInsideSlots() {
        let error = error(of: #"[0\0]"#)
        #expect(error?.reason == .escapeInsideSlots)
        #expect(error?.description == #"unexpected '\' inside [] at offset 2"#)
    }

    @Test("the first error in the format is the one reported")
    func firstErrorWins() {
        #expect(error(of: "[0x]]")?.description == "unexpected 'x' inside [] at offset 2")
        #expect(error(of: "]][0x]")?.description == "unexpected ']' outside any block at offset 0")
    }

    @Test("escaped brackets are never errors")
    func escapedBrackets() {
        #expect(error(of: #"\]\[\}\{[00]"#) == nil)
        #expect(error(of: #"{\{\[\]}"#) == nil)
    }

    @Test("an error in the primary format names it")
    func affinePrimaryError() {
        let error = #expect(throws: AffineFormatError.self) {
            try AffineMask(format: "[0b]", affineFormats: ["[00]"])
        }
        #expect(error?.affineIndex == nil)
        #expect(error?.format == "[0b]")
        #expect(error?.error.offset == 2)
        #expect(error?.description == "format: unexpected 'b' inside [] at offset 2")
    }

    @Test("an error in an alternative names its index")
    func affineAlternativeError() {
        let error = #expect(throws: AffineFormatError.self) {
            try AffineMask(format: "[00]", affineFormats: ["[00]-[00]", "+[0] ([000", "[0b]"])
        }
        #expect(error?.affineIndex == 1)
        #expect(error?.format == "+[0] ([000")
        #expect(error?.description == "affineFormats[1]: '[' at offset 6 is never closed")
    }
}
