/// input-mask's format syntax (docs/mask-syntax.md): `[...]` slots, `{...}` fixed characters, free
/// characters and `\` escapes, compiled to a `Program`.
///
/// Compiling takes three passes, each small: `tokenize` reads the format strictly and reports the
/// first error with its offset; `splitAndSort` divides a `[]` block by kind and puts mandatory
/// slots first, exactly as the reference does; `compile` turns tokens into steps.
enum InputMaskSyntax: MaskSyntax {
    /// The rules every other syntax is described against: none of them.
    static var rules: SyntaxRule { [] }

    static var optionKeys: [String] { ["notations", "rightToLeft"] }

    static func compile(format: String, options: SyntaxOptions) throws(FormatError) -> Program {
        try compile(format, notations: options.notations, rightToLeft: options.rightToLeft)
    }

    enum Token: Equatable {
        case literal(Character, fixed: Bool)
        case slots([Character])
    }

    static func compile(_ format: String, notations: [Notation], rightToLeft: Bool)
        throws(FormatError) -> Program
    {
        let tokens = try tokenize(format, notations: notations)
        guard rightToLeft else { return compile(tokens, notations: notations, rightToLeft: false) }
        // The reference runs right-to-left masks by reversing the format text and fixing up the
        // escapes with four text replacements; the conformance cases keep the odd results that
        // gives (`{\{}` turns into a free `}`). A literal backslash (`\\`) is where that text
        // trick breaks the strict rule that `\\` escapes nothing, and where the reversed text no
        // longer parses, the tokens themselves are reversed instead.
        if !tokens.contains(.literal("\\", fixed: false)) && !tokens.contains(.literal("\\", fixed: true)),
            let reversed = try? tokenize(referenceReversed(format), notations: notations)
        {
            return compile(reversed, notations: notations, rightToLeft: true)
        }
        let reversed = tokens.reversed().map { token -> Token in
            if case .slots(let characters) = token { return .slots(characters.reversed()) }
            return token
        }
        return compile(reversed, notations: notations, rightToLeft: true)
    }

    // MARK: Pass 1: tokens

    static func tokenize(_ format: String, notations: [Notation]) throws(FormatError) -> [Token] {
        var tokens: [Token] = []
        var block: FormatError.Block?
        var blockStart = 0
        var slots: [Character] = []
        var escaped = false
        for (offset, character) in format.enumerated() {
            if escaped {
                escaped = false
                tokens.append(.literal(character, fixed: block == .fixed))
                continue
            }
            switch (character, block) {
            case ("\\", .slots?):
                throw FormatError(.escapeInsideSlots, at: offset)
            case ("\\", _):
                escaped = true
            case ("[", nil):
                block = .slots
                blockStart = offset
                slots = []
            case ("{", nil):
                block = .fixed
                blockStart = offset
            case ("]", .slots?):
                tokens.append(.slots(slots))
                block = nil
            case ("}", .fixed?):
                block = nil
            case ("[", _), ("{", _), ("]", _), ("}", _):
                throw FormatError(.unexpectedBracket(character, block: block), at: offset)
            case (_, .slots?):
                guard builtInSlots.contains(character) || notation(for: character, in: notations) != nil
                else {
                    throw FormatError(.unknownSlotCharacter(character), at: offset)
                }
                slots.append(character)
            case (_, .fixed?):
                tokens.append(.literal(character, fixed: true))
            case (_, nil):
                tokens.append(.literal(character, fixed: false))
            }
        }
        if let block {
            throw FormatError(.unclosedBlock(block), at: blockStart)
        }
        return tokens  // a `\` at the very end escapes nothing and is ignored
    }

    static let builtInSlots: Set<Character> = ["0", "9", "A", "a", "_", "-", "…"]

    static func notation(for character: Character, in notations: [Notation]) -> Notation? {
        notations.first { $0.character == character }
    }

    // MARK: Pass 2: split and sort a [] block

    private enum SlotGroup {
        case digit, letter, alphanumeric, other
    }

    private static func group(of character: Character) -> SlotGroup {
        switch character {
        case "0", "9": return .digit
        case "A", "a": return .letter
        case "_", "-": return .alphanumeric
        default: return .other
        }
    }

    /// `[000AA]` is `[000][AA]`; within a block mandatory slots come first (`[0909]` is
    /// `[0099]`). Custom notation characters and the ellipsis join the run they follow, and sort
    /// by code point with it, as in the reference; an ellipsis always ends its block.
    static func splitAndSort(_ block: [Character]) -> [[Character]] {
        var runs: [[Character]] = []
        var current: [Character] = []
        // The kind of the run's built-in slots, kept as the run grows: asking the run itself for
        // every character made a long block quadratic.
        var currentKind: SlotGroup?
        for character in block {
            let kind = group(of: character)
            if kind != .other {
                if let currentKind, currentKind != kind {
                    runs.append(current)
                    current = []
                }
                currentKind = kind
            }
            current.append(character)
        }
        if !current.isEmpty { runs.append(current) }
        return runs.map(sortRun)
    }

    private static func sortRun(_ run: [Character]) -> [Character] {
        let sorted: [Character]
        if run.contains(where: { group(of: $0) == .digit || group(of: $0) == .letter }) {
            sorted = run.sorted()
        } else {
            // `_` and `-` sort as `A` and `a` would, so the mandatory one comes first.
            func key(_ character: Character) -> Character {
                character == "_" ? "A" : character == "-" ? "a" : character
            }
            sorted = run.sorted { key($0) < key($1) }
        }
        return sorted.filter { $0 != "…" } + sorted.filter { $0 == "…" }
    }

    // MARK: Pass 3: steps

    static func compile(_ tokens: [Token], notations: [Notation], rightToLeft: Bool) -> Program {
        var builder = ProgramBuilder()
        for token in tokens {
            switch token {
            case .literal(let character, let fixed):
                builder.addLiteral(character, fixed: fixed)
            case .slots(let block):
                for run in splitAndSort(block) {
                    var previous: Character = "["
                    for character in run {
                        addSlot(character, after: previous, notations: notations, to: &builder)
                        previous = character
                    }
                }
            }
        }
        return builder.build(rightToLeft: rightToLeft)
    }

    private static func addSlot(
        _ character: Character, after previous: Character, notations: [Notation],
        to builder: inout ProgramBuilder
    ) {
        switch character {
        case "0": builder.addSlot(.slot, .decimalDigit, placeholder: "0")
        case "9": builder.addSlot(.optionalSlot, .decimalDigit, placeholder: "0")
        case "A": builder.addSlot(.slot, .letter, placeholder: "a")
        case "a": builder.addSlot(.optionalSlot, .letter, placeholder: "a")
        case "_": builder.addSlot(.slot, .alphanumeric, placeholder: "-")
        case "-": builder.addSlot(.optionalSlot, .alphanumeric, placeholder: "-")
        case "…":
            builder.addSlot(.ellipsis, inheritedClass(after: previous, notations), placeholder: "…")
        default:
            // tokenize() let only built-in slots and declared notations through.
            guard let notation = notation(for: character, in: notations) else { return }
            builder.addSlot(
                notation.isOptional ? .optionalSlot : .slot,
                .scalars(of: notation.characterSet), placeholder: notation.character)
        }
    }

    /// An ellipsis repeats the type of the slot before it; first in its block, it takes
    /// alphanumerics.
    private static func inheritedClass(after previous: Character, _ notations: [Notation])
        -> CharacterClass
    {
        switch previous {
        case "0", "9": return .decimalDigit
        case "A", "a": return .letter
        case "_", "-", "…", "[": return .alphanumeric
        default:
            if let notation = notation(for: previous, in: notations) {
                return .scalars(of: notation.characterSet)
            }
            return .alphanumeric
        }
    }

    // MARK: The reference's right-to-left format

    /// input-mask's `RTLMask` format: the characters reversed, escapes moved back in front of
    /// the brackets they escape by four replacements in turn, then every bracket mirrored.
    static func referenceReversed(_ format: String) -> String {
        var characters = Array(String(format.reversed()))
        for (bracket, mirrored) in [("[", "]"), ("]", "["), ("{", "}"), ("}", "{")]
            as [(Character, Character)]
        {
            characters = replacing([bracket, "\\"], with: ["\\", mirrored], in: characters)
        }
        return String(
            characters.map { character -> Character in
                switch character {
                case "[": return "]"
                case "]": return "["
                case "{": return "}"
                case "}": return "{"
                default: return character
                }
            })
    }

    /// Left-to-right, non-overlapping replacement, as Foundation's `replacingOccurrences` does.
    private static func replacing(_ pattern: [Character], with replacement: [Character], in text: [Character])
        -> [Character]
    {
        var result: [Character] = []
        result.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if index + pattern.count <= text.count, Array(text[index..<index + pattern.count]) == pattern {
                result += replacement
                index += pattern.count
            } else {
                result.append(text[index])
                index += 1
            }
        }
        return result
    }
}
