/// A YAML spec (docs/spec.md), read into the tree a JSON spec makes, so that one reader checks
/// both with the same keys, defaults and messages. What the tree cannot say is kept beside it:
/// the line of every node and key, and what each plain scalar was written as.
///
/// YAML that would surprise is refused here or by the reader: a key written twice, a tag, a
/// second document, and (in `SpecReader`) a plain scalar that YAML reads as a number, a boolean
/// or null where the spec wants a string.
struct YAMLSpec {
    /// A plain (unquoted) scalar that YAML reads as something other than a string.
    struct PlainScalar: Sendable {
        /// As written: `0000`, `no`, `~`.
        var text: String
        /// What YAML reads it as: `a number`, `a boolean`, `null`, `a date`.
        var readsAs: String
    }

    /// The line of each node, by its number: a node's `offset` in the tree numbers it here.
    private(set) var lines: [Int] = []
    /// For each object, by its node's number, the line of each of its keys.
    private(set) var keyLines: [Int: [String: Int]] = [:]
    /// The plain scalars that YAML reads as something other than a string, by node number.
    private(set) var plainScalars: [Int: PlainScalar] = [:]

    private let file: String

    /// Parses `bytes` (UTF-8, the byte-order mark already removed) into the tree the JSON reader
    /// makes, and the places of its nodes.
    static func parse(_ bytes: [UInt8], file: String) throws(MaskCleanError) -> (JSONNode, YAMLSpec) {
        var spec = YAMLSpec(file: file)
        let text = try spec.decodedText(bytes)
        // Bounded before a tree is composed: aliases repeat a value without writing it again,
        // so a few lines could otherwise expand to billions of values, or nest 50,000 deep. The
        // bound on values is a JSON spec's (SpecLoader.maximumValues): one spec, either form.
        let maximumValues = SpecLoader.maximumValues
        do throws(YAMLSurvey.Refusal) {
            try YAMLSurvey.survey(
                bytes, maximumDepth: JSONScanner.maximumDepth, maximumValues: maximumValues)
        } catch {
            switch error {
            case .tooDeep(let line):
                throw spec.fail(line: line, "nested more than \(JSONScanner.maximumDepth) deep")
            case .tooManyValues(let line):
                throw spec.fail(line: line, "more than \(maximumValues) values once its aliases are expanded")
            }
        }
        let (first, second): (YAMLNode?, YAMLNode?)
        do throws(YAMLSyntaxError) {
            let composer = YAMLComposer(Array(text.utf8))
            first = try composer.nextDocument()
            second = first == nil ? nil : try composer.nextDocument()
        } catch {
            throw spec.syntaxError(error, text: text)
        }
        guard let document = first else {
            throw spec.fail(line: 1, "no YAML document: a spec is a mapping with the key \"columns\"")
        }
        if let second {
            throw spec.fail(
                line: second.mark.line, "a second YAML document (after ---): a spec is one document")
        }
        guard case .mapping = document else {
            throw spec.fail(
                line: document.mark.line,
                "the document is \(Self.kind(of: document)), not a mapping: a spec is a mapping with the key \"columns\""
            )
        }
        let root = try spec.convert(document)
        return (root, spec)
    }

    private func fail(line: Int, _ what: String) -> MaskCleanError {
        .spec("\(file):\(line)", nil, UsageMessage(what))
    }

    private func fail(_ node: YAMLNode, _ what: String) -> MaskCleanError {
        fail(line: node.mark.line, what)
    }

    // MARK: Text

    /// The text, or the line of its first byte that is not UTF-8.
    private func decodedText(_ bytes: [UInt8]) throws(MaskCleanError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" { line += 1 }
            case .emptyInput:
                return String(decoding: bytes, as: UTF8.self)
            case .error:
                throw fail(
                    line: line, "not UTF-8 (byte \(offset + 1) of the file): a YAML spec is UTF-8 text")
            }
        }
    }

    /// A YAML syntax error, with its line and column: `spec.yaml:3: column 7: mapping values are
    /// not allowed in this context`.
    private func syntaxError(_ error: YAMLSyntaxError, text: String) -> MaskCleanError {
        switch error {
        case .syntax(let problem, let mark, let context):
            let during = context.map { " (\($0.text), line \($0.mark.line))" } ?? ""
            return fail(
                line: mark.line,
                "column \(mark.column): \(problem)\(during)\(Self.flowHint(text, line: mark.line))")
        case .keysTwice(let keys, let mark):
            let named = keys.map { "\"\($0)\"" }.joined(separator: ", ")
            return fail(
                line: mark.line,
                "key \(named) written twice in one mapping (the first is on this line): YAML would keep one silently"
            )
        }
    }

    /// A format written unquoted that starts with `[` or `{` is a YAML list or mapping, and
    /// what follows it a syntax error: the message says to quote it.
    private static func flowHint(_ text: String, line: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count,
            let match = lines[line - 1].firstMatch(of: /^\s*(?:-\s+)?[A-Za-z]+:\s+([\[{].*?)\s*$/)
        else { return "" }
        // A line's value, as long as a format is at most: a longer one is cut.
        var value = String(match.output.1)
        if value.count > 80 { value = value.prefix(80) + "…" }
        return
            "; a value that starts with \(value.first!) is a YAML list or mapping: quote it, as \(JSONTextWriter.quoted(value))"
    }

    // MARK: Nodes

    private mutating func number(_ node: YAMLNode) -> Int {
        lines.append(node.mark.line)
        return lines.count - 1
    }

    /// The survey bounded the depth and the values, aliases expanded, so that this recursion
    /// goes no deeper than the limit and ends.
    private mutating func convert(_ node: YAMLNode) throws(MaskCleanError) -> JSONNode {
        switch node {
        case .scalar(let scalar, _):
            let id = number(node)
            // The tag as written: "" when none was (the scalar is read from its style), `!` or
            // `!!str` for a string.
            guard scalar.tag.isEmpty || scalar.tag == "!" || scalar.tag == Self.stringTag else {
                throw fail(
                    node,
                    "the tag \(Self.shortTag(scalar.tag)) is not part of a spec: write the value without it")
            }
            guard scalar.tag.isEmpty, scalar.isPlain else { return .string(scalar.text, offset: id) }
            return plain(scalar.text, id: id)
        case .sequence(let sequence, let tag, _):
            try checkTag(tag, node, allowed: "tag:yaml.org,2002:seq")
            let id = number(node)
            var elements: [JSONNode] = []
            for element in sequence {
                elements.append(try convert(element))
            }
            return .array(elements, offset: id)
        case .mapping(let mapping, let tag, _):
            try checkTag(tag, node, allowed: "tag:yaml.org,2002:map")
            let id = number(node)
            var pairs: [(key: String, value: JSONNode)] = []
            var lines: [String: Int] = [:]
            var merged: [YAMLNode] = []
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar, _) = keyNode else {
                    throw fail(keyNode, "a key that is \(Self.kind(of: keyNode)): keys are names")
                }
                // A merge key is `<<` written plain and untagged.
                if keyScalar.text == "<<", keyScalar.isPlain, keyScalar.tag.isEmpty {
                    merged.append(valueNode)
                    continue
                }
                pairs.append((keyScalar.text, try convert(valueNode)))
                lines[keyScalar.text] = keyNode.mark.line
            }
            // A merge key (`<<: *defaults`) adds the keys of the mappings it names that the
            // mapping does not write itself; of two merged mappings, the first listed wins.
            for source in merged.flatMap(Self.mergedMappings) {
                guard case .mapping = source else {
                    throw fail(source, "<< merges mappings, not \(Self.kind(of: source))")
                }
                guard case .object(let sourcePairs, let sourceID) = try convert(source)
                else {
                    continue
                }
                for (key, value) in sourcePairs where lines[key] == nil {
                    pairs.append((key, value))
                    lines[key] = keyLines[sourceID]?[key] ?? self.lines[sourceID]
                }
            }
            keyLines[id] = lines
            return .object(pairs, offset: id)
        }
    }

    private static func mergedMappings(_ value: YAMLNode) -> [YAMLNode] {
        if case .sequence(let sequence, _, _) = value { return sequence }
        return [value]
    }

    private func checkTag(_ written: String, _ node: YAMLNode, allowed: String) throws(MaskCleanError) {
        guard written.isEmpty || written == "!" || written == allowed else {
            throw fail(
                node, "the tag \(Self.shortTag(written)) is not part of a spec: write the value without it")
        }
    }

    private static let stringTag = "tag:yaml.org,2002:str"

    /// `!!binary` for `tag:yaml.org,2002:binary`; a local tag as written.
    private static func shortTag(_ tag: String) -> String {
        let prefix = "tag:yaml.org,2002:"
        return tag.hasPrefix(prefix) ? "!!" + tag.dropFirst(prefix.count) : tag
    }

    private static func kind(of node: YAMLNode) -> String {
        switch node {
        case .mapping: "a mapping"
        case .sequence: "a sequence"
        case .scalar: "a scalar"
        }
    }

    /// A plain scalar: what YAML reads it as. A YAML 1.1 reader (as PyYAML is) and a YAML 1.2 one
    /// disagree on some (`no`, `0777`, `1_000`); the reader refuses those where it wants a string,
    /// and takes as numbers only the decimal numbers that every reader reads alike.
    private mutating func plain(_ text: String, id: Int) -> JSONNode {
        var resolved = YAMLResolver.reading(ofPlain: text)
        // YAML 1.2 also reads `-.5` and `+.5` as numbers.
        if resolved == .string, Self.isDecimal(text) { resolved = .float }
        switch resolved {
        case .null:
            plainScalars[id] = PlainScalar(text: text, readsAs: "null")
            return .null(offset: id)
        case .bool:
            plainScalars[id] = PlainScalar(text: text, readsAs: "a boolean")
            return .bool(["true", "yes", "on"].contains(text.lowercased()), offset: id)
        case .int, .float:
            plainScalars[id] = PlainScalar(text: text, readsAs: "a number")
            return .number(Self.isDecimal(text) ? Double(text) ?? .nan : .nan, text: text, offset: id)
        case .timestamp:
            plainScalars[id] = PlainScalar(text: text, readsAs: "a date")
            return .string(text, offset: id)
        default:
            return .string(text, offset: id)
        }
    }

    /// A number every YAML reader and JSON read alike: `12`, `-0.5`, `0.98`, `1e3`, not `0777`,
    /// `0x1F`, `1_000`, `.inf` or `1:30`.
    static func isDecimal(_ text: String) -> Bool {
        text.wholeMatch(
            of: /[-+]?(0|[1-9][0-9]*)(\.[0-9]*)?([eE][-+]?[0-9]+)?|[-+]?\.[0-9]+([eE][-+]?[0-9]+)?/)
            != nil
    }
}
