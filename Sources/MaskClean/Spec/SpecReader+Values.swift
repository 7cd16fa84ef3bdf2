import FoundationEssentials

// MARK: Typed values

extension SpecReader {
    typealias Members = [String: JSONNode]

    func object(_ node: JSONNode, place: String?, allowed: [String], nameKey: String? = nil)
        throws(MaskCleanError)
        -> Members
    {
        guard case .object(let pairs, _) = node else {
            throw fail(node, place, "expected an object, got \(describe(node))")
        }
        var members: Members = [:]
        // Name the column in messages about its keys once its name is known.
        var here = place
        if let nameKey, let named = pairs.first(where: { $0.key == nameKey }),
            case .string(let name, _) = named.value
        {
            here = place.map { "\($0) \"\(name)\"" }
        }
        for (key, value) in pairs {
            guard allowed.contains(key) else {
                let suggestion = closest(to: key, in: allowed).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw fail(node, key: key, here, "unknown key \"\(key)\"\(suggestion)")
            }
            guard members[key] == nil else {
                throw fail(node, key: key, here, "key \"\(key)\" appears twice")
            }
            members[key] = value
        }
        return members
    }

    func string(_ node: JSONNode, place: String) throws(MaskCleanError) -> String {
        if let plain = yaml?.plainScalars[node.offset] {
            // `format: 0000`, `name: no`: what YAML reads is not what was meant.
            let written = plain.text.isEmpty ? "nothing" : plain.text
            throw fail(
                node, place,
                "expected a string, got \(written), which YAML reads as \(plain.readsAs); quote it: \(JSONTextWriter.quoted(plain.text))"
            )
        }
        guard case .string(let text, _) = node else {
            var message = "expected a string, got \(describe(node))"
            if yaml != nil, node.isCollection {
                message += " (YAML reads an unquoted value that starts with [ or { as one: quote it)"
            }
            throw fail(node, place, message)
        }
        return text
    }

    func nonEmptyString(_ node: JSONNode, place: String) throws(MaskCleanError) -> String {
        let text = try string(node, place: place)
        guard !text.isEmpty else { throw fail(node, place, "expected a non-empty string") }
        return text
    }

    func optionalString(_ node: JSONNode?, place: String) throws(MaskCleanError) -> String? {
        guard let node else { return nil }
        if case .null = node { return nil }
        return try string(node, place: place)
    }

    func stringList(_ node: JSONNode?, place: String) throws(MaskCleanError) -> [String] {
        try list(node, place: place, of: "strings") { (element, here) throws(MaskCleanError) in
            try string(element, place: here)
        }
    }

    /// An array of `what` (absent: empty), each element read by `read` with its place
    /// (`affineFormats[2]`).
    func list<Element>(
        _ node: JSONNode?, place: String, of what: String,
        _ read: (JSONNode, String) throws(MaskCleanError) -> Element
    ) throws(MaskCleanError) -> [Element] {
        guard let node else { return [] }
        guard case .array(let elements, _) = node else {
            throw fail(node, place, "expected an array of \(what), got \(describe(node))")
        }
        return try elements.enumerated().map { (index, element) throws(MaskCleanError) in
            try read(element, "\(place)[\(index)]")
        }
    }

    func character(_ node: JSONNode?, place: String) throws(MaskCleanError) -> Character? {
        guard let node else { return nil }
        let text = try string(node, place: place)
        guard text.count == 1, let character = text.first else {
            throw fail(node, place, "expected exactly one character, got \"\(text)\"")
        }
        return character
    }

    func bool(_ node: JSONNode?, place: String) throws(MaskCleanError) -> Bool? {
        guard let node else { return nil }
        guard case .bool(let value, _) = node else {
            throw fail(node, place, "expected true or false, got \(describe(node))")
        }
        // YAML 1.1 reads `yes`, `no`, `on` and `off` as booleans, YAML 1.2 as strings.
        if let plain = yaml?.plainScalars[node.offset], !["true", "false"].contains(plain.text.lowercased()) {
            throw fail(
                node, place,
                "expected true or false, got \(plain.text); write \(value) (YAML readers differ on \(plain.text))"
            )
        }
        return value
    }

    /// A threshold is a fraction; `95` is a percentage written in the wrong unit.
    /// A fraction from 0 to 1 under `key` of `place` (nil: the spec's top level).
    func ratio(_ node: JSONNode?, key: String, of place: String?) throws(MaskCleanError) -> Double? {
        guard let node else { return nil }
        if case .null = node { return nil }
        let here = place.map { "\($0): \(key)" } ?? key
        guard case .number(let value, let text, _) = node else {
            throw fail(node, here, "expected a number from 0 to 1, got \(describe(node))")
        }
        try checkDecimal(node, place: here)
        guard (0...1).contains(value) else {
            var message = "\(key) is a fraction from 0 to 1, got \(text)"
            if value > 1 && value <= 100 { message += "; did you mean \(Ratio.decimal(value) / 100)?" }
            throw fail(node, place, message)
        }
        return value
    }

    /// A count of records: a whole number from 0 to `Count.maximum`, read exactly from its text
    /// (`1e6` and `1000.0` are whole numbers).
    func count(_ node: JSONNode?, place: String) throws(MaskCleanError) -> Int? {
        guard let node else { return nil }
        try checkDecimal(node, place: place)
        guard case .number(_, let text, _) = node, let value = Count.whole(text) else {
            throw fail(
                node, place,
                "expected a whole number of records from 0 to \(Count.maximum), got \(describe(node))")
        }
        return value
    }

    func enumValue<Value: RawRepresentable & CaseIterable>(
        _ node: JSONNode?, _ type: Value.Type, place: String
    )
        throws(MaskCleanError) -> Value? where Value.RawValue == String
    {
        guard let node else { return nil }
        let text = try string(node, place: place)
        guard let value = Value(rawValue: text) else {
            let choices = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            let suggestion = didYouMean(text, in: Value.allCases.map(\.rawValue))
            throw fail(node, place, "expected one of \(choices), got \"\(text)\"\(suggestion)")
        }
        return value
    }

    /// How a message names a value: as written for a YAML plain scalar (`yes`, `0x1F`), else
    /// `the string "…"`, `an array`…
    func describe(_ node: JSONNode) -> String {
        if let plain = yaml?.plainScalars[node.offset], !plain.text.isEmpty, plain.readsAs != "null" {
            return plain.text
        }
        return node.kindDescription
    }

    /// A YAML number that YAML readers do not read alike (`0777`, `0x1F`, `1_000`, `.inf`) is
    /// refused: a spec's numbers are decimal, as in JSON.
    func checkDecimal(_ node: JSONNode, place: String) throws(MaskCleanError) {
        guard let plain = yaml?.plainScalars[node.offset], plain.readsAs == "a number",
            !YAMLSpec.isDecimal(plain.text)
        else { return }
        throw fail(
            node, place, "expected a decimal number, got \(plain.text): write it in decimal, as 12 or 0.98")
    }
}

extension JSONNode {
    /// An array or an object.
    var isCollection: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}
