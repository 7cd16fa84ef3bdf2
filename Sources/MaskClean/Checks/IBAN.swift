/// International Bank Account Numbers (ISO 13616-1). An IBAN is a country code (two letters), two
/// check digits and the country's BBAN, whose length and layout the IBAN registry sets for each
/// country. It is valid when its country is registered, its length and BBAN layout are the
/// registry's, and, with its first four characters moved to the end and each letter replaced by
/// two digits (A = 10 … Z = 35), it is 1 modulo 97 (ISO 7064 MOD 97-10). Letters are upper-cased
/// first; spaces are not part of the electronic form and are left out.
enum IBAN {
    /// The BBAN layout of each registered country, from the SWIFT IBAN Registry (release 101, as
    /// python-stdnum 2.2 carries it): runs of `n` digits, `a` upper-case letters or `c` letters
    /// and digits, each `count!kind`.
    static let layouts: [String: String] = [
        "AD": "4!n4!n12!c", "AE": "3!n16!n", "AL": "8!n16!c", "AT": "5!n11!n",
        "AZ": "4!a20!c", "BA": "3!n3!n8!n2!n", "BE": "3!n7!n2!n", "BG": "4!a4!n2!n8!c",
        "BH": "4!a14!c", "BI": "5!n5!n11!n2!n", "BR": "8!n5!n10!n1!a1!c", "BY": "4!c4!n16!c",
        "CH": "5!n12!c", "CR": "4!n14!n", "CY": "3!n5!n16!c", "CZ": "4!n16!n",
        "DE": "8!n10!n", "DJ": "5!n5!n11!n2!n", "DK": "4!n9!n1!n", "DO": "4!c20!n",
        "EE": "2!n14!n", "EG": "4!n4!n17!n", "ES": "4!n4!n1!n1!n10!n", "FI": "3!n11!n",
        "FK": "2!a12!n", "FO": "4!n9!n1!n", "FR": "5!n5!n11!c2!n", "GB": "4!a6!n8!n",
        "GE": "2!a16!n", "GI": "4!a15!c", "GL": "4!n9!n1!n", "GR": "3!n4!n16!c",
        "GT": "4!c20!c", "HN": "4!a20!n", "HR": "7!n10!n", "HU": "3!n4!n1!n15!n1!n",
        "IE": "4!a6!n8!n", "IL": "3!n3!n13!n", "IQ": "4!a3!n12!n", "IS": "4!n2!n6!n10!n",
        "IT": "1!a5!n5!n12!c", "JO": "4!a4!n18!c", "KW": "4!a22!c", "KZ": "3!n13!c",
        "LB": "4!n20!c", "LC": "4!a24!c", "LI": "5!n12!c", "LT": "5!n11!n",
        "LU": "3!n13!c", "LV": "4!a13!c", "LY": "3!n3!n15!n", "MC": "5!n5!n11!c2!n",
        "MD": "2!c18!c", "ME": "3!n13!n2!n", "MK": "3!n10!c2!n", "MN": "4!n12!n",
        "MR": "5!n5!n11!n2!n", "MT": "4!a5!n18!c", "MU": "4!a2!n2!n12!n3!n3!a", "NI": "4!a20!n",
        "NL": "4!a10!n", "NO": "4!n6!n1!n", "OM": "3!n16!c", "PK": "4!a16!c",
        "PL": "8!n16!n", "PS": "4!a21!c", "PT": "4!n4!n11!n2!n", "QA": "4!a21!c",
        "RO": "4!a16!c", "RS": "3!n13!n2!n", "RU": "9!n5!n15!c", "SA": "2!n18!c",
        "SC": "4!a2!n2!n16!n3!a", "SD": "2!n12!n", "SE": "3!n16!n1!n", "SI": "5!n8!n2!n",
        "SK": "4!n6!n10!n", "SM": "1!a5!n5!n12!c", "SO": "4!n3!n12!n", "ST": "4!n4!n11!n2!n",
        "SV": "4!a20!n", "TL": "3!n14!n2!n", "TN": "2!n3!n13!n2!n", "TR": "5!n1!n16!c",
        "UA": "6!n19!c", "VA": "3!n15!n", "VG": "4!a16!n", "XK": "4!n10!n2!n",
        "YE": "4!a4!n18!c",
    ]

    /// Each country's layout, one kind per BBAN character, and its IBAN length.
    static let bbanKinds: [UInt16: [UInt8]] = {
        var kinds: [UInt16: [UInt8]] = [:]
        for (country, layout) in layouts {
            var characters: [UInt8] = []
            var count = 0
            for byte in layout.utf8 {
                if let digit = digitValue(byte) {
                    count = count * 10 + digit
                } else if byte != UInt8(ascii: "!") {
                    characters += Array(repeating: byte, count: count)
                    count = 0
                }
            }
            let code = Array(country.utf8)
            kinds[UInt16(code[0]) << 8 | UInt16(code[1])] = characters
        }
        return kinds
    }()

    /// Whether `value` is a valid IBAN, written electronically or in groups of four.
    static func isValid(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        var electronic = [UInt8]()
        electronic.reserveCapacity(value.count)
        for byte in value where byte != UInt8(ascii: " ") { electronic.append(upper(byte)) }
        return electronic.withUnsafeBufferPointer(isValidElectronic)
    }

    /// The electronic form: no spaces, upper case.
    static func electronic(_ value: UnsafeBufferPointer<UInt8>, into out: ByteBuffer) {
        for byte in value where byte != UInt8(ascii: " ") { out.append(upper(byte)) }
    }

    private static func isValidElectronic(_ iban: UnsafeBufferPointer<UInt8>) -> Bool {
        guard iban.count > 4, let kinds = bbanKinds[UInt16(iban[0]) << 8 | UInt16(iban[1])],
            kinds.count == iban.count - 4, digitValue(iban[2]) != nil, digitValue(iban[3]) != nil
        else { return false }
        for (index, kind) in kinds.enumerated() {
            let byte = iban[4 + index]
            let fits: Bool
            switch kind {
            case UInt8(ascii: "n"): fits = digitValue(byte) != nil
            case UInt8(ascii: "a"): fits = isUpperLetter(byte)
            default: fits = digitValue(byte) != nil || isUpperLetter(byte)
            }
            guard fits else { return false }
        }
        // The remainder, one character at a time from the BBAN on, then the first four.
        var remainder = 0
        for offset in 0..<iban.count {
            let byte = iban[(offset + 4) % iban.count]
            if let digit = digitValue(byte) {
                remainder = (remainder * 10 + digit) % 97
            } else if isUpperLetter(byte) {
                remainder = (remainder * 100 + Int(byte - UInt8(ascii: "A")) + 10) % 97
            } else {
                return false
            }
        }
        return remainder == 1
    }

    @inline(__always)
    private static func upper(_ byte: UInt8) -> UInt8 {
        (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
    }

    @inline(__always)
    private static func isUpperLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte)
    }
}
