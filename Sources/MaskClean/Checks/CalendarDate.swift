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
struct DateLayout: Sendable {
    /// The year, month and day as written: 0, 1 or 2 for each, by position.
    var order: DateOrder
    /// A single group of digits, 6 or 8 long (`[00000000]`): the value is split by position.
    var compactLength: Int?
    /// The digits each group of a separated date may have, in written order.
    /// Three ranges, not an array: a layout is read for every cell, and an array would be
    /// retained and released each time.
    var groupLengths: (ClosedRange<Int>, ClosedRange<Int>, ClosedRange<Int>)

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
            self.groupLengths = (0...0, 0...0, 0...0)
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
        self.groupLengths = (ranges[0], ranges[1], ranges[2])
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max
            ? "\(range.lowerBound) or more"
            : range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
    }

    /// The date the formatted value writes, if it is a real one: its year, month and day. Plain
    /// loops over the bytes, no array: it runs for every cell of a date column.
    ///
    /// A byte outside ASCII is a separator only when `otherScripts` says the value's digits of
    /// other scripts were made ASCII already (`DigitText`); otherwise it gives nil, for the value
    /// to be read again that way: `४` must not separate `1४` into `1`.
    func date(_ formatted: UnsafeBufferPointer<UInt8>, otherScripts: Bool = false) -> (
        year: Int, month: Int, day: Int
    )? {
        // The three numbers the value writes, in written order, and their digit counts.
        var n0 = 0
        var n1 = 0
        var n2 = 0
        var l0 = 0
        var l1 = 0
        var l2 = 0
        if let compactLength {
            guard formatted.count == compactLength else { return nil }
            for byte in formatted where digitValue(byte) == nil { return nil }
            // Two digits each, but the year's 4 in an 8-digit value.
            let yearLength = compactLength - 4
            l0 = order.yearIndex == 0 ? yearLength : 2
            l1 = 2
            l2 = order.yearIndex == 2 ? yearLength : 2
            for index in 0..<l0 { n0 = n0 * 10 + Int(formatted[index] &- 0x30) }
            for index in l0..<(l0 + l1) { n1 = n1 * 10 + Int(formatted[index] &- 0x30) }
            for index in (l0 + l1)..<compactLength { n2 = n2 * 10 + Int(formatted[index] &- 0x30) }
        } else {
            // Three runs of digits, each ended by what is not a digit: read run by run.
            var index = 0
            let end = formatted.count
            func run(_ number: inout Int, _ length: inout Int) -> Bool {
                while index < end && formatted[index] &- 0x30 >= 10 {
                    if formatted[index] >= 0x80 && !otherScripts { return false }
                    index += 1
                }
                while index < end {
                    let digit = formatted[index] &- 0x30
                    guard digit < 10 else { break }
                    number = number &* 10 &+ Int(digit)
                    length += 1
                    index += 1
                }
                return length > 0 && length <= 4
            }
            guard run(&n0, &l0), run(&n1, &l1), run(&n2, &l2) else { return nil }
            // Nothing but separators after the third.
            while index < end {
                guard formatted[index] &- 0x30 >= 10, formatted[index] < 0x80 || otherScripts else {
                    return nil
                }
                index += 1
            }
            guard groupLengths.0.contains(l0), groupLengths.1.contains(l1), groupLengths.2.contains(l2)
            else { return nil }
        }
        let numbers = (n0, n1, n2)
        let lengths = (l0, l1, l2)
        func pick(_ values: (Int, Int, Int), _ index: Int) -> Int {
            index == 0 ? values.0 : index == 1 ? values.1 : values.2
        }
        // A year is written with 4 digits, or with 2 (POSIX `%y`); a group of 2 to 4 (`[0099]`)
        // with 1 or 3 says no year.
        var year = pick(numbers, order.yearIndex)
        switch pick(lengths, order.yearIndex) {
        case 4: break
        case 2: year += year >= 69 ? 1900 : 2000
        default: return nil
        }
        let month = pick(numbers, order.monthIndex)
        let day = pick(numbers, order.dayIndex)
        guard CalendarDate.isValid(year: year, month: month, day: day) else { return nil }
        return (year, month, day)
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
        let room = out.room(10)
        room[0] = UInt8(0x30 + year / 1000 % 10)
        room[1] = UInt8(0x30 + year / 100 % 10)
        room[2] = UInt8(0x30 + year / 10 % 10)
        room[3] = UInt8(0x30 + year % 10)
        room[4] = UInt8(ascii: "-")
        room[5] = UInt8(0x30 + month / 10)
        room[6] = UInt8(0x30 + month % 10)
        room[7] = UInt8(ascii: "-")
        room[8] = UInt8(0x30 + day / 10)
        room[9] = UInt8(0x30 + day % 10)
        out.advance(by: 10)
    }
}
