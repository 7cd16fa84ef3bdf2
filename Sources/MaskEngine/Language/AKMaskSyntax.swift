/// AKMaskField's format syntax (docs/mask-syntax.md): literal text with blocks in braces, every
/// character inside a block a mandatory slot.
///
/// | symbol | accepts |
/// | --- | --- |
/// | `d` | a Unicode decimal digit |
/// | `D` | anything but a decimal digit |
/// | `W` | anything but a letter, a mark, a decimal digit or connector punctuation (`_`) |
/// | `a` | an ASCII letter |
/// | `.` | anything but a line break |
///
/// A literal is matched by an equal character or by a space (a space stands for any literal),
/// a slot a character does not fit stops the walk, and the formatted value ends at the last
/// filled slot: its `rules`.
enum AKMaskSyntax: MaskSyntax {
    static var rules: SyntaxRule {
        [.misfitStops, .matchedLiteralWritesItself, .formattedEndsAtLastSlot, .mismatchSkipsToSlot]
    }

    static var optionKeys: [String] { ["template"] }

    /// Right to left and notations are input-mask's: AKMaskField has neither.
    static func compile(format: String, options: SyntaxOptions) throws(FormatError) -> Program {
        try compile(format, template: options.template)
    }

    static let slots: [Character: CharacterClass] = [
        "d": .decimalDigit,
        "D": CharacterClass(.decimalDigit, negated: true),
        "W": CharacterClass(.wordCharacter, negated: true),
        "a": CharacterClass(.asciiLetter),
        ".": CharacterClass(.lineBreak, negated: true),
    ]

    /// Compiles a format; `template` is AKMaskField's `maskTemplate`: one character for every
    /// slot, or one character for each position of the mask's display.
    static func compile(_ format: String, template: String?) throws(FormatError) -> Program {
        var builder = ProgramBuilder(syntax: Self.self)
        var blockStart: Int?
        for (offset, character) in format.enumerated() {
            guard let start = blockStart else {
                if character == "{" {
                    blockStart = offset
                } else {
                    // A literal; a space typed where it stands is taken for it.
                    builder.addLiteral(character, kind: .free, alternatives: character == " " ? [] : [" "])
                }
                continue
            }
            switch character {
            case "}":
                guard offset > start + 1 else {
                    throw FormatError(.invalid("empty block {}"), at: start)
                }
                blockStart = nil
            case "{":
                throw FormatError(.unexpectedBracket("{", block: .fixed), at: offset)
            default:
                guard let slot = slots[character] else {
                    throw FormatError(
                        .invalid("unknown symbol '\(character)' inside {} (akmask slots are d D W a .)"),
                        at: offset)
                }
                builder.addSlot(.slot, slot, placeholder: character)
            }
        }
        if let start = blockStart {
            throw FormatError(.unclosedBlock(.fixed), at: start)
        }
        if let template {
            let characters = Array(template)
            guard characters.count == 1 || characters.count == builder.count else {
                throw FormatError(
                    .invalidOption(
                        "template has \(characters.count) characters: it needs one, or \(builder.count) (one for each position of the mask)"
                    ), at: 0)
            }
            builder.setTemplate(characters)
        }
        return builder.build()
    }
}
