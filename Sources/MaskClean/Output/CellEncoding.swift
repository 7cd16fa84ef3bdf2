/// Writes a CSV field, quoted only where needed: when it holds the delimiter, a quote, CR or LF.
enum CSVFieldEncoder {
    @inline(__always)
    static func append<Sink: ByteSink>(
        _ field: UnsafeBufferPointer<UInt8>, delimiter: UInt8, escapeFormulas: Bool, to out: inout Sink
    ) {
        let formula = escapeFormulas && FormulaGuard.isTrigger(field.first)
        if !needsQuotes(field, delimiter: delimiter) {
            if formula { out.append(FormulaGuard.prefix) }
            out.append(field)
            return
        }
        out.append(0x22)
        if formula { out.append(FormulaGuard.prefix) }
        for byte in field {
            if byte == 0x22 { out.append(0x22) }
            out.append(byte)
        }
        out.append(0x22)
    }
}

extension CSVFieldEncoder {
    /// Whether the field holds the delimiter, a quote, CR or LF: eight bytes at a time, as every
    /// output cell goes through here.
    @inline(__always)
    static func needsQuotes(_ field: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> Bool {
        guard let base = field.baseAddress else { return false }
        let count = field.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always)
        func hasByte(_ word: UInt64, _ byte: UInt8) -> UInt64 {
            let difference = word ^ (ones &* UInt64(byte))
            return (difference &- ones) & ~difference
        }
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if (hasByte(word, delimiter) | hasByte(word, 0x22) | hasByte(word, 0x0A) | hasByte(word, 0x0D))
                & highs != 0
            {
                return true
            }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte == delimiter || byte == 0x22 || byte == 0x0A || byte == 0x0D { return true }
            index += 1
        }
        return false
    }
}

/// `--escape-formulas`: spreadsheet programs run a cell that starts with `= + - @`, a tab or a
/// CR as a formula (and `+1 (555)` is such a cell). A leading `'` makes it text.
enum FormulaGuard {
    static let prefix = UInt8(ascii: "'")

    /// Whether the JSON string whose text starts at `start` (just after its quote) starts with a
    /// trigger, written plainly or as an escape (`\t`, `\r`, `\u0009`, `\u000d`).
    static func startsJSONString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        guard start < bytes.count else { return false }
        if bytes[start] != UInt8(ascii: "\\") { return isTrigger(bytes[start]) }
        guard start + 1 < bytes.count else { return false }
        switch bytes[start + 1] {
        case UInt8(ascii: "t"), UInt8(ascii: "r"): return true
        case UInt8(ascii: "u"):
            guard start + 5 < bytes.count else { return false }
            let code = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[(start + 2)...(start + 5)]), as: UTF8.self)
            return ["0009", "000d", "000D"].contains(code)
        default: return false
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

/// Writes JSON string literals.
enum JSONStringEncoder {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `"…"`, escaping quotes, backslashes and control characters.
    static func appendQuoted<Bytes: Collection<UInt8>, Sink: ByteSink>(
        _ value: Bytes, prefix: UInt8? = nil, to out: inout Sink
    ) {
        out.append(0x22)
        if let prefix { out.append(prefix) }
        for byte in value {
            switch byte {
            case 0x22:
                out.append(0x5C)
                out.append(0x22)
            case 0x5C:
                out.append(0x5C)
                out.append(0x5C)
            case 0x0A:
                out.append(0x5C)
                out.append(UInt8(ascii: "n"))
            case 0x0D:
                out.append(0x5C)
                out.append(UInt8(ascii: "r"))
            case 0x09:
                out.append(0x5C)
                out.append(UInt8(ascii: "t"))
            case 0x00..<0x20:
                for escaped in [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
                ] {
                    out.append(escaped)
                }
            default:
                out.append(byte)
            }
        }
        out.append(0x22)
    }
}
