import Testing

@testable import MaskClean

/// The word-at-a-time searches every record goes through: each must find exactly the first match
/// a byte-by-byte search finds, wherever in the eight-byte word it falls, and no false one.
@Suite("Byte search, eight bytes at a time")
struct ByteSearchTests {
    /// Every byte value at every position of a 24-byte run of plain text, alone and after another
    /// special byte.
    @Test("firstJSONSpecial finds the first quote, backslash or control byte, as a plain loop does")
    func firstJSONSpecial() {
        for position in 0..<24 {
            for byte in UInt8.min...UInt8.max {
                var bytes = Array("customer 12345 paid cash".utf8)
                bytes[position] = byte
                let expected = bytes.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 } ?? bytes.count
                let found = bytes.withUnsafeBufferPointer {
                    ByteSearch.firstJSONSpecial($0.baseAddress!, from: 0, count: $0.count)
                }
                #expect(found == expected, "byte \(byte) at \(position)")
            }
        }
    }

    @Test("firstJSONSpecial starts where it is told and stops at the count")
    func bounds() {
        let bytes = Array("a\"b\"cdefghijklmnop\"".utf8)
        bytes.withUnsafeBufferPointer {
            #expect(ByteSearch.firstJSONSpecial($0.baseAddress!, from: 0, count: $0.count) == 1)
            #expect(ByteSearch.firstJSONSpecial($0.baseAddress!, from: 2, count: $0.count) == 3)
            #expect(
                ByteSearch.firstJSONSpecial($0.baseAddress!, from: 4, count: 18) == 18,
                "none before the count")
        }
    }

    /// The lowest match is exact; a byte above it may be marked falsely (a borrow), which is why
    /// every caller takes the lowest.
    @Test("bytes(equalTo:in:) marks the lowest equal byte exactly, and nothing in a word without one")
    func equalBytes() {
        for target: UInt8 in [0x0A, 0x0D, 0x22, 0x2C, 0x09, 0x00, 0xFF] {
            for position in 0..<8 {
                var bytes = Array("x1y2z3w4".utf8)
                bytes[position] = target
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                let marks = ByteSearch.bytes(equalTo: target, in: word)
                #expect(marks.trailingZeroBitCount >> 3 == position, "\(target) at \(position)")
            }
            let none = Array("x1y2z3w4".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            #expect(ByteSearch.bytes(equalTo: target, in: none) == 0, "\(target) absent")
        }
    }
}
