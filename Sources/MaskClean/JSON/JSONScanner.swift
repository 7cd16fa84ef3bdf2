import Foundation

/// The kinds of JSON value, as the scanner sees them.
public enum JSONKind: Sendable, Equatable {
    case object, array, string, number, bool, null
}

/// One scanned JSON value: its kind and the exact bytes it spans.
public struct JSONToken: Sendable, Equatable {
    public var kind: JSONKind
    /// Offsets into the scanned bytes, quotes and brackets included.
    public var range: Range<Int>
    /// For strings: the value contains a `\` escape, so its bytes are not its text.
    public var hasEscapes: Bool = false
}

/// A JSON syntax error at a byte offset of the scanned text.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var offset: Int
    public var message: String
}

/// A validating JSON tokenizer over bytes. It finds values and their spans without building
/// anything, so that untouched values can be copied through byte for byte (DESIGN §6); the few
/// values maskclean reads are decoded by `decodeString` and `plainDecimal`.
///
/// Nesting is tracked with an explicit stack, not recursion: a hostile input cannot overflow
/// the call stack.
public struct JSONScanner {
    public let bytes: UnsafeBufferPointer<UInt8>
    public var position: Int
    public static let maximumDepth = 512

    public init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next non-blank byte, without consuming it.
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    public mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard peek() == byte else { throw error(expected: what) }
        position += 1
    }

    func error(expected what: String) -> JSONSyntaxError {
        if position >= bytes.count {
            return JSONSyntaxError(offset: position, message: "unexpected end of input, expected \(what)")
        }
        return JSONSyntaxError(
            offset: position, message: "unexpected \(describe(bytes[position])), expected \(what)")
    }

    private func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return String(format: "byte 0x%02X", byte)
        }
    }

    // MARK: Values

    /// Scans one whole value, containers included, and returns its span.
    public mutating func scanValue() throws(JSONSyntaxError) -> JSONToken {
        guard let first = peek() else { throw error(expected: "a value") }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try scanContainer()
        case UInt8(ascii: "\""):
            return try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber()
        case UInt8(ascii: "t"):
            return try scanLiteral("true", .bool)
        case UInt8(ascii: "f"):
            return try scanLiteral("false", .bool)
        case UInt8(ascii: "n"):
            return try scanLiteral("null", .null)
        default:
            throw error(expected: "a value")
        }
    }

    private mutating func scanLiteral(_ word: StaticString, _ kind: JSONKind) throws(JSONSyntaxError)
        -> JSONToken
    {
        let start = position
        let count = word.utf8CodeUnitCount
        for index in 0..<count
        where start + index >= bytes.count || bytes[start + index] != word.utf8Start[index] {
            throw error(expected: "a value (a string, a number, an object, an array, true, false or null)")
        }
        position += count
        return JSONToken(kind: kind, range: start..<position)
    }

    public mutating func scanString() throws(JSONSyntaxError) -> JSONToken {
        let start = position
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw error(expected: "a string")
        }
        position += 1
        var hasEscapes = false
        while position < bytes.count {
            // Plain bytes are skipped eight at a time.
            position = ByteSearch.firstJSONSpecial(bytes.baseAddress!, from: position, count: bytes.count)
            guard position < bytes.count else { break }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return JSONToken(kind: .string, range: start..<position, hasEscapes: hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                position += 1
                guard position < bytes.count else { break }
                switch bytes[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 1
                case UInt8(ascii: "u"):
                    position += 1
                    for _ in 0..<4 {
                        guard position < bytes.count, bytes[position].isHexDigit else {
                            throw error(expected: "four hexadecimal digits after \\u")
                        }
                        position += 1
                    }
                default:
                    throw error(expected: "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)")
                }
            case 0x00..<0x20:
                throw JSONSyntaxError(
                    offset: position, message: "control character inside a string (escape it)")
            default:
                position += 1
            }
        }
        throw JSONSyntaxError(offset: start, message: "unterminated string")
    }

    public mutating func scanNumber() throws(JSONSyntaxError) -> JSONToken {
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
            return position - from
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, (0x30...0x39).contains(bytes[position]) else {
            throw error(expected: "a digit")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            _ = digits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error(expected: "a digit after '.'") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count,
                bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
            {
                position += 1
            }
            guard digits() > 0 else { throw error(expected: "a digit in the exponent") }
        }
        return JSONToken(kind: .number, range: start..<position)
    }

    /// Scans an object or array to its matching bracket, validating everything inside.
    private mutating func scanContainer() throws(JSONSyntaxError) -> JSONToken {
        let start = position
        let kind: JSONKind = bytes[position] == UInt8(ascii: "{") ? .object : .array
        // The open containers, innermost last: `{` or `[`.
        var open: [UInt8] = [bytes[position]]
        position += 1
        var expectingValue = true  // just after `[`, `{`, `,` or `:`
        var atFirstMember = true
        while !open.isEmpty {
            guard let byte = peek() else {
                throw JSONSyntaxError(
                    offset: start, message: "unterminated \(kind == .object ? "object" : "array")")
            }
            let inObject = open.last == UInt8(ascii: "{")
            if expectingValue {
                if atFirstMember, byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    open.removeLast()
                    expectingValue = false
                    atFirstMember = false
                    continue
                }
                if inObject {
                    _ = try scanString()
                    try expect(UInt8(ascii: ":"), "':' after an object key")
                }
                guard let next = peek() else { throw error(expected: "a value") }
                if next == UInt8(ascii: "{") || next == UInt8(ascii: "[") {
                    guard open.count < Self.maximumDepth else {
                        throw JSONSyntaxError(
                            offset: position, message: "nested more than \(Self.maximumDepth) deep")
                    }
                    open.append(next)
                    position += 1
                    atFirstMember = true
                    continue
                }
                _ = try scanValue()
                expectingValue = false
                atFirstMember = false
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                position += 1
                expectingValue = true
                atFirstMember = false
            case UInt8(ascii: "}") where inObject, UInt8(ascii: "]") where !inObject:
                position += 1
                open.removeLast()
            default:
                throw error(expected: inObject ? "',' or '}'" : "',' or ']'")
            }
        }
        return JSONToken(kind: kind, range: start..<position)
    }

    // MARK: Objects, member by member

    /// Scans an object member by member: `body` gets each key token and value token. Values are
    /// scanned whole (nested containers included) before `body` sees them.
    public mutating func scanObject(_ body: (JSONToken, JSONToken) throws(JSONSyntaxError) -> Void)
        throws(JSONSyntaxError) -> JSONToken
    {
        let start = position
        try expect(UInt8(ascii: "{"), "'{'")
        if peek() == UInt8(ascii: "}") {
            position += 1
            return JSONToken(kind: .object, range: start..<position)
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw error(expected: "a key (a string)") }
            let key = try scanString()
            try expect(UInt8(ascii: ":"), "':' after an object key")
            let value = try scanValue()
            try body(key, value)
            guard let next = peek() else { throw error(expected: "',' or '}'") }
            position += 1
            if next == UInt8(ascii: "}") { return JSONToken(kind: .object, range: start..<position) }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw error(expected: "',' or '}'")
            }
        }
    }

    // MARK: Decoding the values maskclean reads

    /// The text of a string token: its bytes when it has no escapes, else Foundation's decoding.
    /// Nil when the bytes are not valid UTF-8.
    public func decodeString(_ token: JSONToken) -> String? {
        let inner = UnsafeBufferPointer(
            rebasing: bytes[(token.range.lowerBound + 1)..<(token.range.upperBound - 1)])
        if !token.hasEscapes {
            // Plain ASCII needs no validation (the standard library's is costly per call).
            if inner.allSatisfy({ $0 < 0x80 }) { return String(decoding: inner, as: UTF8.self) }
            return String(validating: inner, as: UTF8.self)
        }
        let data = Data(UnsafeBufferPointer(rebasing: bytes[token.range]))
        return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? String
    }

    /// A number token as plain decimal text: its own text when it has no exponent (`0.10` stays
    /// `0.10`, a 23-digit integer stays whole), else the same digits with the decimal point
    /// moved (`1e3` is `1000`, `1e400` a 1 and 400 zeros, `2.5e-3` is `0.0025`): exact, whatever
    /// Double or Decimal could hold. Nil when that text would be longer than `maximumLength`.
    public func plainDecimal(_ token: JSONToken, maximumLength: Int = 4096) -> String? {
        let text = Array(bytes[token.range])
        guard let e = text.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "e") }) else {
            return String(decoding: text, as: UTF8.self)
        }
        let negative = text.first == UInt8(ascii: "-")
        let mantissa = text[(negative ? 1 : 0)..<e]
        let point = mantissa.firstIndex(of: UInt8(ascii: ".")) ?? mantissa.endIndex
        let digits = Array(mantissa[..<point]) + Array(mantissa[point...].dropFirst())
        // Zero is zero whatever its exponent (`0e99999999999`).
        if digits.allSatisfy({ $0 == UInt8(ascii: "0") }) { return negative ? "-0" : "0" }
        // The exponent's digits, capped: anything past the length limit is refused anyway.
        var exponent = 0
        var exponentDigits = text[(e + 1)...]
        let negativeExponent = exponentDigits.first == UInt8(ascii: "-")
        if exponentDigits.first == UInt8(ascii: "-") || exponentDigits.first == UInt8(ascii: "+") {
            exponentDigits = exponentDigits.dropFirst()
        }
        for digit in exponentDigits {
            exponent = min(exponent * 10 + Int(digit - 0x30), 10 * maximumLength)
        }
        if negativeExponent { exponent = -exponent }
        // Where the point lands among `digits`.
        let position = (point - mantissa.startIndex) + exponent
        guard position <= maximumLength, -position <= maximumLength else { return nil }
        var integer: [UInt8]
        var fraction: [UInt8]
        if position >= digits.count {
            integer = digits + Array(repeating: 0x30, count: position - digits.count)
            fraction = []
        } else if position <= 0 {
            integer = [0x30]
            fraction = Array(repeating: 0x30, count: -position) + digits
        } else {
            integer = Array(digits[..<position])
            fraction = Array(digits[position...])
        }
        while integer.count > 1 && integer.first == 0x30 { integer.removeFirst() }
        var result = (negative ? [UInt8(ascii: "-")] : []) + integer
        if !fraction.isEmpty { result += [UInt8(ascii: ".")] + fraction }
        guard result.count <= maximumLength else { return nil }
        return String(decoding: result, as: UTF8.self)
    }

    /// 1-based line and column (in bytes) of an offset, for messages.
    public func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}

/// What keeps JSON text from being written out as it came: bytes that are not UTF-8 (overlong
/// forms, encoded surrogates, Latin-1 bytes, truncated sequences) and `\u` escapes of a lone
/// surrogate, which strict parsers refuse.
enum JSONTextCheck {
    /// The offset of the first problem in `bytes` and what it is, or nil when all is well.
    static func firstProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, reason: String)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        var sawBackslash = false
        while index < count {
            // Plain ASCII without a backslash, eight bytes at a time: nearly every record.
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & ByteSearch.highs == 0 {
                    if ByteSearch.bytes(equalTo: 0x5C, in: word) != 0 { sawBackslash = true }
                    index += 8
                    continue
                }
            }
            let byte = base[index]
            if byte < 0x80 {
                if byte == 0x5C { sawBackslash = true }
                index += 1
                continue
            }
            guard let length = sequenceLength(base, index, count) else {
                return (index, "invalid UTF-8")
            }
            index += length
        }
        return sawBackslash ? loneSurrogate(bytes) : nil
    }

    /// The length of the valid UTF-8 sequence at `index` (its first byte ≥ 0x80), or nil.
    private static func sequenceLength(_ base: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> Int? {
        let first = base[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0  // no overlong form
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F  // no encoded surrogate
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F  // nothing past U+10FFFF
        default: return nil
        }
        guard index + length <= count, (low...high).contains(base[index + 1]) else { return nil }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(base[index + offset]) {
            return nil
        }
        return length
    }

    /// A `\uD800`–`\uDBFF` escape not followed by a `\uDC00`–`\uDFFF` one, or the latter alone.
    /// Hops from backslash to backslash: most records have few or none.
    private static func loneSurrogate(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, reason: String)? {
        guard let base = bytes.baseAddress else { return nil }
        let high = "a lone surrogate escape (\\uD800–\\uDBFF)"
        var index = 0
        /// Where the last high surrogate's escape ended, if one waits for its low half.
        var pendingHigh: (start: Int, end: Int)?
        while index < bytes.count,
            let found = memchr(base + index, 0x5C, bytes.count - index)
        {
            let slash = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // A high surrogate must be followed at once by its low half.
            if let waiting = pendingHigh, slash != waiting.end { return (waiting.start, high) }
            guard slash + 1 < bytes.count else { break }
            guard bytes[slash + 1] == UInt8(ascii: "u"), slash + 5 < bytes.count,
                let code = hex4(bytes, slash + 2)
            else {
                if let waiting = pendingHigh { return (waiting.start, high) }
                index = slash + 2
                continue
            }
            switch code {
            case 0xD800...0xDBFF:
                if let waiting = pendingHigh { return (waiting.start, high) }
                pendingHigh = (slash, slash + 6)
            case 0xDC00...0xDFFF:
                guard pendingHigh != nil else { return (slash, "a lone surrogate escape (\\uDC00–\\uDFFF)") }
                pendingHigh = nil
            default:
                if let waiting = pendingHigh { return (waiting.start, high) }
            }
            index = slash + 6
        }
        return pendingHigh.map { ($0.start, high) }
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> UInt32? {
        var code: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }
}
