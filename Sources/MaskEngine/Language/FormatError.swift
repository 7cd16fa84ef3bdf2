/// Why a format does not compile, and where: `offset` counts characters (grapheme clusters) of
/// the format from 0.
public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// A character inside `[]` that is neither a slot character nor a declared notation.
        case unknownSlotCharacter(Character)
        /// A bracket where it cannot stand: an opener inside a block, or a closer that does not
        /// match the open block (`block` is the open block, `nil` outside any block).
        case unexpectedBracket(Character, block: Block?)
        /// A block still open at the end of the format.
        case unclosedBlock(Block)
        /// A `\` inside `[]`: slots cannot be escaped.
        case escapeInsideSlots
        /// A syntax rule that has no better description (used by the other syntaxes).
        case invalid(String)
        /// A setting that goes with the format does not fit it (AKMaskField's template length).
        case invalidOption(String)
    }

    public enum Block: Hashable, Sendable, CustomStringConvertible {
        case slots, fixed

        public var description: String { self == .slots ? "[]" : "{}" }
        var opener: Character { self == .slots ? "[" : "{" }
    }

    public var reason: Reason
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch reason {
        case .unknownSlotCharacter(let character):
            return "unexpected '\(character)' inside [] at offset \(offset)"
        case .unexpectedBracket(let character, let block?):
            return "unexpected '\(character)' inside \(block) at offset \(offset)"
        case .unexpectedBracket(let character, nil):
            return "unexpected '\(character)' outside any block at offset \(offset)"
        case .unclosedBlock(let block):
            return "'\(block.opener)' at offset \(offset) is never closed"
        case .escapeInsideSlots:
            return "unexpected '\\' inside [] at offset \(offset)"
        case .invalid(let message):
            return "\(message) at offset \(offset)"
        case .invalidOption(let message):
            return message
        }
    }
}
