/// Whether a complete cell's formatted value still says what its input says (docs/command-line.md,
/// `describe`): a proposal that passes `check` while it rewrites values wrongly is worse than none.
/// The letters and digits come out in the same order, none dropped or added (in either case when
/// the column puts letters in a case); a sign is kept; and where the formats are shapes rather
/// than a kind's, a decimal point or comma between digits stays where it was, and digits that the
/// input groups with separators are not grouped elsewhere. A kind's formats define their own
/// grouping (a card's blocks, a date's separators, a North American number's `+1`).
///
/// Measured over every cell `describe` reads, so it compares bytes: no `String` per cell, and
/// Unicode's tables only for characters outside ASCII.
struct MeaningCheck {
    /// Whether letters compare in either case (`case` upper or lower).
    let foldsCase: Bool
    /// Whether the column's kind defines where its digits are grouped: then a `.` or `,` between
    /// digits is a separator like any other, and digits may be grouped anew.
    let kindGroups: Bool
    /// A North American phone column's formats write the country code `+1` that a value may lack.
    let northAmericanPhone: Bool
    /// The column's `ignore` characters, taken out of a value before it is masked.
    let ignored: Set<UInt32>

    /// The check of a proposed column, from its compiled spec (`case`, `ignore`) and the kind
    /// that proposed its formats.
    init(_ column: ColumnSpec, kind: String?) {
        self.init(foldsCase: column.letterCase != .keep, kind: kind, ignore: column.ignore)
    }

    init(foldsCase: Bool = false, kind: String? = nil, ignore: String = "") {
        self.foldsCase = foldsCase
        kindGroups = kind != nil
        northAmericanPhone = kind == ValueKind.phone.name
        ignored = Set(ignore.unicodeScalars.map(\.value))
    }

    /// How `formatted` changes what `input` says, or nil when it says the same.
    func change(_ input: UnsafeBufferPointer<UInt8>, _ formatted: UnsafeBufferPointer<UInt8>)
        -> MeaningChange?
    {
        if input.count == formatted.count, input.elementsEqual(formatted) { return nil }
        var inputs = Tokens(input, self, isInput: true)
        var outputs = Tokens(formatted, self, isInput: false)
        let inputGrouped = !kindGroups && Tokens.groupsDigits(input, self)
        while true {
            let left = inputs.next()
            let right = outputs.next()
            switch (left, right) {
            case (nil, nil): return nil
            case (let left?, let right?) where left.token == right.token:
                if inputGrouped, right.separated, !left.separated { return .regrouped }
            case (.some(let left), _) where left.token.isSign: return .signDropped(left.token.value)
            case (_, .some(let right)) where right.token.isSign: return .signAdded(right.token.value)
            case (.some(let left), _) where left.token.isPoint: return .pointMoved
            case (_, .some(let right)) where right.token.isPoint: return .pointMoved
            case (_, nil): return .dataDropped
            default:
                // Fewer letters and digits left in the formatted value: some were dropped.
                var remaining = 0
                while let piece = inputs.next() { remaining += piece.token.role == .data ? 1 : 0 }
                while let piece = outputs.next() { remaining -= piece.token.role == .data ? 1 : 0 }
                return remaining > 0 ? .dataDropped : remaining < 0 ? .dataAdded : .dataChanged
            }
        }
    }
}

/// What a formatted value changes of its input's meaning (`MeaningCheck`), as a comment says it.
enum MeaningChange: Hashable {
    case signDropped(UInt32)
    case signAdded(UInt32)
    /// A decimal point or comma between digits dropped, put in or moved.
    case pointMoved
    case regrouped
    case dataDropped
    case dataAdded
    case dataChanged
    /// A phone number whose formatted value reads back as another number.
    case otherNumber

    var words: String {
        switch self {
        case .signDropped(let sign): "\(Self.sign(sign)) dropped"
        case .signAdded(let sign): "\(Self.sign(sign)) added"
        case .pointMoved: "a decimal point or comma between digits dropped, moved or added"
        case .regrouped: "digits grouped otherwise than written"
        case .dataDropped: "letters or digits dropped"
        case .dataAdded: "letters or digits added"
        case .dataChanged: "letters or digits changed or reordered"
        case .otherNumber: "read back as another number"
        }
    }

    private static func sign(_ sign: UInt32) -> String {
        sign == UInt32(UInt8(ascii: "+")) ? "a plus sign" : "a minus sign"
    }
}

/// What a value says, one piece at a time: its letters and digits (case folded when the column
/// folds it), its signs, and, outside a kind's formats, a decimal point or comma between digits.
/// Everything else is a separator, which may be dropped or put in without loss.
private struct Tokens {
    struct Token: Equatable {
        enum Role { case data, sign, point }
        var role: Role
        var value: UInt32
        var isSign: Bool { role == .sign }
        var isPoint: Bool { role == .point }
    }

    /// A token, and whether a separator came between it and the digit before it (both digits).
    typealias Piece = (token: Token, separated: Bool)

    let bytes: UnsafeBufferPointer<UInt8>
    let check: MeaningCheck
    let isInput: Bool
    var position = 0
    /// What the previous character was: a digit, a letter, a sign or point, or nothing yet.
    var previous = Previous.start
    /// Whether a separator came since the previous digit.
    var separatedSinceDigit = false
    /// The North American country code `+1` is still to be passed over at the value's start.
    var countryCode: Bool

    enum Previous { case start, digit, letter, sign, other }

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ check: MeaningCheck, isInput: Bool) {
        self.bytes = bytes
        self.check = check
        self.isInput = isInput
        countryCode = check.northAmericanPhone
    }

    /// Whether `bytes` writes a separator between two of its digits: its digit groups are then
    /// the writer's, and a format that groups them elsewhere regroups them.
    static func groupsDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ check: MeaningCheck) -> Bool {
        var tokens = Tokens(bytes, check, isInput: true)
        while let piece = tokens.next() {
            if piece.separated { return true }
        }
        return false
    }

    mutating func next() -> Piece? {
        while position < bytes.count {
            let scalar = decode()
            if isInput, !check.ignored.isEmpty, check.ignored.contains(scalar) { continue }
            let kind = Self.classify(scalar)
            let piece: Piece?
            if check.northAmericanPhone, kind == .letter || scalar == 0x23 {
                // An extension's marker (`x`, `ext.`, `extension`, `#`) is one mark, however the
                // kind's format writes it; a marker where the value had none is a letter added.
                if previous == .letter { continue }
                previous = .letter
                separatedSinceDigit = false
                return (Token(role: .data, value: 0x78), false)
            }
            switch kind {
            case .digit, .letter:
                let separated = kind == .digit && previous == .digit && separatedSinceDigit
                previous = kind == .digit ? .digit : .letter
                separatedSinceDigit = false
                let value = check.foldsCase ? Self.folded(scalar) : scalar
                piece = (Token(role: .data, value: value), separated)
            case .sign where previous != .digit && previous != .letter && digitFollows(from: position):
                previous = .sign
                piece = (Token(role: .sign, value: scalar == 0x2212 ? 0x2D : scalar), false)
            case .point
            where !check.kindGroups && (previous == .digit || previous == .start || previous == .sign)
                && digitFollows(from: position):
                previous = .sign
                separatedSinceDigit = false
                piece = (Token(role: .point, value: scalar), false)
            default:
                if previous == .digit { separatedSinceDigit = true }
                if previous != .digit { previous = .other }
                piece = nil
            }
            guard let piece else { continue }
            if countryCode {
                if piece.token == Token(role: .sign, value: 0x2B) { continue }
                countryCode = false
                if piece.token == Token(role: .data, value: 0x31) { continue }
            }
            return piece
        }
        return nil
    }

    private enum Kind { case digit, letter, sign, point, other }

    private static func classify(_ scalar: UInt32) -> Kind {
        switch scalar {
        case 0x30...0x39: return .digit
        case 0x41...0x5A, 0x61...0x7A: return .letter
        case 0x2B, 0x2D, 0x2212: return .sign
        case 0x2C, 0x2E: return .point
        case ..<0x80: return .other
        default:
            guard let unicode = Unicode.Scalar(scalar) else { return .other }
            switch unicode.properties.generalCategory {
            case .decimalNumber: return .digit
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .letterNumber, .otherNumber:
                return .letter
            default: return .other
            }
        }
    }

    /// A letter in lower case: ASCII by arithmetic; another letter through Unicode's mapping,
    /// which only a letter that has another case pays for.
    private static func folded(_ scalar: UInt32) -> UInt32 {
        if scalar < 0x80 { return (0x41...0x5A).contains(scalar) ? scalar + 0x20 : scalar }
        guard let unicode = Unicode.Scalar(scalar), unicode.properties.changesWhenLowercased else {
            return scalar
        }
        return unicode.properties.lowercaseMapping.unicodeScalars.first?.value ?? scalar
    }

    /// Whether a digit comes next, perhaps after a decimal point (`-.5`).
    private func digitFollows(from index: Int) -> Bool {
        var index = index
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
        }
        return index < bytes.count && (0x30...0x39).contains(bytes[index])
    }

    /// The scalar at `position`, which moves past it; a malformed byte stands for itself.
    private mutating func decode() -> UInt32 {
        let lead = bytes[position]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard lead >= 0xC0, position + length <= bytes.count else {
            position += 1
            return UInt32(lead)
        }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
        position += length
        return value
    }
}
