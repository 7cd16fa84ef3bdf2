/// Writes a CSV field, quoted only where needed: when it holds the delimiter, a quote, CR or LF.
enum CSVFieldEncoder {
    @inline(__always)
    static func append<Sink: ByteSink>(
        _ field: UnsafeBufferPointer<UInt8>, delimiter: UInt8, escapeFormulas: Bool, to out: inout Sink
    ) {
        let formula = escapeFormulas && FormulaGuard.isTrigger(field.first)
        // The prefix is part of the cell: with `'` as the delimiter, it must be quoted too.
        if !needsQuotes(field, delimiter: delimiter) && !(formula && delimiter == FormulaGuard.prefix) {
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
        guard count >= 8 else { return holdsSpecial(base, 0..<count, delimiter: delimiter) }
        // Whole words, the last one ending at the field's end (it may read some bytes twice).
        var index = 0
        while true {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // One test for every control byte stands for two (LF, CR); a word it flags for
            // another (a tab) is looked at byte by byte.
            let candidates =
                ByteSearch.controlBytes(in: word) | ByteSearch.bytes(equalTo: 0x22, in: word)
                | ByteSearch.bytes(equalTo: delimiter, in: word)
            if candidates != 0 && holdsSpecial(base, index..<(index + 8), delimiter: delimiter) {
                return true
            }
            guard index + 8 < count else { return false }
            index = min(index + 8, count - 8)
        }
    }

    /// Whether `base[range]` holds the delimiter, a quote, CR or LF.
    @inline(__always)
    private static func holdsSpecial(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, delimiter: UInt8)
        -> Bool
    {
        for index in range {
            let byte = base[index]
            if byte == delimiter || byte == 0x22 || byte == 0x0A || byte == 0x0D { return true }
        }
        return false
    }
}

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

/// Writes JSON string literals.
enum JSONStringEncoder {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `"…"`: runs of plain bytes are copied whole; quotes, backslashes and control
    /// characters are escaped.
    static func appendQuoted(
        _ value: UnsafeBufferPointer<UInt8>, prefix: UInt8? = nil, to out: inout ByteBuffer
    ) {
        out.append(0x22)
        if let prefix { out.append(prefix) }
        appendEscaping(value, to: &out)
        out.append(0x22)
    }

    /// Appends a string's text, without its quotes: runs of plain bytes are copied whole;
    /// quotes, backslashes and control characters are escaped.
    static func appendEscaping<Sink: ByteSink>(_ value: UnsafeBufferPointer<UInt8>, to out: inout Sink) {
        guard let base = value.baseAddress else { return }
        var start = 0
        while start < value.count {
            let special = ByteSearch.firstJSONSpecial(base, from: start, count: value.count)
            out.append(UnsafeBufferPointer(start: base + start, count: special - start))
            guard special < value.count else { break }
            appendEscaped(base[special], to: &out)
            start = special + 1
        }
    }

    /// Copies the text to `target` unless it holds a quote, a backslash or a control character
    /// (then returns false, what it copied being of no use): eight bytes at a time, the last
    /// word ending at the text's end (it may copy some bytes twice), as every JSON output cell
    /// goes through here. Writes nothing past `target + value.count`.
    @inline(__always)
    static func copyUnescaped(_ value: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>)
        -> Bool
    {
        guard let base = value.baseAddress else { return true }
        let count = value.count
        let source = UnsafeRawPointer(base)
        let destination = UnsafeMutableRawPointer(target)
        // Each test flags a byte above a true find at most, so a word without one reads as 0.
        @inline(__always)
        func specials(_ word: UInt64) -> UInt64 {
            ByteSearch.bytes(equalTo: 0x22, in: word) | ByteSearch.bytes(equalTo: 0x5C, in: word)
                | ByteSearch.controlBytes(in: word)
        }
        if count >= 8 {
            var index = 0
            while true {
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                guard specials(word) == 0 else { return false }
                destination.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
                guard index + 8 < count else { return true }
                index = min(index + 8, count - 8)
            }
        }
        if count >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            guard specials(UInt64(head) | UInt64(tail) << 32) == 0 else { return false }
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
            return true
        }
        for index in 0..<count {
            let byte = base[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
            target[index] = byte
        }
        return true
    }

    /// Appends `"…"`, escaping quotes, backslashes and control characters.
    static func appendQuoted<Bytes: Collection<UInt8>, Sink: ByteSink>(
        _ value: Bytes, prefix: UInt8? = nil, to out: inout Sink
    ) {
        out.append(0x22)
        if let prefix { out.append(prefix) }
        for byte in value {
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                out.append(byte)
            } else {
                appendEscaped(byte, to: &out)
            }
        }
        out.append(0x22)
    }

    private static func appendEscaped<Sink: ByteSink>(_ byte: UInt8, to out: inout Sink) {
        out.append(0x5C)
        switch byte {
        case 0x22, 0x5C: out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            for escaped in [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]] {
                out.append(escaped)
            }
        }
    }
}
