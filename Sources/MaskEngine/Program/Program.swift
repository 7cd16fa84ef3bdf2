/// What one step of a compiled mask does with the character in front of it.
///
/// A format compiles to a flat array of steps that the walker visits left to right. Each kind's
/// rule sits beside it; `Walker.swift` holds the loop that applies them.
enum StepKind: UInt8, Sendable {
    /// Takes one character of its class. A character that does not fit is skipped (input-mask),
    /// or stops the walk (syntaxes whose `misfit` policy is `.stop`). Input-mask's `0 A _`.
    case slot
    /// Takes one character of its class; one that does not fit is passed over without being
    /// consumed, and the step is left behind. Input-mask's `9 a -`.
    case optionalSlot
    /// Takes characters of its class for ever; never left behind. Input-mask's `…`.
    case ellipsis
    /// A character of the output only: consumes an equal input character, or is inserted.
    case free
    /// A character of the output and of the extracted value; consumes or is inserted like `free`.
    case fixed
    /// A character of the output that may be left out: consumes an equal input character, or is
    /// passed over without being inserted. Maskara's `-?`.
    case optionalFree
}

/// One compiled step. Kept trivial (no references) so the walker reads it straight from memory.
struct Step: Sendable {
    var kind: StepKind
    /// The literal's byte when it is a single ASCII character, else 0xFF (never an ASCII byte).
    var asciiLiteral: UInt8
    /// For an optional step, how many steps just like it follow (at most 65,535): a character
    /// one of them passes over, they all pass over, at once. Declared here, in the bytes the
    /// alignment of `index` leaves free, so that a step stays 24 bytes.
    var likeAfter: UInt16 = 0
    /// Index into `Program.classes` (slots) or `Program.literals` (free and fixed).
    var index: Int32
    /// For a slot, the class's ASCII members, copied here so the fast path needs no second
    /// lookup; for a literal, the ASCII characters that match it (canonically equal to it, or to
    /// one of its alternatives: the Kelvin sign matches `K`).
    var accepts: ASCIIBitmap

    var isLiteral: Bool { kind == .free || kind == .fixed || kind == .optionalFree }
    var isValue: Bool { !isLiteral }
}

/// The literal of a free or fixed step, with its UTF-8 bytes ready to copy.
struct Literal: Equatable, Sendable {
    /// What the step writes when it is inserted (a literal class's left branch).
    var character: Character
    var utf8: [UInt8]
    /// Other characters that match the step: the rest of a literal class (Maskara's `-| `).
    var alternatives: [Character] = []
}

/// A compiled format: immutable, `Sendable`, shared by every thread that applies it.
///
/// A class so that handing a mask around costs one reference count, not one per array.
final class Program: Sendable {
    let steps: [Step]
    let classes: [CharacterClass]
    let literals: [Literal]
    /// For each step, the character input-mask's placeholder shows for it.
    let placeholders: [Character]
    /// For each step, the character the template column shows for an unfilled slot, when the
    /// format says (AKMaskField's template); nil: the column's placeholder character.
    let templateCharacters: [Character?]
    /// The syntax the program was compiled from, as the type that carries its rules: `run`
    /// walks by them and `completeFrom` follows them.
    let syntax: any MaskSyntax.Type
    /// `completeFrom[i]`: stopping before step `i` leaves no mandatory step unfilled.
    let completeFrom: [Bool]
    /// Characters whose loss counts: letters, digits, and the sets of custom notations in use.
    let dataASCII: ASCIIBitmap
    let dataClasses: [CharacterClass]
    /// The characters the column counts as data besides those (`SyntaxOptions.significant`).
    let significant: CharacterClass?
    /// Whether every literal is a character that cannot merge with its neighbours, so that on
    /// ASCII input the output's grapheme clusters are exactly the characters written.
    let literalsAreInert: Bool
    /// Whether every literal is one ASCII character: on ASCII input, a byte of output is then a
    /// character.
    let literalsAreASCII: Bool
    let literalByteCount: Int
    /// The steps are in right-to-left order, for a value walked from its end.
    let rightToLeft: Bool
    /// The capacity strategies' lengths, counted once.
    private let capacities: (text: Int, value: Int, consumable: Int, mandatorySlots: Int)

    init(
        steps: [Step], classes: [CharacterClass], literals: [Literal], placeholders: [Character],
        templateCharacters: [Character?], syntax: any MaskSyntax.Type, rightToLeft: Bool,
        significant: CharacterClass? = nil
    ) {
        self.rightToLeft = rightToLeft
        self.templateCharacters = templateCharacters
        self.syntax = syntax
        self.classes = classes
        self.literals = literals
        self.placeholders = placeholders
        // What must still come for a value to be complete: mandatory slots and fixed characters
        // everywhere; free literals too where the syntax says they are mandatory.
        let freeLiteralsAreMandatory = syntax.rules.contains(.freeLiteralsAreMandatory)
        var completeFrom = [Bool](repeating: true, count: steps.count + 1)
        for index in steps.indices.reversed() {
            switch steps[index].kind {
            case .slot, .fixed: completeFrom[index] = false
            case .free: completeFrom[index] = freeLiteralsAreMandatory ? false : completeFrom[index + 1]
            case .ellipsis: completeFrom[index] = true
            case .optionalSlot, .optionalFree: completeFrom[index] = completeFrom[index + 1]
            }
        }
        self.completeFrom = completeFrom
        self.steps = steps
        var dataASCII = Self.letterOrDigitASCII
        var dataClasses: [CharacterClass] = []
        for step in steps where step.isValue {
            let characterClass = classes[Int(step.index)]
            if case .scalars = characterClass.base, !dataClasses.contains(characterClass) {
                dataClasses.append(characterClass)
                dataASCII.formUnion(characterClass.asciiBitmap)
            }
        }
        if let significant {
            dataClasses.append(significant)
            dataASCII.formUnion(significant.asciiBitmap)
        }
        self.significant = significant
        self.dataASCII = dataASCII
        self.dataClasses = dataClasses
        self.literalsAreInert = literals.allSatisfy { $0.character.isInert }
        self.literalsAreASCII = literals.allSatisfy { $0.utf8.count == 1 && $0.utf8[0] < 0x80 }
        self.literalByteCount = literals.reduce(0) { $0 + $1.utf8.count }
        let reachable = steps.firstIndex { $0.kind == .ellipsis }.map { steps[...$0] } ?? steps[...]
        self.capacities = (
            reachable.count, reachable.count { $0.kind != .free },
            steps.contains { $0.kind == .ellipsis } ? Int.max : steps.count,
            reachable.count { $0.kind == .slot }
        )
    }

    /// This program, with `characters` counted as data too: dropping one makes a value lossy.
    func counting(significant characters: String) -> Program {
        guard !characters.isEmpty else { return self }
        return Program(
            steps: steps, classes: classes, literals: literals, placeholders: placeholders,
            templateCharacters: templateCharacters, syntax: syntax, rightToLeft: rightToLeft,
            significant: .scalars(of: characters))
    }

    /// The ASCII letters and digits, worked out once for the process rather than per program.
    static let letterOrDigitASCII: ASCIIBitmap = {
        var bitmap = ASCIIBitmap()
        for byte in UInt8(0)..<128 where Character(Unicode.Scalar(byte)).isLetterOrDigitCluster {
            bitmap.insert(byte)
        }
        return bitmap
    }()

    /// Whether dropping this character loses data (docs/cell-status.md: letters, digits and custom sets).
    func isData(_ character: Character) -> Bool {
        if character.isLetterOrDigitCluster { return true }
        guard let first = character.unicodeScalars.first else { return false }
        return dataClasses.contains { $0.contains(first) }
    }

    // MARK: Facts

    /// The steps input-mask's length facts look at: all of them, or up to the first ellipsis,
    /// after which nothing is ever reached.
    private var reachableSteps: ArraySlice<Step> {
        if let ellipsis = steps.firstIndex(where: { $0.kind == .ellipsis }) {
            return steps[...ellipsis]
        }
        return steps[...]
    }

    /// input-mask's `totalTextLength`: every reachable step, the ellipsis counted once.
    var capacityTextLength: Int { capacities.text }

    /// input-mask's `totalValueLength`: the reachable steps that add to the extracted value.
    var capacityValueLength: Int { capacities.value }

    var isElliptical: Bool { steps.contains { $0.kind == .ellipsis } }

    /// The most characters of a value a walk can consume: one per step, unbounded with an
    /// ellipsis.
    var consumableCount: Int { capacities.consumable }

    /// The mandatory slots a value must fill to be complete: those before the first ellipsis.
    var mandatorySlotCount: Int { capacities.mandatorySlots }

    /// How many first steps this program shares with `other`, walking them by the same rules: a
    /// value whose walk through one stays within them walks the other the same way.
    func sharedSteps(with other: Program) -> Int {
        guard walksByTheSameRules(as: other) else { return 0 }
        var shared = 0
        while shared < steps.count && shared < other.steps.count
            && Self.alike(
                steps[shared], literals, classes, other.steps[shared], other.literals, other.classes)
        {
            shared += 1
        }
        return shared
    }

    /// Whether alike steps walk a value alike in both programs: the same syntax rules and
    /// direction, and the same characters whose loss counts.
    func walksByTheSameRules(as other: Program) -> Bool {
        syntax.rules == other.syntax.rules && rightToLeft == other.rightToLeft
            && literalsAreInert == other.literalsAreInert && dataASCII == other.dataASCII
            && dataClasses == other.dataClasses
    }

    /// Whether a step, with its program's literals and classes, does with any character what
    /// another does with its own.
    static func alike(
        _ step: Step, _ literals: [Literal], _ classes: [CharacterClass],
        _ other: Step, _ otherLiterals: [Literal], _ otherClasses: [CharacterClass]
    ) -> Bool {
        guard
            step.kind == other.kind && step.asciiLiteral == other.asciiLiteral
                && step.accepts == other.accepts
        else { return false }
        if step.isLiteral {
            return literals[Int(step.index)] == otherLiterals[Int(other.index)]
        }
        return classes[Int(step.index)] == otherClasses[Int(other.index)]
    }

    var minimumTextLength: Int {
        reachableSteps.count { $0.kind == .slot || $0.kind == .free || $0.kind == .fixed }
    }

    var minimumValueLength: Int {
        reachableSteps.count { $0.kind == .slot || $0.kind == .fixed }
    }

    func placeholder(from start: Int) -> String {
        var text = ""
        for index in start..<steps.count {
            if steps[index].kind == .ellipsis { break }
            text.append(placeholders[index])
        }
        return text
    }
}

extension Character {
    /// A letter, mark or number as its base: what docs/cell-status.md calls a character that carries data.
    var isLetterOrDigitCluster: Bool {
        guard let first = unicodeScalars.first else { return false }
        return first.isLetterOrMark || first.isNumber
    }

    /// A character that forms its own grapheme cluster next to any neighbour: no marks, joiners,
    /// controls, Hangul jamo, regional indicators or emoji modifiers, and no CR or LF.
    var isInert: Bool {
        unicodeScalars.allSatisfy(\.isInert)
    }
}

extension Unicode.Scalar {
    fileprivate var isInert: Bool {
        switch value {
        case 0x20...0x7E: return true
        case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF:  // Hangul jamo
            return false
        case 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF:  // regional indicators, skin tones
            return false
        case 0x0D4E, 0x0E33, 0x0EB3, 0xFF9E, 0xFF9F, 0x111C2, 0x111C3, 0x1193F, 0x11941,
            0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x11F02:  // letters that prepend or extend
            return false
        default:
            break
        }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .control, .format, .surrogate,
            .privateUse, .unassigned, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }
}

extension Program {
    /// The template of the part of the mask a value did not reach (docs/mask-syntax.md): literals as they
    /// are, each mandatory slot as `placeholder`, optional slots and ellipses left out. Right to
    /// left, it is the part before the value, in reading order.
    func templateRest(from start: Int, placeholder: Character) -> String {
        var text = ""
        for index in start..<steps.count {
            let step = steps[index]
            switch step.kind {
            case .free, .fixed: text.append(literals[Int(step.index)].character)
            case .slot: text.append(templateCharacters[index] ?? placeholder)
            case .optionalSlot, .ellipsis, .optionalFree: continue
            }
        }
        return rightToLeft ? String(text.reversed()) : text
    }
}
