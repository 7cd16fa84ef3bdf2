import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Output compressed piece by piece, a member or frame per piece, must read back as the whole
/// text, with our reader and with the standard tools.
@Suite("Compressed outputs")
struct CompressorTests {
    /// The bench sample's records, cut into uneven pieces as chunks would be.
    static func pieces() throws -> (text: [UInt8], pieces: [ArraySlice<UInt8>]) {
        let text = try DecompressionTests.fixture("bench-sample/messy.csv")
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        for size in [0, 1, 17, 4096, 65_536, 100_000] + [Int.max] {
            let end = size > text.count - start ? text.count : start + size
            pieces.append(text[start..<end])
            start = end
        }
        return (text, pieces)
    }

    static func compressedFile(_ compression: Compression, level: Int, in folder: TemporaryFolder) throws
        -> (text: [UInt8], path: String)
    {
        let (text, pieces) = try Self.pieces()
        let compressor = Compressor(compression, level: level)
        let output = ByteBuffer()
        for piece in pieces {
            piece.withUnsafeBytes { compressor.compress($0, appendingTo: output) }
        }
        let path = try folder.write("out.csv\(compression.suffix)", Array(output.bytes))
        return (text, path)
    }

    @Test(
        "pieces compressed apart read back as the whole text",
        arguments: [(Compression.gzip, 1), (.gzip, 9), (.zstd, 1), (.zstd, 19)])
    func roundTrip(compression: Compression, level: Int) throws {
        let folder = try TemporaryFolder()
        let (text, path) = try Self.compressedFile(compression, level: level, in: folder)
        #expect(try DecompressionTests.readAll(path, size: 4096) == text)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size < text.count / 2)
    }

    @Test("the standard tools read a file of many members or frames whole", arguments: Compression.allCases)
    func standardTools(compression: Compression) throws {
        let folder = try TemporaryFolder()
        let level = Compressor.defaultLevel(compression)
        let (text, path) = try Self.compressedFile(compression, level: level, in: folder)
        let tool = compression == .gzip ? "gzip" : "zstd"
        let (status, decompressed) = try decompressWithTool(tool, path)
        #expect(status == 0, "is \(tool) installed? make test installs it")
        #expect(Array(decompressed) == text)
    }

    @Test("an empty piece is a whole member or frame too", arguments: Compression.allCases)
    func emptyPiece(compression: Compression) throws {
        let folder = try TemporaryFolder()
        let empty = Compressor(compression, level: 1).compressed(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(!empty.isEmpty)
        let path = try folder.write("empty\(compression.suffix)", empty)
        #expect(try DecompressionTests.readAll(path, size: 64) == [])
    }
}
