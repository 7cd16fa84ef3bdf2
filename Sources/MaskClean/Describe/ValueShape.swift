/// A value's shape (docs/command-line.md, `describe`): each digit a digit slot, each letter a
/// letter slot, every other character itself. Values of one shape fit one format, which the
/// shape writes in the input-mask syntax: runs of slots become `[...]` blocks and the other
/// characters stay free characters, so `(555) 123-4567` is `([000]) [000]-[0000]`.
struct ValueShape: Hashable, Sendable {
    enum Step: Hashable, Sendable {
        case digit, letter
        case literal(Character)
    }

    var steps: [Step]

    /// Slots are judged as the engine judges them (docs/mask-syntax.md): a digit is a decimal
    /// digit (Unicode Nd), a letter a letter or mark (L, M), and a character of several code
    /// points fits a slot only when every one of them fits.
    init(_ value: String) {
        steps = value.map { character in
            // ASCII, most of every export, without Unicode's tables.
            if let ascii = character.asciiValue {
                switch ascii {
                case 0x30...0x39: return .digit
                case 0x41...0x5A, 0x61...0x7A: return .letter
                default: return .literal(character)
                }
            }
            let scalars = character.unicodeScalars
            if scalars.allSatisfy({ $0.properties.generalCategory == .decimalNumber }) { return .digit }
            if scalars.allSatisfy({ Self.isLetterOrMark($0.properties.generalCategory) }) { return .letter }
            return .literal(character)
        }
    }

    /// The shape a format written by `format` stands for: `format` names one shape, so that a
    /// tally keeps the text and not the steps.
    init(format: String) {
        steps = []
        var characters = format.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\\": characters.next().map { steps.append(.literal($0)) }
            case "[":
                while let slot = characters.next(), slot != "]" {
                    steps.append(slot == "0" ? .digit : .letter)
                }
            default: steps.append(.literal(character))
            }
        }
    }

    /// The shape as an input-mask format that every value of the shape fills exactly.
    var format: String { format(hidingData: false) }

    /// FAST PATH: `ValueShape(value).format` for a value of printable ASCII characters only
    /// (most of every export), written from its bytes without its steps; nil for any other
    /// value. Each such byte is a character of its own (no mark follows, no CR LF pair), a
    /// digit or letter slot or a free character, so the format is the one the steps write;
    /// `DescribeFastPathTests` hold the two equal.
    static func asciiFormat(_ value: String) -> String? {
        var format: [UInt8] = []
        format.reserveCapacity(value.utf8.count + 8)
        var open: UInt8 = 0
        for byte in value.utf8 {
            let slot: UInt8
            switch byte {
            case 0x30...0x39: slot = 0x30
            case 0x41...0x5A, 0x61...0x7A: slot = 0x41
            case 0x20...0x7E: slot = 0
            default: return nil
            }
            if slot != open {
                if open != 0 { format.append(0x5D) }
                if slot != 0 { format.append(0x5B) }
                open = slot
            }
            if slot != 0 {
                format.append(slot)
            } else {
                // `freeCharacter`: the characters that open or close blocks, and the backslash.
                if byte == 0x5B || byte == 0x5D || byte == 0x7B || byte == 0x7D || byte == 0x5C {
                    format.append(0x5C)
                }
                format.append(byte)
            }
        }
        if open != 0 { format.append(0x5D) }
        return String(decoding: format, as: UTF8.self)
    }

    /// The format as a comment shows it: a character outside the slots that redaction hides (a
    /// circled numeral, a digit with a mark) is its placeholder (`Redaction`), so that a comment
    /// shows no letter or numeral of the data.
    var shownFormat: String { format(hidingData: true) }

    private func format(hidingData: Bool) -> String {
        var text = ""
        var index = 0
        while index < steps.count {
            switch steps[index] {
            case .literal(let character):
                let placeholder = hidingData ? Redaction.placeholder(character) : nil
                text += placeholder.map { String($0) } ?? Self.freeCharacter(character)
                index += 1
            case .digit, .letter:
                let kind = steps[index]
                var end = index
                while end < steps.count && steps[end] == kind { end += 1 }
                text += "[" + String(repeating: kind == .digit ? "0" : "A", count: end - index) + "]"
                index = end
            }
        }
        return text
    }

    /// The shape without the characters a format may drop or insert without loss (spaces,
    /// punctuation, symbols: docs/cell-status.md): values of one skeleton fit the format of any
    /// shape of it, so `[0000] [0000] [0000] [0000]` takes `[0000000000000000]` whole.
    var skeleton: [Step] {
        steps.filter { step in
            guard case .literal(let character) = step, let first = character.unicodeScalars.first else {
                return true
            }
            if first.isASCII { return false }  // ASCII letters and digits are slots, never literals
            switch first.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                return true
            default: return false
            }
        }
    }

    /// Whether a person would type every character of `value`, so that its shape may be a
    /// format: not a control character (an escape sequence, a tab, a line break), a format
    /// character (a zero-width joiner, a direction mark, a byte-order mark), a private-use or
    /// unassigned code point, a line or paragraph separator, or U+FFFD, which stands for bytes
    /// that were not UTF-8.
    static func isTypeable(_ value: String) -> Bool {
        value.utf8.allSatisfy { (0x20...0x7E).contains($0) } || value.unicodeScalars.allSatisfy(isTypeable)
    }

    /// Whether every character of the shape is one a person would type: such characters are
    /// never letters or digits, so only its free characters need a look.
    var isTypeable: Bool {
        steps.allSatisfy { step in
            guard case .literal(let character) = step else { return true }
            return character.unicodeScalars.allSatisfy(Self.isTypeable)
        }
    }

    private static func isTypeable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator:
            false
        default: scalar != "\u{FFFD}"
        }
    }

    /// Whether the shape is one run of digits and nothing else.
    var isDigitsOnly: Bool { !steps.isEmpty && steps.allSatisfy { $0 == .digit } }

    /// How many runs of letters the shape holds (words, in free text).
    var letterRuns: Int {
        zip(steps, [nil] + steps.map(Optional.some)).filter { $0 == .letter && $1 != .letter }.count
    }

    /// Whether the shape holds a run of at least `length` letters (a word, in free text).
    func hasLetterRun(of length: Int) -> Bool {
        var run = 0
        for step in steps {
            run = step == .letter ? run + 1 : 0
            if run >= length { return true }
        }
        return false
    }

    /// A character written as a free character of a format: the characters that open or close
    /// blocks, and the backslash, are escaped.
    static func freeCharacter(_ character: Character) -> String {
        "[]{}\\".contains(character) ? "\\\(character)" : String(character)
    }

    private static func isLetterOrMark(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark:
            true
        default: false
        }
    }
}
