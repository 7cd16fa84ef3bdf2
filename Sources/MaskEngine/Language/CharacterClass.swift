/// The set of characters a value slot accepts.
///
/// Membership is decided per Unicode scalar; a grapheme cluster fits a slot only when every
/// scalar in it belongs to the class (so `é` written as `e` + U+0301 is a letter, and the keycap
/// `1️⃣` is not a digit). This is how input-mask's `CharacterSet.isSuperset(of:)` behaves.
public struct CharacterClass: Hashable, Sendable {
    public enum Base: Hashable, Sendable {
        /// Unicode general category Nd: input-mask's `0` and `9`.
        case decimalDigit
        /// Categories L* and M*: input-mask's `A` and `a`.
        case letter
        /// Categories L*, M* and N*: input-mask's `_` and `-` (so `²` fits).
        case alphanumeric
        /// Category N*: Maskara's `D` (`½` and `①` fit).
        case number
        /// `A`–`Z` and `a`–`z` only: AKMaskField's `a`, Maskara's `X`.
        case asciiLetter
        /// Letters, marks, decimal digits and connector punctuation (`_`): the complement of
        /// AKMaskField's `W`.
        case wordCharacter
        /// Line breaks (LF, VT, FF, CR, NEL, LS, PS): the complement of AKMaskField's `.`.
        case lineBreak
        /// The scalars of a custom notation's `characterSet`, sorted.
        case scalars([UInt32])
        /// Any of several classes: Maskara's `D|X`.
        indirect case union([CharacterClass])
    }

    public var base: Base
    /// A negated class accepts every scalar its base does not (AKMaskField's `D`, `W` and `.`).
    public var isNegated: Bool

    public init(_ base: Base, negated: Bool = false) {
        self.base = base
        self.isNegated = negated
    }

    public static let decimalDigit = CharacterClass(.decimalDigit)
    public static let letter = CharacterClass(.letter)
    public static let alphanumeric = CharacterClass(.alphanumeric)

    /// A custom notation's set: the characters of `characters`, taken literally, scalar by scalar.
    public static func scalars(of characters: String) -> CharacterClass {
        let values = Set(characters.unicodeScalars.map(\.value))
        return CharacterClass(.scalars(values.sorted()))
    }

    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        baseContains(scalar) != isNegated
    }

    /// Whether a whole grapheme cluster fits: every one of its scalars must.
    public func accepts(_ character: Character) -> Bool {
        for scalar in character.unicodeScalars where !contains(scalar) {
            return false
        }
        return true
    }

    private func baseContains(_ scalar: Unicode.Scalar) -> Bool {
        switch base {
        case .decimalDigit:
            return scalar.properties.generalCategory == .decimalNumber
        case .letter:
            return scalar.isLetterOrMark
        case .alphanumeric:
            return scalar.isLetterOrMark || scalar.isNumber
        case .number:
            return scalar.isNumber
        case .asciiLetter:
            return (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
        case .wordCharacter:
            let category = scalar.properties.generalCategory
            return scalar.isLetterOrMark || category == .decimalNumber
                || category == .connectorPunctuation
        case .lineBreak:
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        case .scalars(let sorted):
            return sorted.binarySearchContains(scalar.value)
        case .union(let classes):
            return classes.contains { $0.contains(scalar) }
        }
    }

    /// Membership of the 128 ASCII characters as a bitmap, for the walker's ASCII fast path.
    var asciiBitmap: ASCIIBitmap {
        // The built-in classes' bitmaps are worked out once for the process: a spec of 10⁵
        // columns asks for them 10⁵ times.
        if !isNegated {
            switch base {
            case .decimalDigit: return Self.decimalDigitBitmap
            case .letter: return Self.letterBitmap
            case .alphanumeric: return Self.alphanumericBitmap
            default: break
            }
        }
        return computedASCIIBitmap
    }

    private static let decimalDigitBitmap = CharacterClass.decimalDigit.computedASCIIBitmap
    private static let letterBitmap = CharacterClass.letter.computedASCIIBitmap
    private static let alphanumericBitmap = CharacterClass.alphanumeric.computedASCIIBitmap

    private var computedASCIIBitmap: ASCIIBitmap {
        var bitmap = ASCIIBitmap()
        for value in UInt8(0)..<128 where contains(Unicode.Scalar(value)) {
            bitmap.insert(value)
        }
        return bitmap
    }
}

/// A set of ASCII bytes as two 64-bit words: one shift and one mask per membership test.
struct ASCIIBitmap: Hashable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    mutating func insert(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte &- 64) }
    }

    func intersection(_ other: ASCIIBitmap) -> ASCIIBitmap {
        ASCIIBitmap(low: low & other.low, high: high & other.high)
    }

    func isDisjoint(with other: ASCIIBitmap) -> Bool {
        low & other.low == 0 && high & other.high == 0
    }

    mutating func formUnion(_ other: ASCIIBitmap) {
        low |= other.low
        high |= other.high
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? (low >> UInt64(byte)) & 1 != 0 : (high >> UInt64(byte & 63)) & 1 != 0
    }
}

extension Unicode.Scalar {
    var isLetterOrMark: Bool {
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    var isNumber: Bool {
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }
}

extension [UInt32] {
    func binarySearchContains(_ value: UInt32) -> Bool {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }
}
