import Testing

@testable import MaskClean

/// The buffer every chunk is read into and every record written to: bytes kept in order across
/// growth (by realloc), whatever the sizes of the pieces appended.
@Suite("ByteBuffer")
struct ByteBufferTests {
    @Test("appends of every size keep every byte, across many growths")
    func appendsAndGrowth() {
        let buffer = ByteBuffer(capacity: 16)
        var expected: [UInt8] = []
        for length in 0..<70 {
            let piece = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) }
            piece.withUnsafeBufferPointer { buffer.append($0) }
            buffer.append(UInt8(length))
            expected += piece + [UInt8(length)]
        }
        #expect(Array(buffer.bytes) == expected)
        #expect(buffer.reservedCapacity >= expected.count)
    }

    @Test("a separator then a cell, made room for at once, keep every byte across growths")
    func separatorThenCell() {
        let buffer = ByteBuffer(capacity: 16)
        var expected: [UInt8] = []
        for length in 0..<70 {
            let piece = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ length) }
            piece.withUnsafeBufferPointer { buffer.append(0x2C, then: $0) }
            expected += [0x2C] + piece
        }
        #expect(Array(buffer.bytes) == expected)
    }

    @Test("truncate and removeFirst keep the bytes that remain, in order")
    func truncateAndRemoveFirst() {
        let buffer = ByteBuffer(capacity: 4)
        buffer.append(Array("id,phone\n1,5551234567\n2,".utf8))
        buffer.removeFirst(9)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "1,5551234567\n2,")
        buffer.truncate(to: 13)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "1,5551234567\n")
        buffer.removeFirst(13)
        #expect(buffer.isEmpty)
        buffer.append(Array("next".utf8))
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "next")
    }

    /// How the reader fills its buffer from a file: up to a block, keeping what the read says.
    @Test("appendFilling keeps exactly the bytes the fill says it wrote")
    func appendFilling() {
        let buffer = ByteBuffer(capacity: 16)
        buffer.append(Array("head:".utf8))
        let written = buffer.appendFilling(upTo: 1 << 20) { (space: UnsafeMutableRawBufferPointer) -> Int in
            #expect(space.count == 1 << 20)
            for (index, byte) in "a block".utf8.enumerated() { space[index] = byte }
            return 7
        }
        #expect(written == 7)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "head:a block")
    }
}
