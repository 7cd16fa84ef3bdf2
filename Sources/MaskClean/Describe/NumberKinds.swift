/// The numbers with a check digit, the US tax numbers and the ISO 8601 timestamps `describe`
/// recognises (docs/command-line.md, `describe`), read from a value's bytes with white space
/// around them trimmed. Each returns the canonical format of the value's shape (`KindMatch.format`),
/// `.failing` for a value of the kind's shape that fails its check, or nil.
enum NumberKinds {
    /// An IBAN (ISO 13616-1), written electronically or in groups of four: a registered country,
    /// its registry length and BBAN layout (`IBAN`). A value of an IBAN's shape, two letters, two
    /// digits and 11 to 30 letters or digits, that fails is `.failing`. The format has the
    /// length's groups of four, separated by spaces, as IBANs are printed.
    static func iban(_ text: [UInt8]) -> KindMatch? {
        guard text.count >= 15, PostcodeRules.isLetter(text[0]), PostcodeRules.isLetter(text[1]) else {
            return nil
        }
        let electronic = text.filter { $0 != 0x20 }.map(PostcodeRules.upper)
        guard (15...34).contains(electronic.count), electronic[..<2].allSatisfy(PostcodeRules.isLetter),
            electronic[2..<4].allSatisfy(PostcodeRules.isDigit),
            electronic[4...].allSatisfy({ PostcodeRules.isDigit($0) || PostcodeRules.isLetter($0) })
        else { return nil }
        guard electronic.withUnsafeBufferPointer(IBAN.isValid) else { return .failing }
        let body = electronic.count - 4
        let groups = [4] + Array(repeating: 4, count: body / 4) + (body % 4 > 0 ? [body % 4] : [])
        return .format(
            "[AA00]"
                + groups.dropFirst().map { " [" + String(repeating: "_", count: $0) + "]" }.joined())
    }

    /// An ISBN (ISO 2108): ten characters, the last a digit or `X`, or 13 digits from 978 or 979,
    /// hyphens and spaces between its parts left out: their places depend on the publisher, so
    /// the formats hold the digits alone.
    static func isbn(_ text: [UInt8]) -> KindMatch? {
        guard (10...17).contains(text.count), PostcodeRules.isDigit(text[0]) else { return nil }
        let code = text.filter { $0 != 0x20 && $0 != UInt8(ascii: "-") }.map(PostcodeRules.upper)
        if code.count == 10, code[..<9].allSatisfy(PostcodeRules.isDigit),
            PostcodeRules.isDigit(code[9]) || code[9] == UInt8(ascii: "X")
        {
            return code.withUnsafeBufferPointer(ISBN.isValidISBN10) ? .format(isbn10) : .failing
        }
        guard code.count == 13, code.allSatisfy(PostcodeRules.isDigit),
            code.starts(with: "978".utf8) || code.starts(with: "979".utf8)
        else { return nil }
        return code.withUnsafeBufferPointer(GTIN.isValid) ? .format(digits(13)) : .failing
    }

    /// The ISBN-10's format: its last character may be `X`.
    static let isbn10 = "[000000000_]"

    /// A GTIN (GS1): 8, 12, 13 or 14 digits, written whole, whose last is the check digit.
    static func gtin(_ text: [UInt8]) -> KindMatch? {
        guard GTIN.lengths.contains(text.count), text.allSatisfy(PostcodeRules.isDigit) else { return nil }
        return text.withUnsafeBufferPointer(GTIN.isValid) ? .format(digits(text.count)) : .failing
    }

    /// A US employer identification number, `12-3456789`, whose first two digits are a prefix
    /// the IRS assigns (none of 00, 07 to 09, 17 to 19, 28, 29, 49, 69, 70, 78, 79, 89, 96, 97).
    static func ein(_ text: [UInt8]) -> KindMatch? {
        guard text.count == 9 || text.count == 10, PostcodeRules.isDigit(text[0]) else { return nil }
        guard let digits = grouped(text, [2, 7]) else { return nil }
        let prefix = Int(digits[0]) * 10 + Int(digits[1])
        let unassigned: Set<Int> = [0, 7, 8, 9, 17, 18, 19, 28, 29, 49, 69, 70, 78, 79, 89, 96, 97]
        return unassigned.contains(prefix) ? nil : .format("[00]-[0000000]")
    }

    /// A US social security number's shape, `123-45-6789`: an area other than 000, 666 and 900 to
    /// 999, a group other than 00 and a serial other than 0000 (the SSA's rules), and none of the
    /// numbers known to have been printed on sample cards and misused (078-05-1120, ...).
    static func ssn(_ text: [UInt8]) -> KindMatch? {
        guard text.count == 9 || text.count == 11, PostcodeRules.isDigit(text[0]) else { return nil }
        guard let digits = grouped(text, [3, 2, 4]),
            ![[0, 7, 8, 0, 5, 1, 1, 2, 0], [4, 5, 7, 5, 5, 5, 4, 6, 2], [2, 1, 9, 0, 9, 9, 9, 9, 9]].contains(
                digits)
        else { return nil }
        let area = Int(digits[0]) * 100 + Int(digits[1]) * 10 + Int(digits[2])
        guard area != 0, area != 666, area < 900, digits[3..<5] != [0, 0], digits[5...] != [0, 0, 0, 0] else {
            return nil
        }
        return .format("[000]-[00]-[0000]")
    }

    /// The digits' values of a number written in `groups` separated by hyphens, or whole.
    private static func grouped(_ text: [UInt8], _ groups: [Int]) -> [UInt8]? {
        let total = groups.reduce(0, +)
        guard text.count == total || text.count == total + groups.count - 1 else { return nil }
        var digits: [UInt8] = []
        var run = 0
        var groupIndex = 0
        for byte in text {
            if PostcodeRules.isDigit(byte) {
                digits.append(byte - 0x30)
                run += 1
            } else if byte == UInt8(ascii: "-"), text.count != total, groupIndex < groups.count - 1,
                run == groups[groupIndex]
            {
                groupIndex += 1
                run = 0
            } else {
                return nil
            }
        }
        return digits.count == total ? digits : nil
    }

    /// `[000…]` for `count` digits.
    static func digits(_ count: Int) -> String {
        "[" + String(repeating: "0", count: count) + "]"
    }
}
