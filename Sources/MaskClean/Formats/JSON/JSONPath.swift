/// A spec column's `name` read as a path into a JSON record (docs/record-formats.md#nested-values):
/// `contact.phone`, `phones[0]`, `["a.b"].phone`. Keys are separated by dots; `[N]` is element N
/// (from 0) of an array; `["…"]` is a key that holds a dot or a bracket, written as a JSON string.
///
/// A name with neither a dot nor a bracket is a plain key, and so is any name that is not a path
/// by this grammar (`a..b`, `a[`): the reader then looks it up as written, as it always has.
///
/// A class: a reader follows a column's path for every record, and copying a struct of arrays
/// there retained each of them.
final class JSONPath: Sendable {
    enum Step: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    /// The steps, the record's own member first.
    let steps: [Step]
    /// Each key step's bytes (empty for an index), compared with a record's keys as they lie.
    let keyBytes: [[UInt8]]
    /// The name as the spec wrote it.
    let text: String
    /// The object the added cells go into, as the leading steps of the path: the longest run of
    /// keys before the last step after which a key follows (`contact` of `contact.phone`, none
    /// of `phones[0]`, `a` of `a.b[0].c`). Cells never go into an array.
    let containerSteps: Int
    /// How the spec wrote the container's steps: `contact` of `contact.phone`. An added
    /// column's name that starts with it and a dot is the member named by the rest, inside the
    /// container.
    let containerText: String

    /// The path `text` spells, when it is one: nil for a plain key (one step, written bare) and
    /// for text that is no path.
    init?(_ text: String) {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }) else {
            return nil
        }
        var steps: [Step] = []
        var ends: [String.Index] = []  // where each step's text ends
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix("[") {
                rest.removeFirst()
                if rest.hasPrefix("\"") {
                    guard let (key, after) = Self.quotedKey(rest), after.hasPrefix("]") else { return nil }
                    steps.append(.key(key))
                    rest = after.dropFirst()
                } else {
                    let digits = rest.prefix { $0.isASCII && $0.isNumber }
                    // An index is written as JSON writes a number: no leading zero, no sign.
                    guard !digits.isEmpty, digits.count < 10, digits == "0" || !digits.hasPrefix("0"),
                        rest.dropFirst(digits.count).hasPrefix("]"), !steps.isEmpty
                    else { return nil }
                    steps.append(.index(Int(digits)!))
                    rest = rest.dropFirst(digits.count + 1)
                }
            } else {
                if !steps.isEmpty {
                    guard rest.hasPrefix(".") else { return nil }
                    rest.removeFirst()
                }
                let key = rest.prefix { $0 != "." && $0 != "[" }
                guard !key.isEmpty else { return nil }
                steps.append(.key(String(key)))
                rest = rest.dropFirst(key.count)
            }
            ends.append(rest.startIndex)
        }
        // A bare single key was caught above; `["a"]` alone is the key `a`, still one step.
        guard !steps.isEmpty else { return nil }
        self.steps = steps
        self.keyBytes = steps.map { step in
            guard case .key(let key) = step else { return [] }
            return Array(key.utf8)
        }
        self.text = text
        var container = 0
        while container + 1 < steps.count, case .key = steps[container], case .key = steps[container + 1] {
            container += 1
        }
        self.containerSteps = container
        self.containerText = container == 0 ? "" : String(text[..<ends[container - 1]])
    }

    /// A `"…"` key at the start of `text`: its value (JSON escapes `\"` and `\\` and the others
    /// decoded) and the text after its closing quote.
    private static func quotedKey(_ text: Substring) -> (String, Substring)? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> (String, Substring)? in
            var reader = JSONScanner(buffer)
            guard let token = try? reader.scanString(), let key = reader.decodeString(token) else {
                return nil
            }
            let after = text.utf8.index(text.startIndex, offsetBy: token.range.upperBound)
            return (key, text[after...])
        }
    }

    /// The key the record's own member has: the first step's.
    var rootKey: String {
        guard case .key(let key) = steps[0] else { return "" }
        return key
    }

    /// Whether the record's value is found at the top level: a path of one key (`["a.b"]`).
    var isTopLevel: Bool { steps.count == 1 }

    /// The member name an added column gets inside the container: `phone_formatted` for
    /// `contact.phone_formatted`; a name that does not start with the container's path stays as
    /// it is.
    func memberName(ofAdded name: String) -> String {
        guard containerSteps > 0, name.hasPrefix(containerText) else { return name }
        let rest = name.dropFirst(containerText.count)
        if rest.hasPrefix(".") && rest.count > 1 { return String(rest.dropFirst()) }
        // `["tel.home"]_formatted`: the quoted key, then what follows it.
        if rest.hasPrefix("[\""), let (key, after) = Self.quotedKey(rest.dropFirst()), after.hasPrefix("]") {
            return key + after.dropFirst()
        }
        return name
    }

    /// The container's keys, outermost first.
    var containerKeys: [String] {
        steps.prefix(containerSteps).map { step in
            guard case .key(let key) = step else { return "" }
            return key
        }
    }
}

extension JSONPath {
    /// What a path finds in a record.
    enum Found: Equatable {
        /// The value at its end.
        case value(JSONToken)
        /// A member or element on the way is missing, or `null`: an empty cell.
        case missing
        /// Step `step` needs an object (a key) or an array (an index), and the value before it
        /// is `found`.
        case blocked(step: Int, found: JSONKind)
        /// The key of step `step` appears twice in its object.
        case twice(step: Int)
    }

    /// Follows the steps after the first from `value`, the record's member of `rootKey`, in
    /// `bytes`, which hold it whole and valid.
    /// `container` gets the object the added cells go into, when the path reaches it, and
    /// `present` the index of the first of `added` (names of members maskclean adds there) that
    /// it already has: read in the same pass as the key looked up in it.
    func find(
        from value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>, container: inout JSONToken?,
        added: [[UInt8]] = [], present: inout Int?
    ) -> Found {
        var current = value
        for (offset, step) in steps.enumerated().dropFirst() {
            let isContainer = offset == containerSteps && current.kind == .object
            if isContainer { container = current }
            switch (step, current.kind) {
            case (_, .null): return .missing
            case (.key, .object):
                let (found, twice, added) = Self.member(
                    keyBytes[offset], of: current, in: bytes, also: isContainer ? added : [])
                if isContainer { present = added }
                if twice { return .twice(step: offset) }
                guard let found else { return .missing }
                current = found
            case (.index(let index), .array):
                guard let found = Self.element(index, of: current, in: bytes) else { return .missing }
                current = found
            default: return .blocked(step: offset, found: current.kind)
            }
        }
        return .value(current)
    }

    func find(from value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>, container: inout JSONToken?)
        -> Found
    {
        var present: Int?
        return find(from: value, in: bytes, container: &container, present: &present)
    }

    /// The value of member `key` (its bytes) of `object`, whether the key appears twice, and the
    /// index of the first of `also` that `object` has a member of too.
    static func member(
        _ wanted: [UInt8], of object: JSONToken, in bytes: UnsafeBufferPointer<UInt8>, also: [[UInt8]] = []
    ) -> (JSONToken?, twice: Bool, also: Int?) {
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[..<object.range.upperBound]))
        scanner.position = object.range.lowerBound
        var found: JSONToken?
        var twice = false
        var alsoFound: Int?
        _ = try? scanner.scanObject { (name: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
            for (index, other) in also.enumerated() where keyEquals(name, other, bytes) {
                alsoFound = min(alsoFound ?? index, index)
            }
            guard keyEquals(name, wanted, bytes) else { return }
            if found != nil { twice = true } else { found = value }
        }
        return (found, twice, alsoFound)
    }

    /// Whether the key token `name` in `bytes` spells `key`'s bytes, its escapes decoded.
    static func keyEquals(_ name: JSONToken, _ key: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.hasEscapes else {
            return name.range.count - 2 == key.count
                && bytes[(name.range.lowerBound + 1)..<(name.range.upperBound - 1)].elementsEqual(key)
        }
        return JSONScanner(bytes).decodeString(name).map { Array($0.utf8) == key } ?? false
    }

    /// Element `index` of `array`, nil when it is shorter.
    static func element(_ index: Int, of array: JSONToken, in bytes: UnsafeBufferPointer<UInt8>) -> JSONToken?
    {
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[..<array.range.upperBound]))
        scanner.position = array.range.lowerBound + 1
        guard scanner.peek() != UInt8(ascii: "]") else { return nil }
        var count = 0
        while let value = try? scanner.scanValue() {
            if count == index { return value }
            count += 1
            guard scanner.peek() == UInt8(ascii: ",") else { return nil }
            scanner.position += 1
        }
        return nil
    }

    /// The path of member `key` of the value at path `parent` (nil: of the record):
    /// `contact.phone`, or `contact["a.b"]` for a key a bare step cannot spell.
    static func member(_ key: String, of parent: String?) -> String {
        guard key.isEmpty || key.contains(".") || key.contains("[") || key.contains("]") else {
            return parent.map { $0 + "." + key } ?? key
        }
        var quoted: [UInt8] = []
        JSONStringEncoder.appendQuoted(Array(key.utf8), to: &quoted)
        return (parent ?? "") + "[" + String(decoding: quoted, as: UTF8.self) + "]"
    }

    /// The path's first `count` steps as a name: `contact`, `phones[0]`, `["a.b"]`.
    func prefix(_ count: Int) -> String {
        var text: String?
        for step in steps.prefix(count) {
            switch step {
            case .index(let index): text = (text ?? "") + "[\(index)]"
            case .key(let key): text = Self.member(key, of: text)
            }
        }
        return text ?? ""
    }
}
