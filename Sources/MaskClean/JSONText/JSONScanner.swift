import FoundationEssentials

/// The kinds of JSON value, as the scanner sees them.
enum JSONKind: Sendable, Equatable {
    case object, array, string, number, bool, null
}

/// One scanned JSON value: its kind and the exact bytes it spans.
struct JSONToken: Sendable, Equatable {
    var kind: JSONKind
    /// Offsets into the scanned bytes, quotes and brackets included.
    var range: Range<Int>
    /// For strings: the value contains a `\` escape, so its bytes are not its text.
    var hasEscapes: Bool = false
}

/// A JSON syntax error at a byte offset of the scanned text.
struct JSONSyntaxError: Error, Sendable, Equatable {
    var offset: Int
    var message: String
}

/// A validating JSON tokenizer over bytes. It finds values and their spans without building
/// anything, so that untouched values can be copied through byte for byte (docs/record-formats.md); the few
/// values maskclean reads are decoded by `decodeString` and `plainDecimal`.
///
/// Nesting is tracked with an explicit stack, not recursion: a hostile input cannot overflow
/// the call stack.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    static let maximumDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next non-blank byte, without consuming it.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
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
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x" + (hex.count == 1 ? "0" : "") + hex
        }
    }

    // MARK: Values

    /// Scans one whole value, containers included, and returns its span.
    mutating func scanValue() throws(JSONSyntaxError) -> JSONToken {
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

    mutating func scanString() throws(JSONSyntaxError) -> JSONToken {
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

    mutating func scanNumber() throws(JSONSyntaxError) -> JSONToken {
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
    mutating func scanObject(_ body: (JSONToken, JSONToken) throws(JSONSyntaxError) -> Void)
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

    /// 1-based line and column (in bytes) of an offset, for messages.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
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
