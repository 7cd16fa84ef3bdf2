/// The Luhn check digit (ISO/IEC 7812-1, annex B): payment cards, IMEI, and the US National
/// Provider Identifier once its `80840` prefix is put in front.
enum Luhn {
    /// Whether `prefix` followed by `value` (digits only) ends in its Luhn check digit: from the
    /// right, every second digit is doubled (less 9 when that passes 9) and the sum is a multiple
    /// of 10. A value with anything but digits, or with none, fails.
    static func isValid(_ value: UnsafeBufferPointer<UInt8>, prefix: [UInt8] = []) -> Bool {
        guard !value.isEmpty else { return false }
        var sum = 0
        var doubled = false
        for index in stride(from: value.count - 1, through: 0, by: -1) {
            guard let digit = digitValue(value[index]) else { return false }
            sum += doubled ? doubledDigit(digit) : digit
            doubled.toggle()
        }
        for index in stride(from: prefix.count - 1, through: 0, by: -1) {
            guard let digit = digitValue(prefix[index]) else { return false }
            sum += doubled ? doubledDigit(digit) : digit
            doubled.toggle()
        }
        return sum % 10 == 0
    }

    @inline(__always)
    private static func doubledDigit(_ digit: Int) -> Int {
        digit < 5 ? digit * 2 : digit * 2 - 9
    }
}

/// The value of an ASCII digit, or nil.
@inline(__always)
func digitValue(_ byte: UInt8) -> Int? {
    byte &- 0x30 < 10 ? Int(byte &- 0x30) : nil
}
