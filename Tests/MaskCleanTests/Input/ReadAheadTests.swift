import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// A compressed input decompressed ahead on a thread of its own gives what reading it in turn
/// gives: the same bytes in the same order, then its end, or the error that stopped it once the
/// bytes before it are read; and it lets go of its thread when the input goes away early.
@Suite("Reading ahead")
struct ReadAheadTests {
    /// A source of `total` counting bytes in pieces of odd sizes, then `failure` if given.
    final class Source: @unchecked Sendable {
        let total: Int
        let failure: MaskCleanError?
        var given = 0

        init(total: Int, failure: MaskCleanError? = nil) {
            self.total = total
            self.failure = failure
        }

        func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int {
            let count = min(buffer.count, total - given, 1 + given % 4093)
            if count == 0, let failure { throw failure }
            for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: (given + index) % 251) }
            given += count
            return count
        }
    }

    static func readAll(_ readAhead: ReadAhead, size: Int) throws(MaskCleanError) -> [UInt8] {
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try readAhead.read(into: buffer)
            if count == 0 { return bytes }
            bytes += buffer.prefix(count)
        }
    }

    @Test("every byte in order, then the end, through any read size", arguments: [1, 1000, 1 << 20])
    func inOrder(size: Int) throws {
        let source = Source(total: 3_000_017)
        let readAhead = ReadAhead(blockSize: 65536, blocks: 3, fileBytesRead: { 0 }, fill: source.fill)
        let bytes = try Self.readAll(readAhead, size: size)
        #expect(bytes.count == 3_000_017)
        #expect(bytes.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset % 251) })
        let one = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        defer { one.deallocate() }
        #expect(try readAhead.read(into: one) == 0, "the end, again")
        readAhead.stop()
    }

    @Test("the error that stopped the input comes after every byte before it")
    func errorAfterBytes() throws {
        let truncated = MaskCleanError.data(
            "x.gz", line: nil, "compressed data ends early (truncated download?)")
        let source = Source(total: 200_003, failure: truncated)
        let readAhead = ReadAhead(blockSize: 4096, blocks: 2, fileBytesRead: { 0 }, fill: source.fill)
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 777, alignment: 1)
        defer { buffer.deallocate() }
        #expect(throws: truncated) {
            while true {
                let count = try readAhead.read(into: buffer)
                bytes += buffer.prefix(count)
                if count == 0 { break }
            }
        }
        #expect(bytes.count == 200_003)
        readAhead.stop()
    }

    @Test("a gzip input let go after a few reads stops its thread")
    func stopsEarly() throws {
        let folder = try TemporaryFolder()
        let text = Array(String(repeating: "1,Lily Rivera,(542) 910-0102\n", count: 200_000).utf8)
        let path = try folder.write("big.csv.gz", text.withUnsafeBytes { Compressor(.gzip).compressed($0) })
        for _ in 0..<20 {
            let input = try InputFile(path: path)
            var first = [UInt8](repeating: 0, count: 100)
            _ = try first.withUnsafeMutableBytes { try input.read(into: $0) }
            input.startReadingAhead()
            _ = try first.withUnsafeMutableBytes { try input.read(into: $0) }
            #expect(first.starts(with: Array(text[100..<200])))
        }
    }
}
