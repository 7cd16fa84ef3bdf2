import MaskEngine
import Testing

@testable import MaskClean

/// The pieces of CellMasker that every cell goes through: the status column's text, `trim`'s
/// white space (Unicode White_Space, docs/spec.md) and the UTF-8 check.
@Suite("Cell masker")
struct CellMaskerTests {
    func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { Array(UnicodeWhiteSpace.trimmed($0)) }
    }

    func trimmed(_ text: String) -> String {
        String(decoding: trimmed(Array(text.utf8)), as: UTF8.self)
    }

    @Test("the status column says each status by its name")
    func statusTexts() {
        for status in CellStatus.allCases {
            let text = String(decoding: CellMasker.statusText(status), as: UTF8.self)
            #expect(text == status.rawValue)
        }
    }

    @Test("trim removes exactly Unicode's White_Space characters, at either end")
    func whiteSpaceIsUnicodes() {
        var trimmedCount = 0
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let character = String(Character(scalar))
            let isWhiteSpace = scalar.properties.isWhitespace
            #expect(
                (trimmed(character + "x") == "x") == isWhiteSpace, "U+\(String(value, radix: 16)) before")
            #expect(
                (trimmed("x" + character) == "x") == isWhiteSpace, "U+\(String(value, radix: 16)) after")
            if isWhiteSpace { trimmedCount += 1 }
        }
        #expect(trimmedCount == 25, "the 25 White_Space characters of Unicode 15")
    }

    @Test("trim keeps what is inside, and a cell of white space becomes empty")
    func trimShapes() {
        #expect(trimmed(" \t\u{00A0}(555) 123-4567\u{3000}\r\n") == "(555) 123-4567")
        #expect(trimmed("555 123\u{2009}4567") == "555 123\u{2009}4567", "inner white space stays")
        #expect(trimmed(" \u{2028}\u{0085} ").isEmpty)
        #expect(trimmed("").isEmpty)
        // Look-alikes that are not White_Space stay.
        #expect(trimmed("\u{200B}555\u{FEFF}") == "\u{200B}555\u{FEFF}")
        #expect(trimmed("\u{180E}555\u{2060}") == "\u{180E}555\u{2060}")
    }

    @Test("trim leaves invalid and cut UTF-8 at the ends alone")
    func trimInvalidBytes() {
        #expect(trimmed([0xE2, 0x80] + Array("555".utf8)) == [0xE2, 0x80] + Array("555".utf8))
        #expect(trimmed(Array("555".utf8) + [0x80, 0xA0]) == Array("555".utf8) + [0x80, 0xA0])
        #expect(trimmed([0x20, 0xFF, 0x20]) == [0xFF])
        #expect(trimmed([0xC2]) == [0xC2])
        #expect(trimmed([0xA0]) == [0xA0], "half of U+00A0 is not white space")
    }

    @Test("isValidUTF8 accepts UTF-8 and nothing else")
    func validUTF8() {
        func valid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(\.isValidUTF8) }
        #expect(valid([]))
        #expect(valid(Array("5551234567".utf8)))
        #expect(valid(Array("Zoë Ångström €5 😀".utf8)))
        #expect(!valid([0xFF]))
        #expect(!valid(Array("caf".utf8) + [0xE9]), "Latin-1")
        #expect(!valid([0xC0, 0x80]), "an overlong NUL")
        #expect(!valid([0xED, 0xA0, 0x80]), "a surrogate")
        #expect(!valid([0xE2, 0x82]), "a cut character")
        #expect(!valid([0xF4, 0x90, 0x80, 0x80]), "past U+10FFFF")
    }

    /// `isASCII` reads eight bytes (or four) at a time, its last word ending with the value: a
    /// high byte must be found wherever it is, at every length.
    @Test("a byte of 0x80 or above is found at every place of values of every length")
    func asciiAtEveryPlace() {
        func ascii(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(\.isASCII) }
        for length in 0...25 {
            let plain = (0..<length).map { UInt8(0x30 + $0 % 0x50) }
            #expect(ascii(plain), "length \(length)")
            for place in 0..<length {
                for byte: UInt8 in [0x80, 0xC3, 0xFF] {
                    var value = plain
                    value[place] = byte
                    #expect(!ascii(value), "\(byte) at \(place) of \(length)")
                    #expect(!value.withUnsafeBufferPointer(\.isValidUTF8), "\(byte) at \(place) of \(length)")
                }
            }
        }
    }
}
