/// Assembles a `Program` step by step; every syntax compiles through it.
struct ProgramBuilder {
    let syntax: any MaskSyntax.Type
    private var steps: [Step] = []
    private var classes: [CharacterClass] = []
    private var classBitmaps: [ASCIIBitmap] = []
    private var literals: [Literal] = []
    private var placeholders: [Character] = []
    private var templateCharacters: [Character?] = []
    /// The ASCII characters matching a literal and its alternatives, by those characters.
    private var literalAccepts: [[Character]: ASCIIBitmap] = [:]

    init(syntax: any MaskSyntax.Type = InputMaskSyntax.self) {
        self.syntax = syntax
    }

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
            // Asking a class for its ASCII members looks up 128 scalars' properties: once per
            // class, not once per slot.
            classBitmaps.append(characterClass.asciiBitmap)
        }
        steps.append(Step(kind: kind, asciiLiteral: 0xFF, index: Int32(index), accepts: classBitmaps[index]))
        placeholders.append(placeholder)
        templateCharacters.append(nil)
    }

    /// Adds a literal: free (output only), fixed (output and extracted value) or optionalFree
    /// (output only, may be left out). It writes `character` when inserted, and is matched by it
    /// or by any of `alternatives`.
    mutating func addLiteral(_ character: Character, kind: StepKind, alternatives: [Character] = []) {
        precondition(kind == .free || kind == .fixed || kind == .optionalFree)
        let utf8 = Array(character.utf8)
        let ascii = utf8.count == 1 && utf8[0] < 0x80 ? utf8[0] : 0xFF
        // The ASCII characters that match, the canonically equivalent ones included (the Kelvin
        // sign is `K`), so that the fast path matches as the cluster walk does.
        var accepts = ASCIIBitmap()
        if ascii != 0xFF && alternatives.isEmpty {
            // No other ASCII character is equivalent to an ASCII one: skip the search, which
            // made a format of many literals slow to compile.
            accepts.insert(ascii)
        } else if let known = literalAccepts[[character] + alternatives] {
            // akmask gives every literal the alternative " ": searched once per literal character.
            accepts = known
        } else {
            for byte in UInt8(0)..<0x80 {
                let candidate = Character(Unicode.Scalar(byte))
                if candidate == character || alternatives.contains(candidate) { accepts.insert(byte) }
            }
            literalAccepts[[character] + alternatives] = accepts
        }
        steps.append(Step(kind: kind, asciiLiteral: ascii, index: Int32(literals.count), accepts: accepts))
        literals.append(Literal(character: character, utf8: utf8, alternatives: alternatives))
        placeholders.append(character)
        templateCharacters.append(nil)
    }

    mutating func addLiteral(_ character: Character, fixed: Bool) {
        addLiteral(character, kind: fixed ? .fixed : .free)
    }

    /// The number of steps so far: the display positions, for AKMaskField's template.
    var count: Int { steps.count }

    /// Sets the template character of every slot, from a template one character long or one
    /// character per step.
    mutating func setTemplate(_ template: [Character]) {
        for index in steps.indices where steps[index].kind == .slot {
            templateCharacters[index] = template.count == 1 ? template[0] : template[index]
        }
    }

    /// The program of the steps added. The steps are finished here, in place (no copy of a
    /// long format's steps): each optional step learns how many like it follow.
    mutating func build(rightToLeft: Bool = false) -> Program {
        for index in steps.indices.dropLast().reversed()
        where steps[index].kind == .optionalSlot || steps[index].kind == .optionalFree {
            let next = steps[index + 1]
            if Program.alike(steps[index], literals, classes, next, literals, classes)
                && next.likeAfter < .max
            {
                steps[index].likeAfter = next.likeAfter + 1
            }
        }
        return Program(
            steps: steps, classes: classes, literals: literals, placeholders: placeholders,
            templateCharacters: templateCharacters, syntax: syntax, rightToLeft: rightToLeft)
    }
}
