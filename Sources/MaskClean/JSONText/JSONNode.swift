/// A parsed JSON document, for small files maskclean reads whole (the spec; a report is read a
/// level at a time instead, `JSONSpan`). Objects keep their
/// keys in order, and every node knows where it stands, so errors can point at it.
indirect enum JSONNode: Sendable {
    case object([(key: String, value: JSONNode)], offset: Int)
    case array([JSONNode], offset: Int)
    case string(String, offset: Int)
    case number(Double, text: String, offset: Int)
    case bool(Bool, offset: Int)
    case null(offset: Int)

    var offset: Int {
        switch self {
        case .object(_, let offset), .array(_, let offset), .string(_, let offset),
            .number(_, _, let offset), .bool(_, let offset), .null(let offset):
            return offset
        }
    }

    /// How a message names this kind of value: `a string`, `an array`…
    var kindDescription: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let text, _): return "the string \"\(text)\""
        case .number(_, let text, _): return "the number \(text)"
        case .bool(let value, _): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    /// Parses a whole document: one value, nothing after it but blanks. Past `maximumValues`
    /// values it stops: a tree of small values costs some 40 times their text.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maximumValues: Int = .max) throws(JSONSyntaxError)
        -> JSONNode
    {
        var scanner = JSONScanner(bytes)
        var budget = (left: maximumValues, maximum: maximumValues)
        let node = try parseValue(&scanner, depth: 0, budget: &budget)
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw JSONSyntaxError(offset: scanner.position, message: "unexpected text after the JSON value")
        }
        return node
    }

    /// `budget`: how many more values may be parsed, of how many.
    private static func parseValue(
        _ scanner: inout JSONScanner, depth: Int, budget: inout (left: Int, maximum: Int)
    )
        throws(JSONSyntaxError) -> JSONNode
    {
        guard depth < JSONScanner.maximumDepth else {
            throw JSONSyntaxError(
                offset: scanner.position, message: "nested more than \(JSONScanner.maximumDepth) deep")
        }
        guard budget.left > 0 else {
            throw JSONSyntaxError(offset: scanner.position, message: "more than \(budget.maximum) values")
        }
        budget.left -= 1
        guard let first = scanner.peek() else { throw scanner.error(expected: "a value") }
        let offset = scanner.position
        switch first {
        case UInt8(ascii: "{"):
            scanner.position += 1
            var members: [(key: String, value: JSONNode)] = []
            if scanner.peek() == UInt8(ascii: "}") {
                scanner.position += 1
                return .object(members, offset: offset)
            }
            while true {
                guard scanner.peek() == UInt8(ascii: "\"") else {
                    throw scanner.error(expected: "a key (a string)")
                }
                let keyToken = try scanner.scanString()
                guard let key = scanner.decodeString(keyToken) else {
                    throw JSONSyntaxError(
                        offset: keyToken.range.lowerBound, message: "a key that is not valid UTF-8")
                }
                try scanner.expect(UInt8(ascii: ":"), "':' after an object key")
                members.append((key, try parseValue(&scanner, depth: depth + 1, budget: &budget)))
                if scanner.peek() == UInt8(ascii: ",") {
                    scanner.position += 1
                    continue
                }
                try scanner.expect(UInt8(ascii: "}"), "',' or '}'")
                return .object(members, offset: offset)
            }
        case UInt8(ascii: "["):
            scanner.position += 1
            var elements: [JSONNode] = []
            if scanner.peek() == UInt8(ascii: "]") {
                scanner.position += 1
                return .array(elements, offset: offset)
            }
            while true {
                elements.append(try parseValue(&scanner, depth: depth + 1, budget: &budget))
                if scanner.peek() == UInt8(ascii: ",") {
                    scanner.position += 1
                    continue
                }
                try scanner.expect(UInt8(ascii: "]"), "',' or ']'")
                return .array(elements, offset: offset)
            }
        default:
            let token = try scanner.scanValue()
            switch token.kind {
            case .string:
                guard let text = scanner.decodeString(token) else {
                    throw JSONSyntaxError(offset: offset, message: "a string that is not valid UTF-8")
                }
                return .string(text, offset: offset)
            case .number:
                let text = String(
                    decoding: UnsafeBufferPointer(rebasing: scanner.bytes[token.range]), as: UTF8.self)
                return .number(Double(text) ?? .nan, text: text, offset: offset)
            case .bool:
                return .bool(scanner.bytes[token.range.lowerBound] == UInt8(ascii: "t"), offset: offset)
            default:
                return .null(offset: offset)
            }
        }
    }
}
