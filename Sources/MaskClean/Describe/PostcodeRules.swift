/// The postcodes `describe` recognises by their countries' national rules, not by shape alone
/// (docs/command-line.md, `describe`). Each rule returns the canonical format of the value's
/// national shape (`PostcodeRules.formats`), or nil when the value breaks the rule: a Canadian code
/// with a `D`, a Dutch one below 1000, an Eircode whose routing key is not published.
///
/// Every shape of a country gets its format, seen or not: a value of a shape the sample lacked
/// still comes out complete. The space is written as the country writes it, as a free character,
/// so that a value typed without it comes out with it (docs/mask-syntax.md, How a value is
/// applied); letters are upper-cased (`case: upper`).
enum PostcodeRules {
    /// Each country's formats, in the order a column gets them when it has no value of them.
    static func formats(_ kind: ValueKind) -> [String] {
        switch kind {
        case .ukPostcode: ukFormats
        case .caPostcode: ["[A0A] [0A0]"]
        case .nlPostcode: ["[0000] [AA]"]
        case .iePostcode: ["[A00] [____]", "[A0A] [____]"]
        case .dePostcode, .frPostcode: ["[00000]"]
        case .brPostcode: ["[00000]-[000]"]
        case .jpPostcode: ["[000]-[0000]"]
        case .inPostcode: ["[000000]"]
        default: []
        }
    }

    /// The UK's six shapes of outward code (Royal Mail's Programmers' Guide to the PAF, and the
    /// ONS Postcode Directory's user guide): A9, A99, AA9, AA99, A9A and AA9A, each followed by the
    /// inward code 9AA.
    static let ukFormats = [
        "[A0] [0AA]", "[A00] [0AA]", "[AA0] [0AA]", "[AA00] [0AA]", "[A0A] [0AA]", "[AA0A] [0AA]",
    ]

    /// A UK postcode (Royal Mail PAF): the outward code's first letter is never Q, V or X, its
    /// second letter never I, J or Z; the third character of A9A is one of ABCDEFGHJKPSTUW, the
    /// fourth of AA9A one of ABEHMNPRVWXY; the inward code's letters are never C, I, K, M, O or V.
    /// `GIR 0AA`, one address's code outside the rules, is left out.
    static func uk(_ text: [UInt8]) -> String? {
        guard (5...8).contains(text.count), isLetter(text[0]) else { return nil }
        // The one space goes before the inward code, or is left out.
        let spaceAt = text.count - 4
        let typedWhole = !text.contains(0x20)
        guard typedWhole || (spaceAt > 0 && text[spaceAt] == 0x20) else { return nil }
        let code = text.filter { $0 != 0x20 }.map(upper)
        guard (5...7).contains(code.count), text.count - code.count <= 1,
            code.allSatisfy({ isDigit($0) || isLetter($0) })
        else { return nil }
        let inward = code.suffix(3)
        let outward = Array(code.dropLast(3))
        guard isDigit(inward[inward.startIndex]),
            inward.dropFirst().allSatisfy({ inwardLetters.contains($0) })
        else { return nil }
        guard let first = outward.first, isLetter(first), !"QVX".utf8.contains(first) else { return nil }
        let rest = outward.dropFirst()
        let shape = String(
            decoding: rest.map { isDigit($0) ? UInt8(ascii: "9") : UInt8(ascii: "A") }, as: UTF8.self)
        let secondLetterOK = { (byte: UInt8) in !"IJZ".utf8.contains(byte) }
        switch shape {
        case "9": return ukFormats[0]
        case "99": return ukFormats[1]
        case "A9": return secondLetterOK(rest[1]) ? ukFormats[2] : nil
        case "A99": return secondLetterOK(rest[1]) ? ukFormats[3] : nil
        case "9A": return "ABCDEFGHJKPSTUW".utf8.contains(rest[2]) ? ukFormats[4] : nil
        case "A9A":
            return secondLetterOK(rest[1]) && "ABEHMNPRVWXY".utf8.contains(rest[3]) ? ukFormats[5] : nil
        default: return nil
        }
    }

    private static let inwardLetters = Set("ABDEFGHJLNPQRSTUWXYZ".utf8)

    /// A Canadian postal code (Canada Post, Addressing Guidelines): A9A 9A9, whose letters are never
    /// D, F, I, O, Q or U, and whose first letter is never W or Z either.
    static func ca(_ text: [UInt8]) -> String? {
        guard text.count == 6 || text.count == 7, isLetter(text[0]) else { return nil }
        let code = spaced(text, at: 3, length: 6).map { $0.map(upper) }
        guard let code else { return nil }
        let forbidden = Set("DFIOQU".utf8)
        for (index, byte) in code.enumerated() {
            if index % 2 == 0 {
                guard isLetter(byte), !forbidden.contains(byte) else { return nil }
            } else if !isDigit(byte) {
                return nil
            }
        }
        return code[0] == UInt8(ascii: "W") || code[0] == UInt8(ascii: "Z") ? nil : formats(.caPostcode)[0]
    }

    /// A Dutch postcode (PostNL): four digits from 1000 to 9999 and two letters, never SA, SD or SS.
    static func nl(_ text: [UInt8]) -> String? {
        guard text.count == 6 || text.count == 7, isDigit(text[0]) else { return nil }
        guard let code = spaced(text, at: 4, length: 6)?.map(upper),
            code[0] != UInt8(ascii: "0"), code[..<4].allSatisfy(isDigit), code[4...].allSatisfy(isLetter)
        else { return nil }
        let letters = String(decoding: code[4...], as: UTF8.self)
        return ["SA", "SD", "SS"].contains(letters) ? nil : formats(.nlPostcode)[0]
    }

    /// An Eircode (Eircode's published routing keys: a letter and two digits, or D6W for Dublin
    /// 6W; the 139 in use, as Wikipedia's "List of Eircode routing areas in Ireland" counts them
    /// and as the public list of robbiegleeson/cf7-eircode-validator gives them, key for key,
    /// and A65 of Eircode's own example `A65 F4E2`): a routing key, then a unique identifier of
    /// 4 characters from 0-9 and ACDEFHKNPRTVWXY.
    static func ie(_ text: [UInt8]) -> String? {
        guard text.count == 7 || text.count == 8, isLetter(text[0]) else { return nil }
        guard let code = spaced(text, at: 3, length: 7)?.map(upper),
            routingKeys.contains(String(decoding: code[..<3], as: UTF8.self)),
            code[3...].allSatisfy({ isDigit($0) || identifierLetters.contains($0) })
        else { return nil }
        return isDigit(code[2]) ? formats(.iePostcode)[0] : formats(.iePostcode)[1]
    }

    private static let identifierLetters = Set("ACDEFHKNPRTVWXY".utf8)
    static let routingKeys: Set<String> = Set(
        """
        A41 A42 A45 A63 A65 A67 A75 A81 A82 A83 A84 A85 A86 A91 A92 A94 A96 A98 C15 D01 D02 D03 D04
        D05 D06 D6W D07 D08 D09 D10 D11 D12 D13 D14 D15 D16 D17 D18 D20 D22 D24 E21 E25 E32 E34 E41
        E45 E53 E91 F12 F23 F26 F28 F31 F35 F42 F45 F52 F56 F91 F92 F93 F94 H12 H14 H16 H18 H23 H53
        H54 H62 H65 H71 H91 K32 K34 K36 K45 K56 K67 K78 N37 N39 N41 N91 P12 P14 P17 P24 P25 P31 P32
        P36 P43 P47 P51 P56 P61 P67 P72 P75 P81 P85 R14 R21 R32 R35 R42 R45 R51 R56 R93 R95 T12 T23
        T34 T45 T56 V14 V15 V23 V31 V35 V42 V92 V93 V94 V95 W12 W23 W34 W91 X35 X42 X91 Y14 Y21 Y25
        Y34 Y35
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))

    /// A German Postleitzahl (Deutsche Post): five digits from 01001 to 99998.
    static func de(_ text: [UInt8]) -> String? {
        guard text.count == 5, text.allSatisfy(isDigit),
            let number = Int(String(decoding: text, as: UTF8.self)),
            (1001...99998).contains(number)
        else { return nil }
        return formats(.dePostcode)[0]
    }

    /// A French code postal (La Poste): five digits whose first two are a department's, 01 to 95
    /// (Corsica's 20 included), or 97 and 98 for the overseas departments and Monaco.
    static func fr(_ text: [UInt8]) -> String? {
        guard text.count == 5, text.allSatisfy(isDigit) else { return nil }
        let department = Int(text[0] - 0x30) * 10 + Int(text[1] - 0x30)
        return (1...95).contains(department) || department == 97 || department == 98
            ? formats(.frPostcode)[0] : nil
    }

    /// A Brazilian CEP (Correios): eight digits, written 00000-000, from 01000-000 on.
    static func br(_ text: [UInt8]) -> String? {
        guard text.count == 8 || text.count == 9, isDigit(text[0]) else { return nil }
        let digits = text.count == 9 && text[5] == UInt8(ascii: "-") ? Array(text[..<5] + text[6...]) : text
        guard digits.count == 8, digits.allSatisfy(isDigit), !digits[..<2].allSatisfy({ $0 == 0x30 }) else {
            return nil
        }
        return formats(.brPostcode)[0]
    }

    /// A Japanese postal code (Japan Post): seven digits, written 000-0000.
    static func jp(_ text: [UInt8]) -> String? {
        guard text.count == 7 || text.count == 8, isDigit(text[0]) else { return nil }
        let digits = text.count == 8 && text[3] == UInt8(ascii: "-") ? Array(text[..<3] + text[4...]) : text
        return digits.count == 7 && digits.allSatisfy(isDigit) ? formats(.jpPostcode)[0] : nil
    }

    /// An Indian PIN (India Post): six digits, the first from 1 to 9 (the postal region), written
    /// whole or as 000 000.
    static func india(_ text: [UInt8]) -> String? {
        guard text.count == 6 || text.count == 7, isDigit(text[0]) else { return nil }
        let digits = text.count == 7 && text[3] == 0x20 ? Array(text[..<3] + text[4...]) : text
        guard digits.count == 6, digits.allSatisfy(isDigit), digits[0] != 0x30 else { return nil }
        return formats(.inPostcode)[0]
    }

    /// `text` without the one space the country writes at `split`, or as it is when typed without
    /// it: `length` characters either way.
    private static func spaced(_ text: [UInt8], at split: Int, length: Int) -> [UInt8]? {
        if text.count == length { return text }
        guard text.count == length + 1, text[split] == 0x20 else { return nil }
        return Array(text[..<split] + text[(split + 1)...])
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    static func upper(_ byte: UInt8) -> UInt8 { (0x61...0x7A).contains(byte) ? byte - 0x20 : byte }
}
