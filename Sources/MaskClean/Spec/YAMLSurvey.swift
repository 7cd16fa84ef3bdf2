import CLibYAML

/// What libyaml's events say of a YAML text before anything is composed from them: how deep it
/// nests and how many values it holds, aliases expanded.
///
/// `YAMLComposer` composes a tree in which an alias is the anchored node itself, so a few lines
/// of chained aliases (`a2: &a2 [*a1]`, …) make a tree 50,000 deep that the spec reader's
/// recursion then walks: the stack overflows. This pass reads the events one at a time, with a
/// stack of its own, and records for each anchor the height and size of its node, so that an
/// alias counts for all it brings in. A text it refuses is never composed; one it passes is at
/// most `maximumDepth` deep however the spec reader walks it.
struct YAMLSurvey {
    /// Why a text is refused, and the line of the value that goes past the limit.
    enum Refusal: Error {
        case tooDeep(line: Int)
        case tooManyValues(line: Int)
    }

    /// A sequence or mapping not yet ended.
    private struct Open {
        var anchor: String?
        /// The levels from it to its deepest value, itself included, aliases expanded.
        var height = 1
        /// Its values, itself and its keys included, aliases expanded.
        var values = 1
    }

    /// Surveys `bytes` (UTF-8, as the composer is given them). A syntax error ends the survey
    /// early: the composer stops at the same event and reports it, having composed only what was
    /// surveyed.
    static func survey(_ bytes: [UInt8], maximumDepth: Int, maximumValues: Int) throws(Refusal) {
        var parser = yaml_parser_t()
        // Fails only for want of memory, which the composer's parser then meets first.
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        // The composer reads the same bytes with the same settings, so both see the same events.
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        var open: [Open] = []
        // Anchors stay known across documents, as they do in the composer: a later one shadows an earlier.
        var anchors: [String: (height: Int, values: Int)] = [:]
        var total = 0
        return try bytes.withUnsafeBufferPointer { buffer throws(Refusal) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    // libyaml's own bound on nesting (1,000) lies past ours: say it as ours does.
                    if let problem = parser.problem,
                        String(cString: problem).hasPrefix("Maximum nesting level")
                    {
                        throw .tooDeep(line: Int(parser.problem_mark.line) + 1)
                    }
                    return
                }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1

                /// A value of `height` levels and `values` values begins here, below what is open.
                func admit(height: Int, values: Int) throws(Refusal) {
                    if open.count + height > maximumDepth { throw .tooDeep(line: line) }
                    total += values
                    if total > maximumValues { throw .tooManyValues(line: line) }
                }
                /// A value ended: its parent grows by it, and its anchor names what it is.
                func ended(height: Int, values: Int, anchor: String?) {
                    if let anchor { anchors[anchor] = (height, values) }
                    guard !open.isEmpty else { return }
                    open[open.count - 1].height = max(open[open.count - 1].height, height + 1)
                    open[open.count - 1].values += values
                }

                switch event.type {
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    try admit(height: 1, values: 1)
                    ended(height: 1, values: 1, anchor: name(scalar.anchor))
                case YAML_ALIAS_EVENT:
                    // An alias of an anchor not yet ended (or none) is the composer's to report: count it as one.
                    let named = name(event.data.alias.anchor).flatMap { anchors[$0] } ?? (1, 1)
                    try admit(height: named.height, values: named.values)
                    ended(height: named.height, values: named.values, anchor: nil)
                case YAML_SEQUENCE_START_EVENT:
                    try admit(height: 1, values: 1)
                    open.append(Open(anchor: name(event.data.sequence_start.anchor)))
                case YAML_MAPPING_START_EVENT:
                    try admit(height: 1, values: 1)
                    open.append(Open(anchor: name(event.data.mapping_start.anchor)))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = open.popLast() else { return }
                    ended(height: closed.height, values: closed.values, anchor: closed.anchor)
                case YAML_STREAM_END_EVENT:
                    return
                default:
                    continue
                }
            }
        }
    }

    private static func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        anchor.map { String(cString: $0) }
    }
}
