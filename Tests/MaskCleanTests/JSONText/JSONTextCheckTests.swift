import Testing

@testable import MaskClean

/// What keeps a JSON record's text from being written out as it came: bytes that are not UTF-8
/// and escapes of a lone surrogate. Each must be found at its offset, and nothing else flagged,
/// including text long enough for the eight-byte fast path.
@Suite("JSON text check")
struct JSONTextCheckTests {
    func problem(_ bytes: [UInt8]) -> (offset: Int, reason: String)? {
        bytes.withUnsafeBufferPointer { JSONTextCheck.firstProblem($0) }
    }

    func problem(_ text: String) -> (offset: Int, reason: String)? { problem(Array(text.utf8)) }

    static let prefix = Array(#"{"id":12345,"name":"Ana María ""#.utf8)

    @Test("valid UTF-8 and escapes pass, surrogate pairs and escaped backslashes included")
    func valid() {
        #expect(problem(#"{"id":1,"name":"Zoë 😀 東京","note":"line\nbreak \"quoted\" \\ \/"}"#) == nil)
        #expect(problem(#"{"emoji":"\ud83d\ude00","text":"\u00e9"}"#) == nil, "a pair")
        #expect(problem(#"{"path":"C:\\ud800"}"#) == nil, "an escaped backslash, then text")
        #expect(problem("") == nil)
    }

    @Test(
        "bytes that are not UTF-8 are found at their offset",
        arguments: [
            [0xC0, 0xAF],  // overlong '/'
            [0xED, 0xA0, 0x80],  // an encoded surrogate
            [0xE9],  // Latin-1 é
            [0xE2, 0x82],  // truncated €
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0x80],  // a continuation byte alone
        ] as [[UInt8]])
    func invalidUTF8(bad: [UInt8]) {
        let found = problem(Self.prefix + bad + Array("\"}".utf8))
        #expect(found?.offset == Self.prefix.count)
        #expect(found?.reason == "invalid UTF-8")
    }

    @Test("a lone surrogate escape is found where its escape begins")
    func loneSurrogates() {
        let high = "a lone surrogate escape (\\uD800–\\uDBFF)"
        let low = "a lone surrogate escape (\\uDC00–\\uDFFF)"
        let cases: [(String, Int, String)] = [
            (#"{"a":"\ud800"}"#, 6, high),
            (#"{"a":"\ud800x\udc00"}"#, 6, high),
            (#"{"a":"\ud800\ud800\udc00"}"#, 6, high),
            (#"{"a":"\udc00"}"#, 6, low),
            (#"{"long key, past eight bytes":"xx\uDFFF"}"#, 33, low),
        ]
        for (text, offset, reason) in cases {
            let found = problem(text)
            #expect(found?.offset == offset, "\(text)")
            #expect(found?.reason == reason, "\(text)")
        }
    }
}
