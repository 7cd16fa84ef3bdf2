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
