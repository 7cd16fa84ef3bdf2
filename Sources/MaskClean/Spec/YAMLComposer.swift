import CLibYAML

/// A YAML node as a spec needs it: scalars keep their text as written, their tag and whether
/// they were plain (unquoted); every node keeps the line and column it starts at (from 1).
/// Tags are as written, libyaml expanding the handle (`!!str` is `tag:yaml.org,2002:str`):
/// "" when none was written, `!` for the non-specific tag.
indirect enum YAMLNode {
    struct Scalar {
        var text: String
        var tag: String
        var isPlain: Bool
    }

    case scalar(Scalar, YAMLMark)
    case sequence([YAMLNode], tag: String, YAMLMark)
    case mapping([(key: YAMLNode, value: YAMLNode)], tag: String, YAMLMark)

    var mark: YAMLMark {
        switch self {
        case .scalar(_, let mark), .sequence(_, _, let mark), .mapping(_, _, let mark): mark
        }
    }
}

/// Where a node or an error is: line and column, from 1; a column counts characters.
struct YAMLMark: Hashable {
    var line: Int
    var column: Int

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    init(_ mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}

/// Why a YAML text cannot be read.
enum YAMLSyntaxError: Error {
    /// libyaml's problem and where it is, with what it was reading (`while parsing a block
    /// mapping`, and where that began) when it says.
    case syntax(problem: String, YAMLMark, context: (text: String, mark: YAMLMark)?)
    /// Keys written twice in one mapping, sorted, and where the first of them is first written.
    case keysTwice([String], YAMLMark)
}

/// The documents of a YAML text, composed from libyaml's events one at a time: an alias is
/// the node its anchor names, and a mapping that writes a key twice is refused (YAML would keep
/// one silently). Nothing is resolved or constructed: what a plain scalar means is the spec
/// reader's to say (`YAMLResolver`).
///
/// Compose only what `YAMLSurvey` has bounded: aliases share their node here, but whoever walks
/// the tree walks every alias out in full.
final class YAMLComposer {
    /// libyaml's parser points into itself and at the text: both stay where they are allocated.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let text: UnsafeMutableBufferPointer<UInt8>
    private var anchors: [String: YAMLNode] = [:]
    private var finished = false

    /// `text` is UTF-8 without a byte-order mark.
    init(_ text: [UInt8]) {
        self.text = .allocate(capacity: text.count)
        _ = self.text.initialize(from: text)
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        // Fails only for want of memory, which the first event then reports.
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, self.text.baseAddress, self.text.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deinitialize(count: 1)
        parser.deallocate()
        text.deallocate()
    }

    /// The next document's root node; nil after the last.
    func nextDocument() throws(YAMLSyntaxError) -> YAMLNode? {
        while !finished {
            var event = try nextEvent()
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                finished = true
            case YAML_DOCUMENT_START_EVENT:
                var first = try nextEvent()
                defer { yaml_event_delete(&first) }
                let root = try node(from: &first)
                var end = try nextEvent()
                yaml_event_delete(&end)
                return root
            default:
                continue
            }
        }
        return nil
    }

    private func nextEvent() throws(YAMLSyntaxError) -> yaml_event_t {
        var event = yaml_event_t()
        // After an error libyaml hands out empty events (YAML_NO_EVENT): never read past one.
        guard yaml_parser_parse(parser, &event) == 1, event.type != YAML_NO_EVENT else {
            yaml_event_delete(&event)
            throw syntaxError()
        }
        return event
    }

    private func syntaxError() -> YAMLSyntaxError {
        let parser = parser.pointee
        let problem = parser.problem.map { String(cString: $0) } ?? "cannot be read as YAML"
        if parser.error == YAML_READER_ERROR {
            // A reader's error is at a byte offset, not a mark.
            let offset = min(parser.problem_offset, text.count)
            let line = 1 + text[..<offset].count(where: { $0 == UInt8(ascii: "\n") })
            return .syntax(problem: problem, YAMLMark(line: line, column: 1), context: nil)
        }
        let context = parser.context.map { (text: String(cString: $0), mark: YAMLMark(parser.context_mark)) }
        return .syntax(problem: problem, YAMLMark(parser.problem_mark), context: context)
    }

    /// The node whose first event is `event`, read to its end.
    private func node(from event: inout yaml_event_t) throws(YAMLSyntaxError) -> YAMLNode {
        let mark = YAMLMark(event.start_mark)
        switch event.type {
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let scalar = YAMLNode.Scalar(
                text: String(
                    decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self),
                tag: Self.string(data.tag) ?? "", isPlain: data.style == YAML_PLAIN_SCALAR_STYLE)
            return named(.scalar(scalar, mark), Self.string(data.anchor))
        case YAML_ALIAS_EVENT:
            guard let anchor = Self.string(event.data.alias.anchor), let node = anchors[anchor] else {
                throw .syntax(problem: "found undefined alias", mark, context: nil)
            }
            return node
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            var elements: [YAMLNode] = []
            while true {
                var next = try nextEvent()
                defer { yaml_event_delete(&next) }
                if next.type == YAML_SEQUENCE_END_EVENT { break }
                elements.append(try node(from: &next))
            }
            return named(
                .sequence(elements, tag: Self.string(start.tag) ?? "", mark), Self.string(start.anchor))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            while true {
                var next = try nextEvent()
                defer { yaml_event_delete(&next) }
                if next.type == YAML_MAPPING_END_EVENT { break }
                let key = try node(from: &next)
                var value = try nextEvent()
                defer { yaml_event_delete(&value) }
                pairs.append((key, try node(from: &value)))
            }
            try Self.checkKeysOnce(pairs)
            return named(.mapping(pairs, tag: Self.string(start.tag) ?? "", mark), Self.string(start.anchor))
        default:
            // libyaml sends only node events inside a document.
            throw .syntax(problem: "did not find an expected node", mark, context: nil)
        }
    }

    private func named(_ node: YAMLNode, _ anchor: String?) -> YAMLNode {
        // A later anchor of the same name shadows an earlier one.
        if let anchor { anchors[anchor] = node }
        return node
    }

    /// A key written twice in one mapping, by its text (`1` and `"1"` are one key to a spec):
    /// the error is at the first time the first such key (in sorted order) is written.
    private static func checkKeysOnce(_ pairs: [(key: YAMLNode, value: YAMLNode)]) throws(YAMLSyntaxError) {
        var first: [String: YAMLMark] = [:]
        var twice: Set<String> = []
        for (key, _) in pairs {
            guard case .scalar(let scalar, let mark) = key else { continue }
            if first[scalar.text] == nil { first[scalar.text] = mark } else { twice.insert(scalar.text) }
        }
        let names = twice.sorted()
        guard let earliest = names.first, let mark = first[earliest] else { return }
        throw .keysTwice(names, mark)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
