/// GS1's Global Trade Item Numbers (GS1 General Specifications, 7.9): GTIN-8 (EAN-8), GTIN-12
/// (UPC-A), GTIN-13 (EAN-13, and ISBN-13) and GTIN-14. The last digit is the check digit: from the
/// right, the digits before it are weighted 3, 1, 3, 1…, and the check digit brings the sum to a
/// multiple of 10.
enum GTIN {
    static let lengths: Set<Int> = [8, 12, 13, 14]

    /// Whether `value` is a GTIN of a registered length, all digits, with its check digit.
    static func isValid(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths.contains(value.count) else { return false }
        return hasCheckDigit(value)
    }

    /// Whether the last of `digits` is the GS1 check digit of the others (any length from 2).
    static func hasCheckDigit(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        guard digits.count >= 2, let check = digitValue(digits[digits.count - 1]) else { return false }
        guard let expected = checkDigit(UnsafeBufferPointer(rebasing: digits.dropLast())) else {
            return false
        }
        return check == expected
    }

    /// The GS1 check digit of `digits` (the number without it), or nil when one is not a digit.
    static func checkDigit(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        var sum = 0
        var weight = 3
        for index in stride(from: digits.count - 1, through: 0, by: -1) {
            guard let digit = digitValue(digits[index]) else { return nil }
            sum += digit * weight
            weight = 4 - weight
        }
        return (10 - sum % 10) % 10
    }
}
