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

    /// Everything the input at `path` gives, read `size` bytes at a time (gzip inflated by
    /// `inflater`, decompressed ahead on a thread of its own with `ahead`).
    static func readAll(
        _ path: String, size: Int, inflater: GzipInflater = .fastest, ahead: Bool = false
    ) throws(MaskCleanError) -> [UInt8] {
        let input = try InputFile(path: path)
        input.gzipInflater = inflater
        if ahead {
            // The first read finds the compression; the rest are decompressed ahead.
            var first: UInt8 = 0
            let count = try withUnsafeMutableBytes(of: &first) { (one) throws(MaskCleanError) in
                try input.read(into: one)
            }
            input.startReadingAhead()
            return Array([first].prefix(count)) + (try readRest(input, size: size))
        }
        return try readRest(input, size: size)
    }

    static func readRest(_ input: InputFile, size: Int) throws(MaskCleanError) -> [UInt8] {
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

    /// The inflaters this system has: zlib, and ISA-L's igzip where libisal2 is installed (make
    /// deps installs it, so the tests run both).
    static let inflaters = GzipInflater.allCases.filter { $0 == .zlib || Igzip.library != nil }

    @Test("ISA-L is there to test: make deps installs libisal-dev, which brings libisal2")
    func igzipLoaded() {
        #expect(Igzip.library != nil)
        #expect(GzipInflater.fastest == .igzip)
    }

    @Test(
        "two gzip members read as the one text one member holds, through any buffer size, by either inflater, ahead or not",
        arguments: [1, 7, 4096], inflaters)
    func gzipMembers(size: Int, inflater: GzipInflater) throws {
        for ahead in [false, true] {
            let one = try Self.readAll(
                Self.fixtures.appendingPathComponent(Self.gzipOneMember).path, size: size, inflater: inflater,
                ahead: ahead)
            let two = try Self.readAll(
                Self.fixtures.appendingPathComponent(Self.gzipTwoMembers).path, size: size,
                inflater: inflater,
                ahead: ahead)
            #expect(one.count > 40_000)
            #expect(one == two)
            #expect(
                String(decoding: one.prefix(33), as: UTF8.self).hasPrefix(
                    "id,name,phone,card,date,zip,note\n"))
        }
    }

    /// gzip(1) at levels 1, 6 and 9, and maskclean's own compressor, on texts of every size up to
    /// a few megabytes, one member or several: igzip gives what zlib gives, byte for byte; a
    /// flipped bit in a member's CRC-32 or length, or a cut anywhere, is refused by both.
    @Test("igzip reads what gzip(1) and zlib write as zlib does, and refuses what zlib refuses")
    func igzipAgainstZlib() throws {
        guard Igzip.library != nil else { return }
        let folder = try TemporaryFolder()
        var generator = SplitMix64(seed: 6)
        let words = ["555-0100", "Rivera", "\"quoted, text\"", "2024-10-05", "\n", ",", "ünïcödé", "  "]
        for round in 0..<24 {
            let length = [0, 1, 100, 70_000, 3_000_000][round % 5]
            var text: [UInt8] = []
            while text.count < length {
                // Runs of words, and now and then noise that does not compress.
                if generator.next() % 8 == 0 {
                    text += (0..<64).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                } else {
                    text += Array(words[Int(generator.next() % UInt64(words.count))].utf8)
                }
            }
            text = Array(text.prefix(length))
            let plain = try folder.write("plain", text)
            let level = ["-1", "-6", "-9"][round % 3]
            let gzip = try Process.run(
                URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", "gzip \(level) -c '\(plain)' > '\(plain).gz'"])
            gzip.waitUntilExit()
            #expect(gzip.terminationStatus == 0)
            var compressed = Array(try Data(contentsOf: URL(fileURLWithPath: plain + ".gz")))
            if round % 4 == 1 {
                // Another member, by maskclean's own compressor.
                compressed += text.withUnsafeBytes { Compressor(.gzip).compressed($0) }
                text += text
            }
            let path = try folder.write("input.gz", compressed)
            for inflater in GzipInflater.allCases {
                #expect(
                    try Self.readAll(path, size: 1 << 16, inflater: inflater) == text,
                    "round \(round), \(inflater)")
            }
            // The last member's CRC-32, then its length: a bit flipped in either is refused.
            for back in [5, 1] {
                var broken = compressed
                broken[broken.count - back] ^= 0x10
                let brokenPath = try folder.write("broken.gz", broken)
                for inflater in GzipInflater.allCases {
                    #expect(throws: MaskCleanError.self, "round \(round), \(inflater), \(back) from the end")
                    {
                        try Self.readAll(brokenPath, size: 1 << 16, inflater: inflater)
                    }
                }
            }
            // A cut inside the last member.
            if compressed.count > 30 {
                let cutPath = try folder.write("cut.gz", Array(compressed.dropLast(9)))
                for inflater in GzipInflater.allCases {
                    #expect(throws: MaskCleanError.self) {
                        try Self.readAll(cutPath, size: 1 << 16, inflater: inflater)
                    }
                }
            }
        }
    }

    /// RFC 1952: a member whose reserved flag bits (5 to 7) are set is not gzip. zlib refuses
    /// it; ISA-L reads past it, so maskclean looks at the flags itself. And a member cut inside
    /// its first four bytes is cut short, not trailing garbage, whichever inflates.
    @Test(
        "a member with reserved header flags is refused, and one cut in its header is truncated",
        arguments: inflaters)
    func reservedFlagsAndCutHeaders(inflater: GzipInflater) throws {
        let folder = try TemporaryFolder()
        let member = try Self.fixture(Self.gzipOneMember)
        for flag in [0x20, 0x40, 0x80] as [UInt8] {
            var flagged = member
            flagged[3] |= flag
            for (name, bytes) in [("first.csv.gz", flagged), ("second.csv.gz", member + flagged)] {
                let path = try folder.write(name, bytes)
                #expect(
                    throws: MaskCleanError.data(
                        path, line: nil, "gzip data is corrupt (unknown header flags set)")
                ) {
                    try Self.readAll(path, size: 1 << 16, inflater: inflater, ahead: name == "second.csv.gz")
                }
            }
        }
        for cut in 2...3 {
            for (name, bytes) in [
                ("alone.csv.gz", Array(member.prefix(cut))), ("after.csv.gz", member + member.prefix(cut)),
            ] {
                let path = try folder.write(name, bytes)
                #expect(
                    throws: MaskCleanError.data(
                        path, line: nil, "compressed data ends early (truncated download?)"),
                    "\(name) cut at \(cut)"
                ) {
                    try Self.readAll(path, size: 1 << 16, inflater: inflater)
                }
            }
        }
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

    @Test(
        "every cut of a two-member gzip file is refused, but the one at the end of its first member",
        arguments: inflaters)
    func everyCut(inflater: GzipInflater) throws {
        let compressed = try Self.fixture(Self.gzipTwoMembers)
        let whole = try Self.readAll(
            Self.fixtures.appendingPathComponent(Self.gzipOneMember).path, size: 1 << 16)
        let folder = try TemporaryFolder()
        var accepted: [Int] = []
        for cut in Array(stride(from: 0, to: compressed.count, by: 61)) + [compressed.count - 1] {
            let path = try folder.write("cut.csv.gz", Array(compressed.prefix(cut)))
            do {
                let text = try Self.readAll(path, size: 1 << 16, inflater: inflater, ahead: cut % 2 == 1)
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
