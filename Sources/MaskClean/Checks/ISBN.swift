/// International Standard Book Numbers (ISO 2108). An ISBN-10 is nine digits and a check
/// character, `0`–`9` or `X` for 10, such that the digits weighted 10, 9, … 1 sum to a multiple
/// of 11. An ISBN-13 is a GTIN-13 that starts `978` or `979`. An ISBN-10's ISBN-13 is `978`, its
/// first nine digits, and the GTIN check digit of those twelve.
enum ISBN {
    /// Whether `value` is an ISBN-10 (a lower-case `x` is read as `X`) or an ISBN-13.
    static func isValid(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        switch value.count {
        case 10: return isValidISBN10(value)
        case 13:
            return (value.starts(with: "978".utf8) || value.starts(with: "979".utf8)) && GTIN.isValid(value)
        default: return false
        }
    }

    static func isValidISBN10(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.count == 10 else { return false }
        var sum = 0
        for index in 0..<10 {
            let weight = 10 - index
            if let digit = digitValue(value[index]) {
                sum += digit * weight
            } else if index == 9 && value[index] | 0x20 == UInt8(ascii: "x") {
                sum += 10
            } else {
                return false
            }
        }
        return sum % 11 == 0
    }

    /// The ISBN-13 of a valid ISBN: an ISBN-13 as it is, an ISBN-10 converted.
    static func isbn13(_ value: UnsafeBufferPointer<UInt8>, into out: ByteBuffer) {
        guard value.count == 10 else {
            out.append(value)
            return
        }
        var digits = Array("978".utf8)
        digits.append(contentsOf: value.prefix(9))
        let check = digits.withUnsafeBufferPointer { GTIN.checkDigit($0) } ?? 0
        digits.append(UInt8(0x30 + check))
        out.append(digits)
    }
}
