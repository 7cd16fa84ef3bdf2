import TestSupport
import Testing

@testable import MaskClean

/// A record longer than the maximum (a runaway quote, a 100 MB cell) is passed without being
/// held, and nothing around it is lost.
@Suite("Oversized records are skipped whole, and only them")
struct OversizedRecordSkippingTests {
    /// `skipOversizedRecord` passes the long record, and only it, to the quarantine: it stops at
    /// the first record boundary after it, and the records that follow in the same block are
    /// data.
    @Test("skipping an oversized record passes only that record")
    func skipOversizedRecordSwallowsFollowingRecords() throws {
        let folder = try TemporaryFolder()
        // The long record's line feed is at offset 98: the 16-byte block it is read in (96…111)
        // also holds the two records after it.
        let long = "2,\"" + String(repeating: "x", count: 90) + "\"\n"
        let path = try folder.write("input", "1,a\n" + long + "3,b\n4,c\n")
        let reader = ChunkReader(
            input: try InputFile(path: path), splitter: CSVSplitter(delimiter: UInt8(ascii: ",")),
            chunkSize: 16, maximumRecordBytes: 32, leftover: [], firstLine: 1)
        var before: [UInt8] = []
        var oversizedLine: Int?
        while oversizedLine == nil, let event = try reader.next() {
            switch event {
            case .chunk(let chunk): before += chunk.bytes
            case .oversizedRecord(let line): oversizedLine = line
            case .brokenStructure: Issue.record("not JSON")
            }
        }
        #expect(String(decoding: before, as: UTF8.self) == "1,a\n")
        #expect(oversizedLine == 2)
        var skipped: [UInt8] = []
        try reader.skipOversizedRecord { (bytes: UnsafeBufferPointer<UInt8>) throws(MaskCleanError) in
            skipped += bytes
        }
        #expect(String(decoding: skipped, as: UTF8.self) == long, "only the long record is skipped")
        var after: [UInt8] = []
        var firstLine: Int?
        while let event = try reader.next() {
            if case .chunk(let chunk) = event {
                firstLine = firstLine ?? chunk.firstLine
                after += chunk.bytes
            }
        }
        #expect(String(decoding: after, as: UTF8.self) == "3,b\n4,c\n", "the records after it are read")
        #expect(firstLine == 3)
    }

    /// The same through the pipeline: `--quarantine` with an oversized record keeps the records
    /// after it, and `rows` counts them.
    @Test("quarantining an oversized record keeps the records after it", arguments: [1, 3])
    func oversizedRecordQuarantineLosesRecords(jobs: Int) throws {
        let folder = try TemporaryFolder()
        // The header is read in a 64 KiB block; the rest comes in blocks of `chunkSize` bytes
        // from offset 65536. Good records first, past that first block.
        var text = "id,phone,note\n"
        var row = 0
        while text.utf8.count < 70_000 {
            row += 1
            text += "\(row),5551234567,a\n"
        }
        let longLine = row + 2
        row += 1
        // The long record ends 1000 bytes into a 4 KiB block; 20 short records follow it there.
        let start = "\(row),5551234567,\""
        var padding = 3000
        while (text.utf8.count + start.utf8.count + padding + 2 - 65536) % 4096 != 1000 { padding += 1 }
        let long = start + String(repeating: "x", count: padding) + "\"\n"
        text += long
        var after = ""
        for _ in 1...20 {
            row += 1
            after += "\(row),5551234567,b\n"
        }
        text += after
        try folder.write("data.csv", text)
        let spec = #"{"columns":[{"name":"phone","format":"+1 ([000]) [000]-[0000]"}]}"#
        let outcome = try runPipeline(
            spec: spec, input: "data.csv", in: folder, output: "clean.csv", report: "report.json",
            policy: .quarantine, quarantine: "bad.csv", jobs: jobs, chunkSize: 4096, maximumRecordBytes: 1024)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        #expect(try folder.text("bad.csv") == long, "only the long record is quarantined")
        #expect(report.rows == row)
        #expect(report.rejectedCount == 1)
        #expect(report.rejected.first?.line == longLine)
        #expect(report.columns[0].stats.cells == row - 1)
        #expect(
            try folder.text("clean.csv").hasSuffix(
                "\(row),5551234567,b,+1 (555) 123-4567,5551234567,complete\n"))
    }
}
