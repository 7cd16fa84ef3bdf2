import Foundation
import TestSupport
import Testing

@testable import MaskClean

#if canImport(Glibc)
    import Glibc
#endif

/// docs/record-formats.md, docs/exit-status.md (65): a regular file is read whole, as it was
/// when opened. One cut short while it is read would otherwise pass with the records before the
/// cut; one that grows may end inside a record. Both fail, naming the file.
@Suite("An input that changes size while it is read")
struct InputChangedWhileReadTests {
    /// 20,000 records of one phone, about 400 KB: many reads of the sizes below.
    static let records = "id,phone\n" + (1...20_000).map { "\($0),(555) 123-4567\n" }.joined()

    /// Reads `input` to its end, `size` bytes at a time, calling `between` after the first read.
    static func readAll(_ input: InputFile, size: Int, between: () throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        var reads = 0
        while try input.read(into: buffer) > 0 {
            reads += 1
            if reads == 1 { try between() }
        }
    }

    @Test("a file cut short while it is read is refused with its sizes")
    func shrank() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("data.csv", Self.records)
        let size = Self.records.utf8.count
        let input = try InputFile(path: path)
        #expect(
            throws: MaskCleanError.data(
                path, line: nil,
                "shrank while it was read (\(size) bytes when opened, 300000 at its end): run again once whatever writes it is done, or on a copy"
            )
        ) {
            // Past the first read ahead (256 KiB), so that the reads after the cut stop at it.
            try Self.readAll(input, size: 4096) { #expect(truncate(path, 300_000) == 0) }
        }
    }

    /// The workers read a plain file at offsets, and a claim looks for a line end a chunk on,
    /// past bytes nobody read: a cut found there said `300000 read, 100000 now`, as if the file
    /// had been cut behind what was read, where the reader in order says where it ends.
    @Test("a read at an offset past a cut says where the file ends, not where the read looked")
    func shrankAheadOfAReadAtAnOffset() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("data.csv", Self.records)
        let size = Self.records.utf8.count
        let input = try InputFile(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        try input.read(at: 0, into: buffer)
        #expect(truncate(path, 100_000) == 0)
        #expect(
            throws: MaskCleanError.data(
                path, line: nil,
                "shrank while it was read (\(size) bytes when opened, 100000 at its end): run again once whatever writes it is done, or on a copy"
            )
        ) { try input.read(at: 300_000, into: buffer) }
    }

    /// The probe of the fixes: a file cut and padded back to its size passed with a mix of old
    /// and new records.
    @Test("a file rewritten to the same size while it is read is refused too")
    func rewrittenToTheSameSize() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("data.csv", Self.records)
        let size = Self.records.utf8.count
        // Its modification time an hour back, as an export's is by the time it is read.
        var times = [
            timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let input = try InputFile(path: path)
        #expect(
            throws: MaskCleanError.data(
                path, line: nil,
                "was written while it was read (the same \(size) bytes, but modified since it was opened): run again once whatever writes it is done, or on a copy"
            )
        ) {
            try Self.readAll(input, size: 4096) {
                let handle = try #require(FileHandle(forWritingAtPath: path))
                try handle.seek(toOffset: UInt64(size - 6))
                try handle.write(contentsOf: Data("4-9999".utf8))
                try handle.close()
            }
        }
    }

    @Test("a file that grows while it is read is refused too")
    func grew() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("data.csv", Self.records)
        let size = Self.records.utf8.count
        let input = try InputFile(path: path)
        let error = #expect(throws: MaskCleanError.self) {
            try Self.readAll(input, size: 4096) {
                let handle = try #require(FileHandle(forWritingAtPath: path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("20001,(555) 123-4567\n".utf8))
                try handle.close()
            }
        }
        #expect(
            error?.message
                == "\(path): grew while it was read (\(size) bytes when opened, \(size + 21) at its end): run again once whatever writes it is done, or on a copy"
        )
        #expect(error?.status == .dataError)
    }

    @Test("a compressed file is measured by its own size", arguments: Compression.allCases)
    func compressed(compression: Compression) throws {
        let folder = try TemporaryFolder()
        // Digits that do not repeat, so that the compressed file takes many reads.
        var generator = SystemRandomNumberGenerator()
        let text =
            "id,phone\n" + (1...100_000).map { "\($0),\(generator.next() % 10_000_000_000)\n" }.joined()
        let packed = Array(text.utf8).withUnsafeBytes { Compressor(compression).compressed($0) }
        #expect(packed.count > 600_000)
        let path = try folder.write("data.csv\(compression.suffix)", packed)
        let input = try InputFile(path: path)
        let error = #expect(throws: MaskCleanError.self) {
            try Self.readAll(input, size: 4096) { #expect(truncate(path, 300_000) == 0) }
        }
        #expect(
            error?.message.hasPrefix("\(path): shrank while it was read (\(packed.count) bytes when opened, ")
                == true,
            "\(error?.message ?? "")")
    }

    @Test("check fails with 65 when its input is cut short between chunks, not with a tenth of the rows")
    func checkRun() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("data.csv", Self.records)
        let spec = try loadSpec(#"{"columns": [{"name": "phone", "format": "([000]) [000]-[0000]"}]}"#)
        var options = RunOptions(input: path, output: nil, jobs: 1)
        options.chunkSize = 4096
        #expect(try Runner.run(spec, options).rows == 20_000)
        options.progress = { _, _ in _ = truncate(path, 40_000) }
        let error = #expect(throws: MaskCleanError.self) { try Runner.run(spec, options) }
        #expect(error?.status == .dataError)
        #expect(
            error?.message.hasPrefix(
                "\(path): shrank while it was read (\(Self.records.utf8.count) bytes when opened")
                == true, "\(error?.message ?? "")")
    }
}
