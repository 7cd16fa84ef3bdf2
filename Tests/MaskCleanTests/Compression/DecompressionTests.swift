import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// docs/record-formats.md: a gzip or zstd input is read whole, however it arrives, or refused as
/// malformed; it never ends early in silence, which would let a truncated download pass a gate.
@Suite("Compressed inputs")
struct DecompressionTests {
    static let fixtures =
        repositoryRoot
        .appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// Everything the input at `path` gives, read `size` bytes at a time.
    static func readAll(_ path: String, size: Int) throws(MaskCleanError) -> [UInt8] {
        let input = try InputFile(path: path)
        var text: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer)
            if count == 0 { return text }
            text += buffer.prefix(count)
        }
    }

    static let gzipOneMember = "cases/csv-gzip-input/customers.csv.gz"
    static let gzipTwoMembers = "cases/csv-gzip-two-members/customers.csv.gz"

    @Test(
        "two gzip members read as the one text one member holds, through any buffer size",
        arguments: [1, 7, 4096])
    func gzipMembers(size: Int) throws {
        let one = try Self.readAll(Self.fixtures.appendingPathComponent(Self.gzipOneMember).path, size: size)
        let two = try Self.readAll(Self.fixtures.appendingPathComponent(Self.gzipTwoMembers).path, size: size)
        #expect(one.count > 40_000)
        #expect(one == two)
        #expect(
            String(decoding: one.prefix(33), as: UTF8.self).hasPrefix("id,name,phone,card,date,zip,note\n"))
    }

    @Test("two zstd frames read as the one text one frame holds", arguments: [1, 4096])
    func zstdFrames(size: Int) throws {
        let one = try Self.readAll(
            Self.fixtures.appendingPathComponent("cases/ndjson-zstd-input/records.ndjson.zst").path,
            size: size)
        let two = try Self.readAll(
            Self.fixtures.appendingPathComponent("cases/ndjson-zstd-frames-to-csv/records.ndjson.zst").path,
            size: size)
        #expect(one.count(where: { $0 == 0x0A }) == 400)
        #expect(one == two)
    }

    @Test("a gzip stream from a pipe that gives a byte at a time is known by its first bytes")
    func gzipFromPipe() throws {
        let compressed = try Self.fixture(Self.gzipTwoMembers)
        let expected = try Self.readAll(
            Self.fixtures.appendingPathComponent(Self.gzipOneMember).path, size: 4096)
        let pipe = Pipe()
        let writer = Thread {
            for byte in compressed { pipe.fileHandleForWriting.write(Data([byte])) }
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        // No .gz in the name: only the magic number, read a byte at a time, can tell.
        let text = try Self.readAll("/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)", size: 4096)
        #expect(text == expected)
    }

    @Test("every cut of a two-member gzip file is refused, but the one at the end of its first member")
    func everyCut() throws {
        let compressed = try Self.fixture(Self.gzipTwoMembers)
        let whole = try Self.readAll(
            Self.fixtures.appendingPathComponent(Self.gzipOneMember).path, size: 1 << 16)
        let folder = try TemporaryFolder()
        var accepted: [Int] = []
        for cut in Array(stride(from: 0, to: compressed.count, by: 61)) + [compressed.count - 1] {
            let path = try folder.write("cut.csv.gz", Array(compressed.prefix(cut)))
            do {
                let text = try Self.readAll(path, size: 1 << 16)
                accepted.append(cut)
                #expect(whole.starts(with: text))
            } catch {
                #expect(
                    error.message == "\(path): compressed data ends early (truncated download?)"
                        || error.message.hasPrefix("\(path): gzip data is corrupt"), "cut at \(cut)")
                #expect(error.status == .dataError)
            }
        }
        // Only a cut right at the end of the first member could be read, and the stride skips it.
        #expect(accepted.isEmpty)
    }

    @Test("the compression's extension comes after the format's")
    func extensions() {
        #expect(RecordFormat.fromExtension(of: "exports/customers.csv.gz") == .csv)
        #expect(RecordFormat.fromExtension(of: "events.ndjson.zst") == .ndjson)
        #expect(RecordFormat.fromExtension(of: "x.TSV.GZ") == .tsv)
        #expect(RecordFormat.fromExtension(of: "x.json.gz") == .json)
        #expect(RecordFormat.fromExtension(of: "x.gz") == nil)
        #expect(Compression.fromSuffix(of: "x.csv.zst") == .zstd)
        #expect(Compression.fromSuffix(of: ".gz") == nil)
    }

    static let longWindow = "bad/ndjson-zstd-long-window/records.ndjson.zst"

    /// What `zstd --long=N` makes of the zstd NDJSON fixture from a pipe, where it cannot know
    /// the size and so keeps the whole window in the frame header.
    static func recompressed(window log: Int, in folder: TemporaryFolder) throws -> String {
        let source = fixtures.appendingPathComponent("cases/ndjson-zstd-input/records.ndjson.zst").path
        let path = folder.path("long\(log).ndjson.zst")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "zstd -q -dc \"$1\" | zstd -q --long=\(log) -c > \"$2\"", "sh", source, path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return path
    }

    /// Why a frame made with `zstd --long=<log>` is refused.
    static func windowTooLarge(_ path: String, log: Int = 31) -> MaskCleanError {
        .data(
            path, line: nil,
            "a zstd frame needs a window of \(1 << (log - 20)) MiB to decompress (made with zstd --long=\(log)?), more than the 128 MiB maskclean reads: recompress it with a smaller window (zstd --long=27)"
        )
    }

    @Test(
        "a zstd frame with a window over 128 MiB (zstd --long=31) is refused with its size, however it arrives"
    )
    func windowTooLarge() throws {
        let path = Self.fixtures.appendingPathComponent(Self.longWindow).path
        #expect(Array(try Self.fixture(Self.longWindow)[4...5]) == [0x04, 0xA8], "a 2 GiB window descriptor")
        for size in [1, 4096] {
            #expect(throws: Self.windowTooLarge(path)) {
                try Self.readAll(path, size: size)
            }
        }
        // After a frame that reads, and from a pipe that gives a byte at a time, so that the
        // frame's header comes to libzstd in pieces.
        let first = try Self.fixture("cases/ndjson-zstd-input/records.ndjson.zst")
        let compressed = first + (try Self.fixture(Self.longWindow))
        let pipe = Pipe()
        let writer = Thread {
            for byte in compressed { pipe.fileHandleForWriting.write(Data([byte])) }
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let piped = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        #expect(throws: Self.windowTooLarge(piped)) {
            try Self.readAll(piped, size: 4096)
        }
    }

    @Test("a zstd frame with a window of 128 MiB (zstd --long=27) is read")
    func windowAtTheLimit() throws {
        let folder = try TemporaryFolder()
        let path = try Self.recompressed(window: 27, in: folder)
        let expected = try Self.readAll(
            Self.fixtures.appendingPathComponent("cases/ndjson-zstd-input/records.ndjson.zst").path,
            size: 4096)
        #expect(try Self.readAll(path, size: 4096) == expected)
        let over = try Self.recompressed(window: 28, in: folder)
        #expect(throws: Self.windowTooLarge(over, log: 28)) { try Self.readAll(over, size: 4096) }
        #expect(Decompressor.windowLog(of: 1 << 31) == 31)
        #expect(Decompressor.windowLog(of: (1 << 27) + 1) == 28)
    }
}
