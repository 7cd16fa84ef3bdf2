import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What keeps JSON text from being written out as it came: bytes that are not UTF-8 (overlong
/// forms, encoded surrogates, Latin-1 bytes, truncated sequences) and `\u` escapes of a lone
/// surrogate, which strict parsers refuse.
enum JSONTextCheck {
    /// The offset of the first problem in `bytes` and what it is, or nil when all is well.
    static func firstProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, reason: String)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        var sawBackslash = false
        while index < count {
            // Plain ASCII without a backslash, eight bytes at a time: nearly every record.
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & ByteSearch.highs == 0 {
                    if ByteSearch.bytes(equalTo: 0x5C, in: word) != 0 { sawBackslash = true }
                    index += 8
                    continue
                }
            }
            let byte = base[index]
            if byte < 0x80 {
                if byte == 0x5C { sawBackslash = true }
                index += 1
                continue
            }
            guard let length = sequenceLength(base, index, count) else {
                return (index, "invalid UTF-8")
            }
            index += length
        }
        return sawBackslash ? loneSurrogate(bytes) : nil
    }

    /// The length of the valid UTF-8 sequence at `index` (its first byte ≥ 0x80), or nil.
    static func sequenceLength(_ base: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> Int? {
        let first = base[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0  // no overlong form
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F  // no encoded surrogate
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F  // nothing past U+10FFFF
        default: return nil
        }
        guard index + length <= count, (low...high).contains(base[index + 1]) else { return nil }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(base[index + offset]) {
            return nil
        }
        return length
    }

    /// A `\uD800`–`\uDBFF` escape not followed by a `\uDC00`–`\uDFFF` one, or the latter alone.
    /// Hops from backslash to backslash: most records have few or none.
    private static func loneSurrogate(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, reason: String)? {
        guard let base = bytes.baseAddress else { return nil }
        let high = "a lone surrogate escape (\\uD800–\\uDBFF)"
        var index = 0
        /// Where the last high surrogate's escape ended, if one waits for its low half.
        var pendingHigh: (start: Int, end: Int)?
        while index < bytes.count,
            let found = memchr(base + index, 0x5C, bytes.count - index)
        {
            let slash = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // A high surrogate must be followed at once by its low half.
            if let waiting = pendingHigh, slash != waiting.end { return (waiting.start, high) }
            guard slash + 1 < bytes.count else { break }
            guard bytes[slash + 1] == UInt8(ascii: "u"), slash + 5 < bytes.count,
                let code = hex4(bytes, slash + 2)
            else {
                if let waiting = pendingHigh { return (waiting.start, high) }
                index = slash + 2
                continue
            }
            switch code {
            case 0xD800...0xDBFF:
                if let waiting = pendingHigh { return (waiting.start, high) }
                pendingHigh = (slash, slash + 6)
            case 0xDC00...0xDFFF:
                guard pendingHigh != nil else { return (slash, "a lone surrogate escape (\\uDC00–\\uDFFF)") }
                pendingHigh = nil
            default:
                if let waiting = pendingHigh { return (waiting.start, high) }
            }
            index = slash + 6
        }
        return pendingHigh.map { ($0.start, high) }
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> UInt32? {
        var code: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }
}
