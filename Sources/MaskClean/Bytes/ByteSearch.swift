/// Finds bytes in eight-byte words: the tests the encoders and scanners run on every byte.
enum ByteSearch {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// High bits set where `word` holds `byte` (exact for the lowest such byte).
    @inline(__always)
    static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// High bits set where `word` holds a byte below 0x20 (exact for the lowest such byte).
    @inline(__always)
    static func controlBytes(in word: UInt64) -> UInt64 {
        (word &- ones &* 0x20) & ~word & highs
    }

    /// The index of the first byte at or after `start` that needs care in a JSON string: a
    /// quote, a backslash or a control character, and with `orNonASCII` a byte ≥ 0x80 (which a
    /// reader checks as UTF-8); or `count`.
    @inline(__always)
    static func firstJSONSpecial(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, orNonASCII: Bool = false
    ) -> Int {
        let alsoFound = orNonASCII ? highs : 0
        var index = start
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Each test is exact for its lowest byte, so the lowest of them all is a true find.
            let found =
                bytes(equalTo: 0x22, in: word) | bytes(equalTo: 0x5C, in: word) | controlBytes(in: word)
                | word & alsoFound
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || orNonASCII && byte >= 0x80 { return index }
            index += 1
        }
        return index
    }
}
