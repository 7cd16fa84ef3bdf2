import FoundationEssentials

/// `--escape-formulas`: spreadsheet programs run a cell that starts with `= + - @`, a tab or a
/// CR as a formula (and `+1 (555)` is such a cell). A leading `'` makes it text.
enum FormulaGuard {
    static let prefix = UInt8(ascii: "'")

    /// Whether the JSON string whose text starts at `start` (just after its quote) starts with a
    /// trigger once decoded: written plainly or as an escape (`\t`, `\r`, `\u003d`, `\u002B`…).
    static func startsJSONString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        guard start < bytes.count else { return false }
        if bytes[start] != UInt8(ascii: "\\") { return isTrigger(bytes[start]) }
        guard start + 1 < bytes.count else { return false }
        switch bytes[start + 1] {
        case UInt8(ascii: "t"), UInt8(ascii: "r"): return true
        case UInt8(ascii: "u"):
            guard start + 5 < bytes.count else { return false }
            var code: UInt32 = 0
            for byte in bytes[(start + 2)...(start + 5)] {
                guard let digit = hexValue(byte) else { return false }
                code = code << 4 | digit
            }
            return code < 0x80 && isTrigger(UInt8(code))
        default: return false
        }
    }

    /// The string values (not keys) inside a JSON object or array whose decoded text starts
    /// with a trigger: where a `'` goes, just after each one's opening quote.
    static func nestedTriggers(
        _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>, into insertions: inout [Int]
    ) {
        var index = range.lowerBound
        while index < range.upperBound {
            guard bytes[index] == 0x22 else {
                index += 1
                continue
            }
            let text = index + 1
            var end = text
            while end < range.upperBound && bytes[end] != 0x22 {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            var next = end + 1
            while next < range.upperBound && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
            let isKey = next < range.upperBound && bytes[next] == UInt8(ascii: ":")
            if !isKey && startsJSONString(bytes, text) { insertions.append(text) }
            index = end + 1
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    @inline(__always)
    static func isTrigger(_ first: UInt8?) -> Bool {
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D:
            return true
        default: return false
        }
    }
}
