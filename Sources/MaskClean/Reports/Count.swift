/// The counts and row numbers maskclean reads from a file or the command line (a report's counts,
/// a spec's `maxRejected` and `minRows`, `--first-row`) and the sums `merge` makes of them.
///
/// Each is a whole number from 0 to `maximum`, 2^53 − 1: the largest whole number that every
/// JSON reader (jq, JavaScript, any reader that holds numbers as doubles) reads exactly, so that a
/// report's counts mean the same to them as to maskclean (docs/report.md). It is far above any real
/// count, and far enough below `Int.max` that a sum of two counts, or ten times one (a ratio's long
/// division), cannot overflow.
public enum Count {
    public static let maximum = (1 << 53) - 1

    /// `a + b`, or nil when the sum would pass `maximum` (or either is negative).
    public static func sum(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow || a < 0 || b < 0 || sum > maximum ? nil : sum
    }

    /// The whole number a JSON number's text (or a YAML decimal's: a `+` or a bare `.5` too) says,
    /// when it is one from 0 to `maximum`: read exactly from its digits, fraction and exponent, so
    /// that `1e15` and `1000.0` are whole numbers and `9007199254740993` is not taken for its
    /// nearest double. Nil for a fraction, a negative number, a number past `maximum` or text
    /// that is not a number.
    public static func whole(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && (0x30...0x39).contains(bytes[at]) }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        // The digits with the point taken out, and how many of them came after it.
        var digits: [UInt8] = []
        var fractionDigits = 0
        while isDigit(index) {
            digits.append(bytes[index])
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while isDigit(index) {
                digits.append(bytes[index])
                fractionDigits += 1
                index += 1
            }
        }
        guard !digits.isEmpty else { return nil }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var negativeExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                // Capped far above the length of any text in memory, so that the cap never
                // brings a huge number into range.
                exponent = min(exponent * 10 + Int(bytes[index] - 0x30), 1 << 50)
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        guard index == bytes.count else { return nil }

        // Zero is zero whatever its sign and exponent (`-0`, `0e99`).
        var significant = digits.drop { $0 == UInt8(ascii: "0") }
        if significant.isEmpty { return 0 }
        guard !negative else { return nil }
        // The value is `significant` × 10^scale once its trailing zeros join the exponent.
        var scale = exponent - fractionDigits
        while significant.last == UInt8(ascii: "0") {
            significant.removeLast()
            scale += 1
        }
        guard scale >= 0 else { return nil }  // a fraction is left over
        guard significant.count + scale <= String(maximum).count else { return nil }
        var value = 0
        for digit in significant { value = value * 10 + Int(digit - 0x30) }
        for _ in 0..<scale { value *= 10 }
        return value <= maximum ? value : nil
    }
}

extension Partition {
    /// Why the partition's rows cannot be numbered, if they cannot: its last row would pass
    /// `Count.maximum` (`firstRow + rows − 1`).
    var rowsPastMaximum: String? {
        guard let firstRow, firstRow >= 1, rows > 0, Count.sum(firstRow, rows - 1) == nil else { return nil }
        return "its \(rows) rows from row \(firstRow) end past row \(Count.maximum), the largest row number"
    }
}
