/// The last word on a proposed column's formats before the spec is written (docs/command-line.md,
/// `describe`): whatever proposed them (shapes, number formats, a kind), a format holds only
/// characters a person would type, and its formatted values say what the input says.
enum ProposedFormats {
    /// Changes of meaning a comment names, most common first.
    static let changesShown = 2

    /// Whether `format` holds a character no one types (`ValueShape.isTypeable`: a control or
    /// format character, a private-use or unassigned code point, a line or paragraph separator,
    /// U+FFFD), or an escape of a character that needs none: the shapes escape only the
    /// characters that open or close blocks and the backslash (`ValueShape.freeCharacter`), so
    /// any other escape came from something that is not a value's shape.
    static func isUntypeable(_ format: String) -> Bool {
        guard ValueShape.isTypeable(format) else { return true }
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "\\" else { continue }
            guard let escaped = characters.next(), "[]{}\\".contains(escaped) else { return true }
        }
        return false
    }

    /// Why a column whose formats change what values say is left out: how many values, and the
    /// commonest changes with the shapes of their first value and what it would be written as.
    static func meaningChanged(_ changed: [MeaningChange: (count: Int, example: String)]) -> String {
        let values = changed.values.reduce(0) { $0 + $1.count }
        let ranked = changed.sorted {
            ($0.value.count, $1.value.example) > ($1.value.count, $0.value.example)
        }
        let shown = ranked.prefix(changesShown).map {
            "\($0.key.words) in \($0.value.count) (\($0.value.example))"
        }
        let more = ranked.count > changesShown ? "; and \(ranked.count - changesShown) other changes" : ""
        return "its formats would change what \(SpecProposer.plural(values, "value")) "
            + (values == 1 ? "says" : "say") + ": " + shown.joined(separator: "; ") + more
    }
}

extension ProposedRules {
    /// A number's shape without its sign (`-[00].[0000]` is `[00].[0000]`): the shapes of one
    /// number format, which `numberFormats` writes again after `-` for the negative ones.
    static func unsigned(_ shape: ValueShape) -> ValueShape {
        guard let first = shape.steps.first, first == .literal("-") || first == .literal("+") else {
            return shape
        }
        var unsigned = shape
        unsigned.steps.removeFirst()
        return unsigned
    }
}
