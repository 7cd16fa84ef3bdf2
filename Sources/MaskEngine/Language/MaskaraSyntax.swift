/// Maskara's format syntax (docs/mask-syntax.md): one token per character.
///
/// - `D` a Unicode number (`½` and `①` too), `X` an ASCII letter: value slots;
/// - a Unicode decimal digit (`7`, `٣`), or a character of `symbols`: a literal;
/// - postfix `?`: the expression before it is optional;
/// - infix `|`: a choice between the expression before it and the single token after it,
///   left-associative (`7|8|9`); a `?` after a choice applies to the whole choice, and is
///   redundant when a branch is optional already (`D?|7?`); only `??` is an error.
///
/// A choice with `D` or `X` in it is a value slot; a choice of literals (`7|8`, `-| `) is a
/// literal class, written as its left branch. Its `rules`: a character a value slot does not fit
/// stops the walk; letters are upper-cased in the formatted value; literals are mandatory.
enum MaskaraSyntax: MaskSyntax {
    static var rules: SyntaxRule { [.misfitStops, .uppercasesFormatted, .freeLiteralsAreMandatory] }

    static var optionKeys: [String] { ["symbols"] }

    /// Right to left and notations are input-mask's: Maskara has neither.
    static func compile(format: String, options: SyntaxOptions) throws(FormatError) -> Program {
        try compile(format, symbols: options.symbols)
    }

    /// A Unicode decimal digit (`7`, `٣`, `७`): a literal in a Maskara format.
    static func isDecimalDigit(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1
            && character.unicodeScalars.first!.properties.generalCategory == .decimalNumber
    }

    /// Maskara's default `allowedSymbolTokens`: plus, minus, space and parentheses.
    static let defaultSymbols = "+- ()"

    private enum Token: Equatable {
        case number, letter
        case literal(Character)
    }

    /// An expression: one token, or a choice of several, optional or not.
    private struct Element {
        var tokens: [Token]
        var isOptional = false
    }

    static func compile(_ format: String, symbols: String?) throws(FormatError) -> Program {
        let symbols = Set(symbols ?? defaultSymbols)
        var elements: [Element] = []
        /// The offset of a `|` still waiting for its right operand.
        var openChoice: Int?
        var previous: Character?
        for (offset, character) in format.enumerated() {
            defer { previous = character }
            switch character {
            case "?":
                guard openChoice == nil else {
                    throw FormatError(.invalid("'|' without a right operand"), at: openChoice!)
                }
                guard let last = elements.indices.last else {
                    throw FormatError(.invalid("'?' with nothing before it"), at: offset)
                }
                // Only `??` written directly is an error: after a choice with an optional branch
                // (`D?|7?`) the `?` is redundant, the choice being optional already.
                guard previous != "?" else {
                    throw FormatError(.invalid("'?' after an optional expression"), at: offset)
                }
                elements[last].isOptional = true
            case "|":
                if let open = openChoice {
                    throw FormatError(.invalid("'|' without a right operand"), at: open)
                }
                guard !elements.isEmpty else {
                    throw FormatError(.invalid("'|' without a left operand"), at: offset)
                }
                openChoice = offset
            default:
                let token: Token
                if character == "D" {
                    token = .number
                } else if character == "X" {
                    token = .letter
                } else if Self.isDecimalDigit(character) || symbols.contains(character) {
                    token = .literal(character)
                } else {
                    let allowed =
                        "D X ? | digits"
                        + (symbols.isEmpty ? "" : " and the symbols \"\(String(symbols.sorted()))\"")
                    throw FormatError(
                        .invalid("unexpected '\(character)' (maskara tokens are \(allowed))"), at: offset)
                }
                if openChoice != nil {
                    elements[elements.count - 1].tokens.append(token)
                    openChoice = nil
                } else {
                    elements.append(Element(tokens: [token]))
                }
            }
        }
        if let offset = openChoice {
            throw FormatError(.invalid("'|' without a right operand"), at: offset)
        }

        var builder = ProgramBuilder(syntax: Self.self)
        for element in elements {
            let literals = element.tokens.compactMap { token -> Character? in
                if case .literal(let character) = token { return character }
                return nil
            }
            if literals.count == element.tokens.count {
                builder.addLiteral(
                    literals[0], kind: element.isOptional ? .optionalFree : .free,
                    alternatives: Array(literals.dropFirst()))
                continue
            }
            var classes: [CharacterClass] = []
            if element.tokens.contains(.number) { classes.append(CharacterClass(.number)) }
            if element.tokens.contains(.letter) { classes.append(CharacterClass(.asciiLetter)) }
            if !literals.isEmpty { classes.append(.scalars(of: String(literals))) }
            builder.addSlot(
                element.isOptional ? .optionalSlot : .slot,
                classes.count == 1 ? classes[0] : CharacterClass(.union(classes)),
                placeholder: element.tokens.contains(.number) ? "D" : "X")
        }
        return builder.build()
    }
}
