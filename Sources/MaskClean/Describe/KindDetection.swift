/// The kinds of value users clean most, which `describe` recognises in any of their shapes and
/// proposes a canonical target for (docs/command-line.md): North American phone numbers, card
/// numbers, dates, US ZIP codes, ISO 8601 timestamps, numbers with a check digit (ISBN, GTIN,
/// IBAN), the postcodes of nine countries and US tax numbers. North American numbers are
/// recognised by their shape alone: their masks are proposed only for a column that is not a phone
/// column of any country (`PhoneTally`), such as numbers made up for a test export.
///
/// Cases are in the order a tie is settled: a column of ISO dates is dates before it is
/// timestamps, and a column of ISBN-13s is ISBNs before it is GTINs.
enum ValueKind: CaseIterable, Sendable {
    case phone, card, date, zip, timestamp, isbn, gtin, iban
    case ukPostcode, caPostcode, nlPostcode, iePostcode
    case dePostcode, frPostcode, brPostcode, jpPostcode, inPostcode
    case ein, ssn

    /// How the YAML comment names the kind.
    var name: String {
        switch self {
        case .phone: "North American phone numbers"
        case .card: "card numbers"
        case .date: "dates"
        case .zip: "US ZIP codes"
        case .timestamp: "ISO 8601 timestamps"
        case .isbn: "ISBNs"
        case .gtin: "GTINs (EAN, UPC)"
        case .iban: "IBANs"
        case .ukPostcode: "UK postcodes"
        case .caPostcode: "Canadian postal codes"
        case .nlPostcode: "Dutch postcodes"
        case .iePostcode: "Eircodes (Irish postcodes)"
        case .dePostcode: "German postcodes (PLZ)"
        case .frPostcode: "French postcodes"
        case .brPostcode: "Brazilian postcodes (CEP)"
        case .jpPostcode: "Japanese postcodes"
        case .inPostcode: "Indian postcodes (PIN)"
        case .ein: "US employer identification numbers (EIN)"
        case .ssn: "US social security numbers"
        }
    }

    /// What one value of this kind is made of, or nil when it is not one.
    func match(_ value: String) -> KindMatch? {
        let text = Self.trimmed(value)
        return match(trimmed: text, bytes: Self.trimmedBytes(text))
    }

    /// The same, given the value trimmed (`trimmed`) and its bytes as `trimmedBytes` gives
    /// them: a tally works them out once for all the kinds.
    func match(trimmed text: Substring, bytes: [UInt8]?) -> KindMatch? {
        switch self {
        case .phone: return PhoneNumber(text).map(KindMatch.phone)
        case .card: return Self.cardDigits(text).map(KindMatch.card)
        case .date: return DateValue(text).map(KindMatch.date)
        case .zip: return Self.zipPlusFour(text).map(KindMatch.zip)
        default: break
        }
        guard let bytes else { return nil }
        switch self {
        case .timestamp:
            return TimestampKind.format(bytes).map {
                KindMatch.timestamp($0.format, fractionDigits: $0.fractionDigits)
            }
        case .isbn: return NumberKinds.isbn(bytes)
        case .gtin: return NumberKinds.gtin(bytes)
        case .iban: return NumberKinds.iban(bytes)
        case .ein: return NumberKinds.ein(bytes)
        case .ssn: return NumberKinds.ssn(bytes)
        default: break
        }
        let format: String? =
            switch self {
            case .ukPostcode: PostcodeRules.uk(bytes)
            case .caPostcode: PostcodeRules.ca(bytes)
            case .nlPostcode: PostcodeRules.nl(bytes)
            case .iePostcode: PostcodeRules.ie(bytes)
            case .dePostcode: PostcodeRules.de(bytes)
            case .frPostcode: PostcodeRules.fr(bytes)
            case .brPostcode: PostcodeRules.br(bytes)
            case .jpPostcode: PostcodeRules.jp(bytes)
            case .inPostcode: PostcodeRules.india(bytes)
            default: nil
            }
        return format.map(KindMatch.format)
    }

    /// A value's bytes with the white space around it trimmed, for the kinds read byte by byte;
    /// nil when it is longer than any of them (an IBAN grouped by four: 42 bytes; a timestamp
    /// with nine digits of fraction and an offset: 35).
    static func trimmedBytes(_ text: Substring) -> [UInt8]? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= 48 else { return nil }
        return Array(bytes)
    }

    /// A value without the white space around it (Unicode's).
    static func trimmed(_ value: String) -> Substring {
        // Most values start and end with a printable ASCII character, which is a character
        // of its own or the first of one (a mark may follow it): no white space, so none to
        // take off, and Unicode's tables need no look.
        if let first = value.utf8.first, let last = value.utf8.last, (0x21...0x7E).contains(first),
            (0x21...0x7E).contains(last)
        {
            return value[...]
        }
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
        failsLuhn(trimmed: trimmed(value))
    }

    /// The same, of a value trimmed.
    static func failsLuhn(trimmed text: Substring) -> Bool {
        cardDigits(text) == nil && cardDigits(text, checked: false) != nil
    }

    // A card number, a ZIP code and a date are made of ASCII digits and separators only, each a
    // character of one byte: they are read byte by byte, and a byte outside them (a letter, a
    // mark, any byte of a character outside ASCII) is not one.

    /// A card number: 13 to 19 digits, grouped by spaces or hyphens or not at all, that pass the
    /// Luhn check. Returns the number of digits.
    static func cardDigits(_ text: Substring, checked: Bool = true) -> Int? {
        var count = 0
        // The Luhn check doubles every second digit from the last, which depends on the count,
        // known at the end: each digit is added plain and doubled to the sums of its place's
        // parity from the first, and the end takes the right two.
        var plain = (even: 0, odd: 0)
        var doubled = (even: 0, odd: 0)
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39:
                let digit = Int(byte - 0x30)
                let twice = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
                if count % 2 == 0 {
                    plain.even += digit
                    doubled.even += twice
                } else {
                    plain.odd += digit
                    doubled.odd += twice
                }
                count += 1
                guard count <= 19 else { return nil }
            case 0x20, 0x2D: continue
            default: return nil
            }
        }
        guard (13...19).contains(count) else { return nil }
        guard checked else { return count }
        // With an even count the first digit (place 0) is doubled; with an odd one, the second.
        let sum = count % 2 == 0 ? doubled.even + plain.odd : plain.even + doubled.odd
        return sum % 10 == 0 ? count : nil
    }

    /// A ZIP code, `12345`, or ZIP+4, `12345-6789`. Returns whether it has the four.
    static func zipPlusFour(_ text: Substring) -> Bool? {
        let bytes = text.utf8
        guard bytes.count == 5 || bytes.count == 10 else { return nil }
        for (place, byte) in bytes.enumerated() {
            guard place == 5 ? byte == 0x2D : (0x30...0x39).contains(byte) else { return nil }
        }
        return bytes.count == 10
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
    /// The canonical format of the value's shape (a postcode's, an IBAN's length, ...).
    case format(String)
    /// A timestamp's format, its fraction's digits left to the column (`TimestampKind`).
    case timestamp(String, fractionDigits: Int?)
    /// A value of the kind's shape that fails its check: an ISBN, a GTIN or an IBAN mistyped.
    case failing
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
        // Only ASCII digits and a separator (`ValueKind.cardDigits`): anything else is no date.
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2F || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
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

/// The kinds whose values a column's name must vouch for: digits alone do not say a postcode of
/// Germany from a US ZIP code or an order number, nor an EIN from any nine digits
/// (docs/command-line.md, `describe`). The name's words are read case-blind, split at anything
/// but a letter or digit and where a lower-case letter meets an upper-case one (`shipZip`).
extension ValueKind {
    /// Whether a column's name must say what it holds for it to be of this kind.
    var needsName: Bool {
        switch self {
        case .zip, .dePostcode, .frPostcode, .brPostcode, .jpPostcode, .inPostcode, .ein, .ssn: true
        default: false
        }
    }

    /// Whether a column named `name` may be of this kind: every kind that needs no name; US ZIP
    /// codes where the name says a postcode (`zip`, `postal`, `postcode`), but not another
    /// country's (`plz`, `code postal`, `cep`, `pin`): five digits are as often an identifier
    /// (a real export's sequential ids were taken for ZIP codes).
    func fits(columnName name: String) -> Bool { fits(ColumnNameWords(name)) }

    /// The kinds a column named `name` may be of, its name read once.
    static func fitting(columnName name: String) -> [ValueKind] {
        let words = ColumnNameWords(name)
        return allCases.filter { $0.fits(words) }
    }

    func fits(_ name: ColumnNameWords) -> Bool {
        switch self {
        case .zip: return name.postal && !(name.german || name.french || name.brazilian || name.indian)
        case .dePostcode: return name.german
        case .frPostcode: return name.french
        case .brPostcode: return name.brazilian || name.postal
        case .jpPostcode: return name.postal
        case .inPostcode: return name.indian || name.postal
        // Not `tax id` or `tin`, which may be either: nine bare digits of one would be regrouped
        // as the other.
        case .ein: return name.ein
        case .ssn: return name.ssn
        default: return true
        }
    }

    /// A name's words, lower-cased.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previousLower = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !word.isEmpty { words.append(word) }
                word = ""
                previousLower = false
                continue
            }
            if character.isUppercase && previousLower && !word.isEmpty {
                words.append(word)
                word = ""
            }
            word += character.lowercased()
            previousLower = character.isLowercase
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}

/// What a column's name says of the kinds that need one (`ValueKind.needsName`), read once per
/// column: a wide export has a hundred thousand names, and each is asked of every kind.
struct ColumnNameWords {
    var postal = false
    var german = false
    var french = false
    var brazilian = false
    var indian = false
    var ein = false
    var ssn = false

    init(_ name: String) {
        let words = ValueKind.words(name)
        let joined = words.joined()
        func within(_ part: String) -> Bool { joined.utf8.count >= part.utf8.count && joined.contains(part) }
        postal =
            words.contains {
                ["zip", "postal", "postcode", "postcodes", "zipcode", "postalcode"].contains($0)
            }
            || ["postcode", "postalcode", "zipcode"].contains { within($0) }
        german = words.contains("plz") || within("postleitzahl")
        french = words.contains("cp") || within("codepostal")
        brazilian = words.contains("cep")
        indian = words.contains("pin") || within("pincode")
        ein = words.contains("ein") || words.contains("fein") || within("employeridentification")
        ssn = words.contains("ssn") || within("socialsecurity")
    }
}
