import MaskEngine

/// The order of a date's day, month and year, where the format does not say (`dateOrder`).
public enum DateOrder: String, Sendable, CaseIterable {
    case ymd = "YMD"
    case mdy = "MDY"
    case dmy = "DMY"
}

/// Where one format puts a date's year, month and day (docs/cell-status.md#date), worked out when
/// the spec is loaded: from the format's groups of value characters (`Mask.valueGroups`) and the
/// column's `dateOrder`.
struct DateLayout: Sendable, Hashable {
    /// The year, month and day as written: 0, 1 or 2 for each, by position.
    var order: DateOrder
    /// A single group of digits, 6 or 8 long (`[00000000]`): the value is split by position.
    var compactLength: Int?
    /// The digits each group of a separated date may have, in written order.
    var groupLengths: [ClosedRange<Int>]

    /// Why the format cannot hold a date, in a message's words.
    struct Refusal: Error {
        var reason: String
    }

    init(_ mask: Mask, order givenOrder: DateOrder?) throws(Refusal) {
        if mask.literalCharacters.contains(where: \.isNumber) {
            throw Refusal(reason: "a date's format must not write digits of its own")
        }
        let groups = mask.valueGroups
        let ranges = groups.map { $0.minimumLength...($0.maximumLength ?? Int.max) }
        if groups.count == 1 {
            let length = groups[0].minimumLength
            guard groups[0].maximumLength == length, length == 8 || length == 6 else {
                throw Refusal(
                    reason:
                        "a date in one group of digits has 8 (or 6) of them, not \(Self.describe(ranges[0]))")
            }
            // 8 digits are ISO 8601's basic form, whatever `dateOrder` says for the column's
            // other formats: an export that writes `[00]/[00]/[0000]` and `[00000000]` writes
            // `19840307`, not `03071984`.
            guard let order = length == 8 ? .ymd : givenOrder else {
                throw Refusal(reason: "6 digits without separators need \"dateOrder\" to say which is which")
            }
            self.order = order
            self.compactLength = length
            self.groupLengths = []
            return
        }
        guard groups.count == 3 else {
            throw Refusal(
                reason: "a date has 3 groups of digits (day, month, year), this format has \(groups.count)")
        }
        for range in ranges where range.upperBound > 4 || range.lowerBound < 1 {
            throw Refusal(reason: "a group of \(Self.describe(range)) digits is not a day, a month or a year")
        }
        let years = ranges.indices.filter { ranges[$0].upperBound == 4 }
        let order: DateOrder
        switch years {
        case [0]:
            order = .ymd
        case [2]:
            guard let givenOrder, givenOrder != .ymd else {
                throw Refusal(
                    reason:
                        "the year is last, so \"dateOrder\" must say \"MDY\" or \"DMY\" (month or day first)")
            }
            order = givenOrder
        case [] where ranges.allSatisfy({ $0.upperBound <= 2 }):
            guard let givenOrder else {
                throw Refusal(reason: "no group of 4 digits is the year, so \"dateOrder\" must say which is")
            }
            order = givenOrder
        case []:
            throw Refusal(
                reason: "a group of digits is a day or a month (2 digits), or a year (4 digits, or 2)")
        default:
            throw Refusal(reason: "the year, the one group of 4 digits, must come first or last")
        }
        for (index, range) in ranges.enumerated() where range.upperBound > 2 && index != order.yearIndex {
            throw Refusal(reason: "a day or a month has at most 2 digits, not \(Self.describe(range))")
        }
        self.order = order
        self.compactLength = nil
        self.groupLengths = ranges
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max
            ? "\(range.lowerBound) or more"
            : range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
    }

    /// The date the formatted value writes, if it is a real one: its year, month and day.
    func date(_ formatted: UnsafeBufferPointer<UInt8>) -> (year: Int, month: Int, day: Int)? {
        // The numbers the value writes, in order, and their digit counts.
        var numbers = (0, 0, 0)
        var lengths = (0, 0, 0)
        if let compactLength {
            guard formatted.count == compactLength else { return nil }
            let yearLength = compactLength - 4
            var offset = 0
            for position in 0..<3 {
                let length = position == order.yearIndex ? yearLength : 2
                var number = 0
                for index in offset..<(offset + length) {
                    guard let digit = digitValue(formatted[index]) else { return nil }
                    number = number * 10 + digit
                }
                offset += length
                Self.set(&numbers, position, number)
                Self.set(&lengths, position, length)
            }
        } else {
            var group = -1
            var inGroup = false
            for byte in formatted {
                if let digit = digitValue(byte) {
                    if !inGroup {
                        group += 1
                        guard group < 3 else { return nil }
                        inGroup = true
                    }
                    Self.set(&numbers, group, Self.get(numbers, group) * 10 + digit)
                    Self.set(&lengths, group, Self.get(lengths, group) + 1)
                    guard Self.get(lengths, group) <= 4 else { return nil }
                } else {
                    inGroup = false
                }
            }
            guard group == 2 else { return nil }
            for position in 0..<3 where !groupLengths[position].contains(Self.get(lengths, position)) {
                return nil
            }
        }
        // A year is written with 4 digits, or with 2 (POSIX `%y`); a group of 2 to 4 (`[0099]`)
        // with 1 or 3 says no year.
        var year = Self.get(numbers, order.yearIndex)
        switch Self.get(lengths, order.yearIndex) {
        case 4: break
        case 2: year += year >= 69 ? 1900 : 2000
        default: return nil
        }
        let month = Self.get(numbers, order.monthIndex)
        let day = Self.get(numbers, order.dayIndex)
        guard CalendarDate.isValid(year: year, month: month, day: day) else { return nil }
        return (year, month, day)
    }

    private static func get(_ values: (Int, Int, Int), _ index: Int) -> Int {
        index == 0 ? values.0 : index == 1 ? values.1 : values.2
    }

    private static func set(_ values: inout (Int, Int, Int), _ index: Int, _ value: Int) {
        switch index {
        case 0: values.0 = value
        case 1: values.1 = value
        default: values.2 = value
        }
    }
}

extension DateOrder {
    /// Where the year, the month and the day are, by position: Y M D, M D Y, D M Y.
    var yearIndex: Int { self == .ymd ? 0 : 2 }
    var monthIndex: Int { self == .mdy ? 0 : 1 }
    var dayIndex: Int {
        switch self {
        case .dmy: 0
        case .mdy: 1
        case .ymd: 2
        }
    }
}

/// The Gregorian calendar's rules (ISO 8601, and Python's `datetime`): years 1 to 9999, months 1
/// to 12, and the days of each month, 29 February in leap years only (a year divisible by 4 and
/// not by 100, or divisible by 400).
enum CalendarDate {
    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
        return day <= daysIn(month: month, year: year)
    }

    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD`, ISO 8601's extended form.
    static func iso(year: Int, month: Int, day: Int, into out: ByteBuffer) {
        for (value, digits) in [(year, 4), (month, 2), (day, 2)] {
            if digits == 2 { out.append(UInt8(ascii: "-")) }
            var divisor = digits == 4 ? 1000 : 10
            while divisor > 0 {
                out.append(UInt8(0x30 + value / divisor % 10))
                divisor /= 10
            }
        }
    }
}
