/// A JSON value in a text that was checked whole, read without being parsed: its kind and where
/// it lies. An object's members and an array's elements are found a level at a time, when they
/// are asked for, so reading a document costs its text and what the reader keeps of it, not a
/// tree of every value (a `JSONNode` of a small number costs some 30 times its text).
struct JSONSpan {
    let text: UnsafeBufferPointer<UInt8>
    let token: JSONToken

    var kind: JSONKind { token.kind }
    var offset: Int { token.range.lowerBound }

    /// The document's one value, once all of it is checked: valid UTF-8, valid JSON nested at
    /// most `JSONScanner.maximumDepth` deep, nothing after the value but blanks.
    static func document(_ text: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONSpan {
        if let problem = JSONTextCheck.firstProblem(text) {
            throw JSONSyntaxError(offset: problem.offset, message: problem.reason)
        }
        var scanner = JSONScanner(text)
        let token = try scanner.scanValue()
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw JSONSyntaxError(offset: scanner.position, message: "unexpected text after the JSON value")
        }
        return JSONSpan(text: text, token: token)
    }

    /// A string's text (nil for another kind of value).
    var string: String? {
        kind == .string ? JSONScanner(text).decodeString(token) : nil
    }

    /// A number's text as written (`1e3`).
    var numberText: String {
        String(decoding: UnsafeBufferPointer(rebasing: text[token.range]), as: UTF8.self)
    }

    var bool: Bool? {
        kind == .bool ? text[token.range.lowerBound] == UInt8(ascii: "t") : nil
    }

    /// How a message names this kind of value: `a string`, `an array`…
    var kindDescription: String {
        switch kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "the string \"\(string ?? "")\""
        case .number: return "the number \(numberText)"
        case .bool: return bool == true ? "true" : "false"
        case .null: return "null"
        }
    }

    /// An object's members in order, each as its key's span (a string) and its value's.
    func members() -> Children { Children(self, keyed: true) }

    /// An array's elements in order, each with no key.
    func elements() -> Children { Children(self, keyed: false) }

    /// An object's members or an array's elements: one walk over the checked text, which for an
    /// object reads a key and a colon before each value.
    struct Children: Sequence, IteratorProtocol {
        private var scanner: JSONScanner
        private var done: Bool
        private let keyed: Bool

        fileprivate init(_ container: JSONSpan, keyed: Bool) {
            var scanner = JSONScanner(container.text, position: container.offset + 1)
            self.keyed = keyed
            done =
                container.kind != (keyed ? .object : .array)
                || scanner.peek() == UInt8(ascii: keyed ? "}" : "]")
            self.scanner = scanner
        }

        mutating func next() -> (key: JSONSpan?, value: JSONSpan)? {
            guard !done else { return nil }
            var key: JSONToken?
            if keyed {
                // The text was checked whole (`document`): a syntax error cannot happen here,
                // and would only end the members early.
                guard scanner.peek() == UInt8(ascii: "\""), let name = try? scanner.scanString(),
                    (try? scanner.expect(UInt8(ascii: ":"), "':'")) != nil
                else { return nil }
                key = name
            }
            guard let value = scanner.skipCheckedValue() else { return nil }
            done = scanner.peek() != UInt8(ascii: ",")
            scanner.position += 1
            return (
                key.map { JSONSpan(text: scanner.bytes, token: $0) },
                JSONSpan(text: scanner.bytes, token: value)
            )
        }
    }
}

extension JSONScanner {
    /// Steps over the value here in a text already checked whole (`JSONSpan.document`): an
    /// object or array by matching its brackets outside strings, without checking it again, so
    /// that reading a level costs one pass over it, not one per level above it.
    fileprivate mutating func skipCheckedValue() -> JSONToken? {
        guard let first = peek() else { return nil }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return try? scanValue() }
        let start = position
        var depth = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                guard (try? scanString()) != nil else { return nil }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    position += 1
                    return JSONToken(
                        kind: first == UInt8(ascii: "{") ? .object : .array, range: start..<position)
                }
            default:
                break
            }
            position += 1
        }
        return nil
    }
}
