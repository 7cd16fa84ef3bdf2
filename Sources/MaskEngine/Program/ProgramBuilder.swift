/// Assembles a `Program` step by step; every mask language compiles through it.
struct ProgramBuilder {
    private var steps: [Step] = []
    private var classes: [CharacterClass] = []
    private var literals: [Literal] = []
    private var placeholders: [Character] = []

    /// Adds a slot, ellipsis or optional slot taking characters of `characterClass`.
    /// `placeholder` is the character the format's placeholder shows for it.
    mutating func addSlot(_ kind: StepKind, _ characterClass: CharacterClass, placeholder: Character) {
        precondition(kind == .slot || kind == .optionalSlot || kind == .ellipsis)
        let index: Int
        if let existing = classes.firstIndex(of: characterClass) {
            index = existing
        } else {
            index = classes.count
            classes.append(characterClass)
        }
        steps.append(
            Step(
                kind: kind, asciiLiteral: 0xFF, asciiMatch: 0xFF, index: Int32(index),
                accepts: characterClass.asciiBitmap))
        placeholders.append(placeholder)
    }

    /// Adds a free (output only) or fixed (output and extracted value) character.
    mutating func addLiteral(_ character: Character, fixed: Bool) {
        let utf8 = Array(character.utf8)
        let ascii = utf8.count == 1 && utf8[0] < 0x80 ? utf8[0] : 0xFF
        // A literal canonically equivalent to an ASCII character (the Kelvin sign is `K`) must
        // match that character on the ASCII fast path too.
        let match = (UInt8(0)..<0x80).first { Character(Unicode.Scalar($0)) == character } ?? 0xFF
        steps.append(
            Step(
                kind: fixed ? .fixed : .free, asciiLiteral: ascii, asciiMatch: match,
                index: Int32(literals.count),
                accepts: ASCIIBitmap()))
        literals.append(Literal(character: character, utf8: utf8))
        placeholders.append(character)
    }

    func build(rightToLeft: Bool = false) -> Program {
        Program(
            steps: steps, classes: classes, literals: literals, placeholders: placeholders,
            rightToLeft: rightToLeft)
    }
}
