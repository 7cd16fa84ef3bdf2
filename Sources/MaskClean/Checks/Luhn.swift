/// The Luhn check digit (ISO/IEC 7812-1, annex B): payment cards, IMEI, and the US National
/// Provider Identifier once its `80840` prefix is put in front.
enum Luhn {
    /// Whether `prefix` followed by `value` (digits only) ends in its Luhn check digit: from the
    /// right, every second digit is doubled (less 9 when that passes 9) and the sum is a multiple
    /// of 10. A value with anything but digits, or with none, fails.
    static func isValid(_ value: UnsafeBufferPointer<UInt8>, prefix: [UInt8] = []) -> Bool {
        guard let prefix = Prefix(prefix) else { return false }
        return isValid(value, prefix: prefix)
    }

    /// The same, with the prefix's part of the sum worked out once for a column: a cell then
    /// costs one pass over its own digits, and nothing is reference-counted.
    @inline(__always)
    static func isValid(_ value: UnsafeBufferPointer<UInt8>, prefix: Prefix) -> Bool {
        guard !value.isEmpty else { return false }
        // Two digits a turn from the right, the second doubled: no flag to flip per digit.
        var sum = 0
        var index = value.count
        while index >= 2 {
            let kept = Int(value[index - 1] &- 0x30)
            let doubled = Int(value[index - 2] &- 0x30)
            guard kept < 10, doubled < 10 else { return false }
            sum &+= kept &+ doubledDigit(doubled)
            index -= 2
        }
        if index == 1 {
            let kept = Int(value[0] &- 0x30)
            guard kept < 10 else { return false }
            sum &+= kept
        }
        // After an odd count of digits, the prefix's last digit is doubled.
        sum &+= value.count % 2 == 1 ? prefix.sumIfLastDoubled : prefix.sumIfLastKept
        return sum % 10 == 0
    }

    /// A prefix's part of the Luhn sum, for either parity of the digits after it.
    struct Prefix: Sendable, Hashable {
        var sumIfLastDoubled = 0
        var sumIfLastKept = 0

        /// Nil when `digits` holds anything but digits.
        init?(_ digits: [UInt8]) {
            for (position, byte) in digits.reversed().enumerated() {
                guard let digit = digitValue(byte) else { return nil }
                let even = position % 2 == 0
                sumIfLastDoubled += even ? Luhn.doubledDigit(digit) : digit
                sumIfLastKept += even ? digit : Luhn.doubledDigit(digit)
            }
        }
    }

    @inline(__always)
    fileprivate static func doubledDigit(_ digit: Int) -> Int {
        digit < 5 ? digit * 2 : digit * 2 - 9
    }
}

/// The value of an ASCII digit, or nil.
@inline(__always)
func digitValue(_ byte: UInt8) -> Int? {
    byte &- 0x30 < 10 ? Int(byte &- 0x30) : nil
}
