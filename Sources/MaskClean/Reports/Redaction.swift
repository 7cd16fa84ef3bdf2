/// What a redacted sample hides of a value (docs/report.md#samples-redacted-by-default), and what `describe`'s comments hide
/// of the data (docs/command-line.md): every letter and every numeric character of any script,
/// with the marks attached to it, so that only the value's shape is left.
///
/// A character (as a reader sees one: a letter and its accents are one) is hidden when any of its
/// code points is a letter, a number or a mark (Unicode L, N, M) or alphabetic (a circled
/// letter), and shows as `9` when it is a number of any kind (a digit, a circled or superscript
/// numeral, a Roman one), as `X` when it is an upper-case or title-case letter, and as `x`
/// otherwise: lower case, and the letters of scripts without case. Every other character (spaces,
/// punctuation, symbols) stays.
enum Redaction {
    /// The placeholder that `character` shows as, or nil when it is shown as it is.
    static func placeholder(_ character: Character) -> Character? {
        // ASCII, most of every value, without Unicode's tables.
        if let ascii = character.asciiValue {
            switch ascii {
            case 0x30...0x39: return "9"
            case 0x41...0x5A: return "X"
            case 0x61...0x7A: return "x"
            default: return nil
            }
        }
        guard let hidden = character.unicodeScalars.first(where: isHidden) else { return nil }
        let properties = hidden.properties
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber: return "9"
        case .titlecaseLetter: return "X"
        default: return properties.isUppercase ? "X" : "x"
        }
    }

    /// `value` with every character that redaction hides replaced by its placeholder.
    static func redact(_ value: String) -> String {
        var shape = ""
        shape.reserveCapacity(value.utf8.count)
        for character in value { shape.append(placeholder(character) ?? character) }
        return shape
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default: return properties.isAlphabetic
        }
    }
}
