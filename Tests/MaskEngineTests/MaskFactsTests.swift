import MaskEngine
import Testing

@Suite("Facts about a format")
struct MaskFactsTests {
    @Test("phone: every character is mandatory")
    func phone() throws {
        let mask = try Mask(format: "+1 ([000]) [000]-[0000]")
        #expect(mask.format == "+1 ([000]) [000]-[0000]")
        #expect(mask.placeholder == "+1 (000) 000-0000")
        #expect(mask.minimumTextLength == 17)
        #expect(mask.maximumTextLength == 17)
        #expect(mask.minimumValueLength == 10)
        #expect(mask.maximumValueLength == 10)
    }

    @Test("date: fixed slashes count in the value, the optional century only in the maximum")
    func date() throws {
        let mask = try Mask(format: "[00]{/}[00]{/}[9900]")
        #expect(mask.placeholder == "00/00/0000")
        #expect(mask.minimumTextLength == 8)
        #expect(mask.maximumTextLength == 10)
        #expect(mask.minimumValueLength == 8)
        #expect(mask.maximumValueLength == 10)
    }

    @Test("a free separator counts in the text but not in the value")
    func freeVersusFixed() throws {
        let free = try Mask(format: "[00]/[00]")
        let fixed = try Mask(format: "[00]{/}[00]")
        #expect(free.minimumTextLength == fixed.minimumTextLength)
        #expect(free.minimumValueLength == 4)
        #expect(fixed.minimumValueLength == 5)
        #expect(free.maximumValueLength == 4)
        #expect(fixed.maximumValueLength == 5)
    }

    @Test("name: one mandatory letter and fifty-three optional alphanumerics")
    func name() throws {
        let mask = try Mask(format: "[A][" + String(repeating: "-", count: 53) + "]")
        #expect(mask.placeholder == "a" + String(repeating: "-", count: 53))
        #expect(mask.minimumTextLength == 1)
        #expect(mask.maximumTextLength == 54)
        #expect(mask.minimumValueLength == 1)
        #expect(mask.maximumValueLength == 54)
    }

    @Test("a custom notation shows as its own character")
    func currency() throws {
        let mask = try Mask(format: "[s][9999]", options: SyntaxOptions(notations: [currencySymbol]))
        #expect(mask.placeholder == "s0000")
        #expect(mask.minimumTextLength == 0)
        #expect(mask.maximumTextLength == 5)
        #expect(mask.minimumValueLength == 0)
        #expect(mask.maximumValueLength == 5)
    }

    @Test("an ellipsis makes the maximum lengths unbounded and ends the placeholder")
    func ellipsis() throws {
        let mask = try Mask(format: "[00…]")
        #expect(mask.placeholder == "00")
        #expect(mask.minimumTextLength == 2)
        #expect(mask.maximumTextLength == nil)
        #expect(mask.minimumValueLength == 2)
        #expect(mask.maximumValueLength == nil)

        let unreachable = try Mask(format: "[0…][AAA]")
        #expect(unreachable.placeholder == "0")
        #expect(unreachable.maximumTextLength == nil)
        #expect(unreachable.minimumTextLength == 1)
    }

    @Test("a right-to-left format reads its placeholder in the written order")
    func rightToLeft() throws {
        let mask = try Mask(format: "[999],[999],[000]", options: SyntaxOptions(rightToLeft: true))
        #expect(mask.placeholder == "000,000,000")
        #expect(mask.minimumTextLength == 5)
        #expect(mask.maximumTextLength == 11)
        #expect(mask.minimumValueLength == 3)
        #expect(mask.maximumValueLength == 9)
    }

    @Test("an affine mask's primary is the first format")
    func affinePrimary() throws {
        let mask = try AffineMask(format: "[00]-[00]", affineFormats: ["[0000]", "[000]"])
        #expect(mask.primary.format == "[00]-[00]")
        #expect(mask.masks.map(\.format) == ["[00]-[00]", "[0000]", "[000]"])
    }
}
