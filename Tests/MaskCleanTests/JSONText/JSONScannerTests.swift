import Foundation
import Testing

@testable import MaskClean

/// The tokenizer that lets untouched JSON values pass through as the bytes they were (docs/record-formats.md).
@Suite("JSON scanner")
struct JSONScannerTests {
    /// The text of a token's span.
    func text(_ token: JSONToken, in source: String) -> String {
        String(decoding: Array(source.utf8)[token.range], as: UTF8.self)
    }

    /// Scans one value of `source` and returns its token, or the error.
    func scan(_ source: String) -> Result<JSONToken, JSONSyntaxError> {
        withBytes(source) { bytes in
            var scanner = JSONScanner(bytes)
            do throws(JSONSyntaxError) {
                return .success(try scanner.scanValue())
            } catch {
                return .failure(error)
            }
        }
    }

    func error(_ source: String) -> JSONSyntaxError? {
        if case .failure(let error) = scan(source) { return error }
        return nil
    }

    // MARK: Spans

    @Test("each value's span is exactly its bytes, leading blanks skipped")
    func spans() throws {
        let cases: [(String, JSONKind, String)] = [
            (" \t\r\n\"a\\\"b\" ", .string, "\"a\\\"b\""),
            ("12345678901234567890123,", .number, "12345678901234567890123"),
            ("-0.10]", .number, "-0.10"),
            ("1e400}", .number, "1e400"),
            ("6.02E+23 ", .number, "6.02E+23"),
            ("true,", .bool, "true"),
            ("false", .bool, "false"),
            ("null ", .null, "null"),
            (
                "{\"a\": [1, {\"b\": \"}\"}], \"c\": {}} tail", .object,
                "{\"a\": [1, {\"b\": \"}\"}], \"c\": {}}"
            ),
            ("[[], [[]], \"]\"],", .array, "[[], [[]], \"]\"]"),
        ]
        for (source, kind, expected) in cases {
            let token = try scan(source).get()
            #expect(token.kind == kind, "\(source)")
            #expect(text(token, in: source) == expected, "\(source)")
        }
        #expect(try scan(#""plain""#).get().hasEscapes == false)
        #expect(try scan(#""esc\n""#).get().hasEscapes == true)
    }

    @Test("scanObject hands over each key and value span, in order")
    func objectMembers() throws {
        let source =
            #"{"id": 12345678901234567890123, "phone" : "555", "nested": {"a": [1, 2]}, "k\"ey": null}"#
        var members: [(String, String, JSONKind)] = []
        let object = try withBytes(source) { bytes in
            var scanner = JSONScanner(bytes)
            return try scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
                members.append((text(key, in: source), text(value, in: source), value.kind))
            }
        }
        #expect(object.range == 0..<source.utf8.count)
        #expect(members.map(\.0) == [#""id""#, #""phone""#, #""nested""#, #""k\"ey""#])
        #expect(members.map(\.1) == ["12345678901234567890123", #""555""#, #"{"a": [1, 2]}"#, "null"])
        #expect(members.map(\.2) == [.number, .string, .object, .null])
    }

    // MARK: Errors

    @Test("syntax errors carry the byte offset of the problem")
    func errors() {
        #expect(error(#"  "abc"#) == JSONSyntaxError(offset: 2, message: "unterminated string"))
        #expect(
            error(#""a\x""#)
                == JSONSyntaxError(
                    offset: 3, message: #"unexpected 'x', expected an escape (\" \\ \/ \b \f \n \r \t \u)"#))
        #expect(
            error(#""\u12G4""#)
                == JSONSyntaxError(
                    offset: 5, message: #"unexpected 'G', expected four hexadecimal digits after \u"#))
        #expect(
            error("\"a\nb\"")
                == JSONSyntaxError(offset: 2, message: "control character inside a string (escape it)"))
        #expect(
            error("-") == JSONSyntaxError(offset: 1, message: "unexpected end of input, expected a digit"))
        #expect(error("-x") == JSONSyntaxError(offset: 1, message: "unexpected 'x', expected a digit"))
        #expect(
            error("1.")
                == JSONSyntaxError(offset: 2, message: "unexpected end of input, expected a digit after '.'"))
        #expect(
            error("1e+")
                == JSONSyntaxError(
                    offset: 3, message: "unexpected end of input, expected a digit in the exponent"))
        #expect(
            error("tru")
                == JSONSyntaxError(
                    offset: 0,
                    message:
                        "unexpected 't', expected a value (a string, a number, an object, an array, true, false or null)"
                ))
        #expect(error("") == JSONSyntaxError(offset: 0, message: "unexpected end of input, expected a value"))
        #expect(
            error("  ") == JSONSyntaxError(offset: 2, message: "unexpected end of input, expected a value"))
        #expect(
            error("{\"a\":1,}") == JSONSyntaxError(offset: 7, message: "unexpected '}', expected a string"))
        #expect(
            error("{\"a\" 1}")
                == JSONSyntaxError(offset: 5, message: "unexpected '1', expected ':' after an object key"))
        #expect(error("[1 2]") == JSONSyntaxError(offset: 3, message: "unexpected '2', expected ',' or ']'"))
        #expect(
            error("{\"a\":1]") == JSONSyntaxError(offset: 6, message: "unexpected ']', expected ',' or '}'"))
        #expect(error("[1, {\"a\": 2}") == JSONSyntaxError(offset: 0, message: "unterminated array"))
        #expect(error("{\"a\": [") == JSONSyntaxError(offset: 0, message: "unterminated object"))
        #expect(
            error("\u{1}") == JSONSyntaxError(offset: 0, message: "unexpected byte 0x01, expected a value"))
    }

    @Test("nesting deeper than the limit is an error, not a crash")
    func depthLimit() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(
            error(deep)
                == JSONSyntaxError(offset: JSONScanner.maximumDepth, message: "nested more than 512 deep"))
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(error(fine) == nil)
    }

    @Test("lineAndColumn counts lines and byte columns from 1")
    func lineAndColumn() {
        withBytes("{\n  \"a\": 1,\n  x\n}") { bytes in
            let scanner = JSONScanner(bytes)
            #expect(scanner.lineAndColumn(of: 0) == (1, 1))
            #expect(scanner.lineAndColumn(of: 2) == (2, 1))
            #expect(scanner.lineAndColumn(of: 14) == (3, 3))
        }
    }

    // MARK: Decoding

    @Test("decodeString: escapes decoded, plain bytes as they are")
    func decodeString() throws {
        let cases: [(String, String)] = [
            (#""555 123""#, "555 123"),
            (#""a\"b\\c\/d""#, "a\"b\\c/d"),
            (#""\n\r\t\b\f""#, "\n\r\t\u{8}\u{C}"),
            (#""\u00e9t\u00C9""#, "étÉ"),
            (#""\ud83d\ude00""#, "😀"),
            (#""Zoë ₤""#, "Zoë ₤"),
            (#""""#, ""),
        ]
        for (source, expected) in cases {
            let token = try scan(source).get()
            #expect(withBytes(source) { JSONScanner($0).decodeString(token) } == expected, "\(source)")
        }
    }

    @Test("decodeString: invalid UTF-8 is nil, with or without escapes")
    func decodeInvalidUTF8() {
        for bytes: [UInt8] in [[0x22, 0x35, 0xFF, 0x35, 0x22], [0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22]] {
            bytes.withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer)
                guard let token = try? scanner.scanValue() else {
                    Issue.record("the scanner does not check UTF-8; the decoder does")
                    return
                }
                #expect(JSONScanner(buffer).decodeString(token) == nil)
            }
        }
    }

    @Test(
        "decodeEscapes agrees with Foundation's JSONSerialization on 20,000 random strings, bad escapes too")
    func decodeEscapesAgreesWithFoundation() throws {
        // Scalars from every range an escape can write: controls, ASCII, Latin-1, the BMP's edges
        // around the surrogates, U+FFFF, and astral ones (written as surrogate pairs). Not U+FEFF,
        // which Foundation drops from a string (the next test).
        let pool: [UInt32] =
            [0x00, 0x01, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1F, 0x20, 0x22, 0x2F, 0x41, 0x5C, 0x7A, 0x7F]
            + [0x80, 0xA0, 0xE9, 0xFF, 0x100, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF]
            + [0x10000, 0x1F600, 0x10FFFF]
        let broken = [
            #"\ud800"#, #"\udc00"#, #"\ude00\ud83d"#, #"\ud83dx"#, #"\x41"#, #"\u12"#, #"\u00G0"#, "\u{01}",
        ]
        var random = SplitMix64(seed: 30)
        for _ in 0..<20_000 {
            var inner = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                if Int.random(in: 0..<40, using: &random) == 0 {
                    inner += broken.randomElement(using: &random)!
                    continue
                }
                let scalar = Unicode.Scalar(pool.randomElement(using: &random)!)!
                inner += Self.escaped(scalar, style: Int.random(in: 0..<4, using: &random))
            }
            let source = "\"" + inner + "\""
            let ours = Array(source.utf8).withUnsafeBufferPointer { buffer in
                JSONScanner.decodeEscapes(UnsafeBufferPointer(rebasing: buffer.dropFirst().dropLast()))
            }
            let theirs =
                (try? JSONSerialization.jsonObject(with: Data(source.utf8), options: [.fragmentsAllowed]))
                as? String
            #expect(
                ours.map { Array($0.unicodeScalars) } == theirs.map { Array($0.unicodeScalars) }, "\(source)")
        }
    }

    @Test("decodeEscapes keeps U+FEFF, raw or escaped, where Foundation's JSONSerialization dropped it")
    func decodeEscapesKeepsByteOrderMark() {
        for source in [#"\ufeffid\n"#, "\u{FEFF}id\\n", #"a\uFEFF"#] {
            let decoded = Array(source.utf8).withUnsafeBufferPointer { JSONScanner.decodeEscapes($0) }
            #expect(decoded?.unicodeScalars.contains("\u{FEFF}") == true, "\(source)")
        }
    }

    /// `scalar` in a JSON string: raw where JSON allows (style 0), as a short escape where it
    /// has one (1), as `\uXXXX` in lower (2) or upper (3) case hex, a surrogate pair past U+FFFF.
    private static func escaped(_ scalar: Unicode.Scalar, style: Int) -> String {
        let short: [UInt32: String] = [
            0x22: #"\""#, 0x5C: #"\\"#, 0x2F: #"\/"#, 0x08: #"\b"#, 0x0C: #"\f"#, 0x0A: #"\n"#, 0x0D: #"\r"#,
            0x09: #"\t"#,
        ]
        let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
        if style == 0 && !mustEscape { return String(scalar) }
        if style == 1, let escape = short[scalar.value] { return escape }
        func unit(_ value: UInt32) -> String {
            let hex = String(value, radix: 16, uppercase: style == 3)
            return #"\u"# + String(repeating: "0", count: 4 - hex.count) + hex
        }
        guard scalar.value > 0xFFFF else { return unit(scalar.value) }
        let value = scalar.value - 0x10000
        return unit(0xD800 + value >> 10) + unit(0xDC00 + value & 0x3FF)
    }

    @Test("plainDecimal keeps a number's own text, and writes exponents out in full")
    func plainDecimal() throws {
        let cases: [(String, String?)] = [
            ("0.10", "0.10"),
            ("12345678901234567890123", "12345678901234567890123"),
            ("-0", "-0"),
            ("5551234567", "5551234567"),
            ("1e3", "1000"),
            ("1E3", "1000"),
            ("1e+3", "1000"),
            ("5.551234567e9", "5551234567"),
            ("-2.5e2", "-250"),
            ("1.5e-3", "0.0015"),
            ("0.001e2", "0.1"),
            ("-1.50E+1", "-15.0"),
            ("1e400", "1" + String(repeating: "0", count: 400)),
            ("1e99999", nil),
            ("1e-99999", nil),
        ]
        for (source, expected) in cases {
            let token = try scan(source).get()
            #expect(withBytes(source) { JSONScanner($0).plainDecimal(token) } == expected, "\(source)")
        }
    }

    // MARK: JSONNode

    @Test("JSONNode keeps keys in order, duplicates included, and numbers' text")
    func nodeOrder() throws {
        let node = try withBytes(#"{"z": 1, "a": [true, null], "m": {"y": 0.10, "b": "x"}, "a": 2}"#) {
            try JSONNode.parse($0)
        }
        guard case .object(let members, let offset) = node else {
            Issue.record("not an object")
            return
        }
        #expect(offset == 0)
        #expect(members.map(\.key) == ["z", "a", "m", "a"])
        guard case .object(let inner, _) = members[2].value else {
            Issue.record("m is not an object")
            return
        }
        #expect(inner.map(\.key) == ["y", "b"])
        guard case .number(let value, let text, let numberOffset) = inner[0].value else {
            Issue.record("y is not a number")
            return
        }
        #expect(value == 0.1)
        #expect(text == "0.10")
        #expect(numberOffset == 39)
        #expect(members[1].value.kindDescription == "an array")
        #expect(inner[1].value.kindDescription == "the string \"x\"")
        #expect(inner[0].value.kindDescription == "the number 0.10")
    }

    @Test("JSONNode rejects text after the value and keys that are not UTF-8")
    func nodeErrors() {
        #expect(throws: JSONSyntaxError(offset: 3, message: "unexpected text after the JSON value")) {
            try withBytes("{} {}") { try JSONNode.parse($0) }
        }
        let badKey: [UInt8] = [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]
        #expect(throws: JSONSyntaxError(offset: 1, message: "a key that is not valid UTF-8")) {
            try badKey.withUnsafeBufferPointer { try JSONNode.parse($0) }
        }
    }
}
