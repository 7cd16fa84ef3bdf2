/// The kinds of value users clean most, which `describe` recognises in any of their shapes and
/// proposes a canonical target for (docs/command-line.md): North American phone numbers, card
/// numbers, dates and US ZIP codes. North American numbers are recognised by their shape alone:
/// their masks are proposed only for a column that is not a phone column of any country
/// (`PhoneTally`), such as numbers made up for a test export.
enum ValueKind: CaseIterable, Sendable {
    case phone, card, date, zip

    /// How the YAML comment names the kind.
    var name: String {
        switch self {
        case .phone: "North American phone numbers"
        case .card: "card numbers"
        case .date: "dates"
        case .zip: "US ZIP codes"
        }
    }

    /// What one value of this kind is made of, or nil when it is not one.
    func match(_ value: String) -> KindMatch? {
        let text = Self.trimmed(value)
        switch self {
        case .phone: return PhoneNumber(text).map(KindMatch.phone)
        case .card: return Self.cardDigits(text).map(KindMatch.card)
        case .date: return DateValue(text).map(KindMatch.date)
        case .zip: return Self.zipPlusFour(text).map(KindMatch.zip)
        }
    }

    private static func trimmed(_ value: String) -> Substring {
        let isSpace = { (character: Character) in
            character.unicodeScalars.allSatisfy(\.properties.isWhitespace)
        }
        guard let first = value.firstIndex(where: { !isSpace($0) }),
            let last = value.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return value[first...last]
    }

    /// Whether a value has a card number's 13 to 19 digits, but not its check digit.
    static func failsLuhn(_ value: String) -> Bool {
        let text = trimmed(value)
        return cardDigits(text) == nil && cardDigits(text, checked: false) != nil
    }

    /// A card number: 13 to 19 digits, grouped by spaces or hyphens or not at all, that pass the
    /// Luhn check. Returns the number of digits.
    static func cardDigits(_ text: Substring, checked: Bool = true) -> Int? {
        var digits: [Int] = []
        for character in text {
            if let digit = character.asciiDigit {
                digits.append(digit)
            } else if character != " " && character != "-" {
                return nil
            }
        }
        guard (13...19).contains(digits.count) else { return nil }
        guard checked else { return digits.count }
        var sum = 0
        for (position, digit) in digits.reversed().enumerated() {
            let value = position % 2 == 1 ? digit * 2 : digit
            sum += value > 9 ? value - 9 : value
        }
        return sum % 10 == 0 ? digits.count : nil
    }

    /// A ZIP code, `12345`, or ZIP+4, `12345-6789`. Returns whether it has the four.
    static func zipPlusFour(_ text: Substring) -> Bool? {
        let characters = Array(text)
        let fiveDigits = characters.count >= 5 && characters[..<5].allSatisfy { $0.asciiDigit != nil }
        guard fiveDigits else { return nil }
        if characters.count == 5 { return false }
        guard characters.count == 10, characters[5] == "-",
            characters[6...].allSatisfy({ $0.asciiDigit != nil })
        else { return nil }
        return true
    }
}

/// One value's kind and what the formats need of it.
enum KindMatch {
    case phone(PhoneNumber)
    /// The card number's count of digits.
    case card(Int)
    case date(DateValue)
    /// Whether the ZIP code has its four more digits.
    case zip(Bool)
}

/// A North American phone number: 10 digits, or 11 starting with 1, whose area code starts with
/// 2 to 9, between punctuation (`+ ( ) - . /` and spaces), perhaps followed by an extension: a
/// marker (`x`, `ext.`, `extension`, `#`, as written) and up to six digits.
struct PhoneNumber {
    /// The extension's marker exactly as written, spaces around it included (` ext. `), and its
    /// count of digits; nil for a number without extension.
    var extensionMarker: String?
    var extensionDigits = 0

    init?(_ text: Substring) {
        var digits: [Int] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let digit = character.asciiDigit {
                digits.append(digit)
                index = text.index(after: index)
                let needed = digits.first == 1 ? 11 : 10
                if digits.count == needed { break }
            } else if " ()-./+".contains(character) {
                index = text.index(after: index)
            } else {
                return nil
            }
        }
        guard digits.count == (digits.first == 1 ? 11 : 10) else { return nil }
        let areaCode = digits.first == 1 ? digits[1] : digits[0]
        guard areaCode >= 2 else { return nil }
        let rest = text[index...]
        guard !rest.isEmpty else { return }
        guard let firstDigit = rest.firstIndex(where: { $0.asciiDigit != nil }) else { return nil }
        let marker = rest[..<firstDigit]
        let number = rest[firstDigit...]
        guard number.count <= 6, number.allSatisfy({ $0.asciiDigit != nil }) else { return nil }
        let word = marker.filter(\.isLetter).lowercased()
        let others = marker.filter { !$0.isLetter }
        guard ["x", "ext", "extension"].contains(word) || (word.isEmpty && others.contains("#")),
            others.allSatisfy({ " .:#".contains($0) })
        else { return nil }
        extensionMarker = String(marker)
        extensionDigits = number.count
    }
}

/// A date: ISO `1948-07-13` or `19480713`, or two numbers of one or two digits and a year of two
/// or four, day first or month first (`13/07/1948`, `7/13/48`), separated by `/`, `-` or `.`.
struct DateValue {
    enum Order {
        /// Year, month, day.
        case iso
        /// The first number is above 12: day first.
        case dayFirst
        /// The second number is above 12: month first.
        case monthFirst
        /// Both are 12 or less: either.
        case either
    }

    var order: Order
    /// The separator between the parts; nil for `19480713`.
    var separator: Character?
    /// Each part's count of digits.
    var widths: [Int]

    init?(_ text: Substring) {
        if text.count == 8, text.allSatisfy({ $0.asciiDigit != nil }) {
            let digits = text.compactMap(\.asciiDigit)
            let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
            let month = digits[4] * 10 + digits[5]
            let day = digits[6] * 10 + digits[7]
            guard (1800...2199).contains(year), (1...12).contains(month), (1...31).contains(day) else {
                return nil
            }
            (order, separator, widths) = (.iso, nil, [4, 2, 2])
            return
        }
        guard let separator = text.first(where: { "/-.".contains($0) }) else { return nil }
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.asciiDigit != nil } })
        else { return nil }
        let numbers = parts.map { Int($0) ?? 0 }
        widths = parts.map(\.count)
        self.separator = separator
        if widths[0] == 4 {
            guard widths[1] <= 2, widths[2] <= 2, (1...12).contains(numbers[1]), (1...31).contains(numbers[2])
            else { return nil }
            order = .iso
            return
        }
        guard widths[0] <= 2, widths[1] <= 2, widths[2] == 2 || widths[2] == 4,
            numbers[0] >= 1, numbers[1] >= 1
        else { return nil }
        switch (numbers[0], numbers[1]) {
        case (1...12, 1...12): order = .either
        case (13...31, 1...12): order = .dayFirst
        case (1...12, 13...31): order = .monthFirst
        default: return nil
        }
    }
}

extension Character {
    /// The value of an ASCII digit.
    var asciiDigit: Int? {
        guard let ascii = asciiValue, (0x30...0x39).contains(ascii) else { return nil }
        return Int(ascii - 0x30)
    }
}
