/// The typed values of a report (`ReportParser`): objects, keys, strings, booleans, counts and
/// row numbers, each refused with its place and line when it is not what the report must hold.
extension ReportParser {
    /// An object's members by key: a key written twice is refused, and so are more keys than
    /// `limit` (no report's object has that many: they would only cost memory).
    func members(_ node: JSONSpan, place: String, limit: Int = maximumKeys) throws(MaskCleanError) -> Members
    {
        guard node.kind == .object else {
            throw fail(node, place, "expected an object, got \(node.kindDescription)")
        }
        var members: Members = [:]
        for case (let keySpan?, let value) in node.members() {
            let key = keySpan.string ?? ""
            guard members[key] == nil else { throw fail(keySpan, place, "key \"\(key)\" appears twice") }
            guard members.count < limit else {
                throw fail(keySpan, place, "more than \(limit) keys: not an object of a maskclean report")
            }
            members[key] = value
        }
        return members
    }

    func required(_ members: Members, _ key: String, of node: JSONSpan, place: String) throws(MaskCleanError)
        -> JSONSpan
    {
        guard let value = members[key] else { throw fail(node, place, "missing key \"\(key)\"") }
        return value
    }

    /// The value of a key that must be there, read by `read` with its place (`rejected: count`).
    func field<Value>(
        _ members: Members, _ key: String, of node: JSONSpan, place: String,
        _ read: (JSONSpan, String) throws(MaskCleanError) -> Value
    ) throws(MaskCleanError) -> Value {
        try read(required(members, key, of: node, place: place), "\(place): \(key)")
    }

    /// A value that may be null or left out.
    func optional(_ node: JSONSpan?) -> JSONSpan? {
        guard let node else { return nil }
        if node.kind == .null { return nil }
        return node
    }

    func part(_ members: Members, place: String) throws(MaskCleanError) -> String? {
        try optional(members["part"]).map { (node) throws(MaskCleanError) in
            try string(node, place: "\(place): part")
        }
    }

    /// An array's elements, each read by `read` with its place (`parts[2]`). Past `kept.most`
    /// elements (what a report keeps of them, when it keeps a few), the array is refused before
    /// more are read.
    func list<Element>(
        _ node: JSONSpan, place: String, keeping kept: (most: Int, what: String)? = nil,
        _ read: (JSONSpan, String) throws(MaskCleanError) -> Element
    ) throws(MaskCleanError) -> [Element] {
        guard node.kind == .array else {
            throw fail(node, place, "expected an array, got \(node.kindDescription)")
        }
        var values: [Element] = []
        for (index, (_, element)) in node.elements().enumerated() {
            if let kept, index == kept.most {
                throw fail(element, place, "more than the \(kept.most) \(kept.what)")
            }
            values.append(try read(element, "\(place)[\(index)]"))
        }
        return values
    }

    func string(_ node: JSONSpan, place: String) throws(MaskCleanError) -> String {
        guard let text = node.string else {
            throw fail(node, place, "expected a string, got \(node.kindDescription)")
        }
        return text
    }

    func bool(_ node: JSONSpan, place: String) throws(MaskCleanError) -> Bool {
        guard let value = node.bool else {
            throw fail(node, place, "expected true or false, got \(node.kindDescription)")
        }
        return value
    }

    /// A count: a whole number from 0 to `Count.maximum`, read exactly from its text (not
    /// through a binary number, which would round a count above 2^53).
    func count(_ node: JSONSpan, place: String) throws(MaskCleanError) -> Int {
        guard node.kind == .number, let value = Count.whole(node.numberText) else {
            throw fail(
                node, place, "expected a whole number from 0 to \(Count.maximum), got \(node.kindDescription)"
            )
        }
        return value
    }

    /// A row or line number: a count of 1 or more.
    func positiveCount(_ node: JSONSpan, place: String) throws(MaskCleanError) -> Int {
        guard node.kind == .number, let value = Count.whole(node.numberText), value >= 1 else {
            throw fail(
                node, place, "expected a row number from 1 to \(Count.maximum), got \(node.kindDescription)")
        }
        return value
    }
}
