/// ISO 8601 timestamps as exports write them (docs/command-line.md, `describe`): a date
/// `2024-03-05`, then `T` or a space, the time `14:22` with perhaps its seconds `:09` and their
/// fraction `.250`, and perhaps a zone, `Z` or an offset `+01:00`, `-0500` or `+01`. A date alone
/// counts too, so that a column of timestamps with a few dates gets a format for them.
///
/// The format writes every separator as a fixed character (`{T}`, `{:}`, `{Z}`), never as a slot:
/// the extracted value is the timestamp as written. An offset's sign is a fixed character of its
/// own format, one format for `+` and one for `-`: a sign is never dropped or replaced.
enum TimestampKind {
    /// The format of one timestamp, its fraction's digits as `fractionSlot` (`KindTally` keeps
    /// the fewest and most the column's fractions have, and `KindFormats` writes them), or nil.
    static func format(_ text: [UInt8]) -> (format: String, fractionDigits: Int?)? {
        guard text.count >= 10, text[4] == UInt8(ascii: "-") else { return nil }
        var reader = Reader(text: text)
        guard let year = reader.number(4), (1000...2999).contains(year), reader.take("-"),
            let month = reader.number(2), (1...12).contains(month), reader.take("-"),
            let day = reader.number(2), (1...31).contains(day)
        else { return nil }
        var format = "[0000]{-}[00]{-}[00]"
        if reader.atEnd { return (format, nil) }
        guard let separator = reader.next(), separator == UInt8(ascii: "T") || separator == 0x20 else {
            return nil
        }
        guard let hour = reader.number(2), hour <= 23, reader.take(":"), let minute = reader.number(2),
            minute <= 59
        else { return nil }
        format += (separator == 0x20 ? "{ }" : "{T}") + "[00]{:}[00]"
        var fractionDigits: Int?
        if reader.take(":") {
            guard let second = reader.number(2), second <= 60 else { return nil }
            format += "{:}[00]"
            if let point = reader.peek, point == UInt8(ascii: ".") || point == UInt8(ascii: ",") {
                _ = reader.next()
                let digits = reader.digitRun()
                guard (1...9).contains(digits) else { return nil }
                format += "{" + String(UnicodeScalar(point)) + "}" + fractionSlot
                fractionDigits = digits
            }
        }
        if reader.take("Z") {
            format += "{Z}"
        } else if let sign = reader.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            _ = reader.next()
            guard let hours = reader.number(2), hours <= 14 else { return nil }
            format += "{" + String(UnicodeScalar(sign)) + "}[00]"
            if reader.take(":") {
                guard let minutes = reader.number(2), minutes <= 59 else { return nil }
                format += "{:}[00]"
            } else if !reader.atEnd {
                guard let minutes = reader.number(2), minutes <= 59 else { return nil }
                format += "[00]"
            }
        }
        return reader.atEnd ? (format, fractionDigits) : nil
    }

    /// Where a format holds its fraction's digits until the column's are known.
    static let fractionSlot = "[F]"

    /// Whether a format has an offset with a sign, for the column's `significant`.
    static func hasOffset(_ format: String) -> Bool {
        format.contains("{+}") || format.dropFirst(20).contains("{-}")
    }

    private struct Reader {
        let text: [UInt8]
        var index = 0

        var atEnd: Bool { index == text.count }
        var peek: UInt8? { atEnd ? nil : text[index] }

        mutating func next() -> UInt8? {
            guard let byte = peek else { return nil }
            index += 1
            return byte
        }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard peek == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        mutating func number(_ width: Int) -> Int? {
            guard index + width <= text.count else { return nil }
            var value = 0
            for byte in text[index..<index + width] {
                guard PostcodeRules.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += width
            return value
        }

        mutating func digitRun() -> Int {
            let start = index
            while let byte = peek, PostcodeRules.isDigit(byte) { index += 1 }
            return index - start
        }
    }
}
