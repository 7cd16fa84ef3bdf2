/// A custom slot character: `[s]` with `s` accepting `$€`, optional or not (input-mask's
/// `Notation`).
public struct Notation: Hashable, Sendable {
    public var character: Character
    /// The accepted characters, listed literally.
    public var characterSet: String
    public var isOptional: Bool

    public init(character: Character, characterSet: String, isOptional: Bool) {
        self.character = character
        self.characterSet = characterSet
        self.isOptional = isOptional
    }

    /// The notations a column's formats see: the spec-wide ones, with any column notation of the
    /// same character replacing the spec-wide one and the others added after.
    ///
    /// Each list on its own must not declare a character twice: the reference silently keeps the
    /// first, which hides a mistake in the spec.
    public static func merged(specWide: [Notation], column: [Notation]) throws(NotationError)
        -> [Notation]
    {
        try checkDistinct(specWide, list: .specWide)
        try checkDistinct(column, list: .column)
        var result = specWide
        for notation in column {
            if let index = result.firstIndex(where: { $0.character == notation.character }) {
                result[index] = notation
            } else {
                result.append(notation)
            }
        }
        return result
    }

    /// Rejects a list that declares one character twice.
    public static func checkDistinct(_ notations: [Notation], list: NotationError.List = .column)
        throws(NotationError)
    {
        for (index, notation) in notations.enumerated() {
            if let first = notations[..<index].firstIndex(where: { $0.character == notation.character }) {
                throw NotationError(
                    character: notation.character, firstIndex: first, secondIndex: index, list: list)
            }
        }
    }
}

/// A notation list declares one character twice.
public struct NotationError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum List: Hashable, Sendable {
        case specWide, column
    }

    public var character: Character
    public var firstIndex: Int
    public var secondIndex: Int
    public var list: List

    public var description: String {
        "notation '\(character)' is declared twice (notations[\(firstIndex)] and notations[\(secondIndex)])"
    }
}
