import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// A plain file is read in ranges by the workers themselves (`RangedChunks`); the same file
/// gzipped is read in order under the reader's lock (`ChunkReader`). Both must give the same
/// records, bytes, quarantine and report, line for line, however small the chunks and however
/// many workers: the exports with every kind of bad record, quoted line breaks, CRLF and bare CRs.
@Suite("Pipeline: ranges read by the workers against reading in order")
struct RangedReadingTests {
    struct Result: Equatable {
        var output: [UInt8]
        var quarantine: [UInt8]
        var rows: Int
        var rejected: [Rejection]
        var rejectedCount: Int
        var stats: [ColumnStats]
        var blankLines: Int
        var blankLineNumbers: [Int]
    }

    /// `bytes` as the file `name` of `folder`, gzipped when its name says so.
    static func write(_ bytes: [UInt8], as name: String, in folder: TemporaryFolder) throws {
        try folder.write(
            name, name.hasSuffix(".gz") ? bytes.withUnsafeBytes { Compressor(.gzip).compressed($0) } : bytes)
    }

    static func run(_ bytes: [UInt8], named name: String, jobs: Int, chunkSize: Int) throws -> Result {
        let folder = try TemporaryFolder()
        try write(bytes, as: name, in: folder)
        let outcome = try runPipeline(
            spec: PipelineTests.spec, input: name, in: folder, output: "clean", report: "report.json",
            policy: .quarantine, quarantine: "bad", jobs: jobs, chunkSize: chunkSize,
            outputFormat: name.contains("ndjson") ? .ndjson : .csv)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        return Result(
            output: Array(try Data(contentsOf: folder.url.appendingPathComponent("clean"))),
            quarantine: (try? Array(Data(contentsOf: folder.url.appendingPathComponent("bad")))) ?? [],
            rows: report.rows, rejected: report.rejected, rejectedCount: report.rejectedCount,
            stats: report.columns.map(\.stats), blankLines: report.blankLines,
            blankLineNumbers: report.blankLineNumbers)
    }

    static let inputs: [(name: String, bytes: [UInt8])] = {
        let csv = PipelineTests.csvInput(unterminatedAtEnd: true).bytes
        let closed = PipelineTests.csvInput(unterminatedAtEnd: false).bytes
        // An old Mac export: a bare CR ends each line, quoted ones included.
        let carriageReturns = closed.map { $0 == 0x0A ? UInt8(0x0D) : $0 }
        let crlf = closed.flatMap { $0 == 0x0A ? [UInt8(0x0D), 0x0A] : [$0] }
        return [
            ("data.csv", csv), ("closed.csv", closed), ("mac.csv", carriageReturns), ("crlf.csv", crlf),
            ("data.ndjson", PipelineTests.ndjsonInput().bytes),
        ]
    }()

    /// docs/command-line.md, Limits: an NDJSON line larger than the longest record is a bad
    /// record, its line end aside, wherever the chunks are cut and whichever reader cut them.
    @Test("an NDJSON line over the longest record is bad wherever it falls; one of exactly it is not")
    func ndjsonLineLength() throws {
        let limit = 48
        let exact = "{\"phone\":\"5551234567\",\"n\":\"" + String(repeating: "x", count: limit - 29) + "\"}"
        #expect(exact.utf8.count == limit)
        let over = "{\"phone\":\"5551234567\",\"n\":\"" + String(repeating: "y", count: limit - 28) + "\"}"
        var text = ""
        for row in 0..<40 {
            text +=
                row % 7 == 3
                ? over + "\n" : row % 5 == 1 ? exact + "\r\n" : "{\"phone\":\"555123456\(row % 10)\"}\n"
        }
        let bytes = Array(text.utf8)
        let tooLong = (0..<40).filter { $0 % 7 == 3 }.map { $0 + 1 }
        for jobs in [1, 3] {
            for chunkSize in [1, 30, 200, 1 << 20] {
                for name in ["data.ndjson", "data.ndjson.gz"] {
                    let folder = try TemporaryFolder()
                    try Self.write(bytes, as: name, in: folder)
                    let outcome = try runPipeline(
                        spec: PipelineTests.spec, input: name, in: folder, output: "clean",
                        policy: .quarantine,
                        quarantine: "bad", jobs: jobs, chunkSize: chunkSize, maximumRecordBytes: limit)
                    let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
                    #expect(report.rows == 40)
                    #expect(
                        report.rejected.map(\.line) == tooLong,
                        "\(name), chunk size \(chunkSize), \(jobs) jobs")
                    #expect(report.rejected.allSatisfy { $0.reason == "record longer than 48 bytes" })
                }
            }
        }
    }

    /// A run that stops on a damaged stream writes the report of what it counted: the same at
    /// one job as at several, which read the decompressed text in the same blocks.
    @Test(
        "a run stopped by a cut or damaged stream counts the same records at any jobs",
        arguments: ["gz", "zst"])
    func stoppedRunsAgree(compression: String) throws {
        var text = "id,phone,note\n"
        for row in 0..<120_000 {
            text += "\(row),555123\(String(format: "%04d", row % 10_000)),\"a note, \(row)\"\n"
        }
        let plain = Array(text.utf8)
        let whole = plain.withUnsafeBytes { Compressor(compression == "gz" ? .gzip : .zstd).compressed($0) }
        var damaged = whole
        damaged[damaged.count / 2] ^= 0x55
        for (name, bytes) in [("cut", Array(whole.prefix(whole.count * 3 / 4))), ("damaged", damaged)] {
            var reports: [String] = []
            let folder = try TemporaryFolder()
            try folder.write("data.csv.\(compression)", bytes)
            for jobs in [1, 2, 3] {
                let outcome = try runPipeline(
                    spec: PipelineTests.spec, input: "data.csv.\(compression)", in: folder, output: "clean",
                    report: "report-\(jobs).json", jobs: jobs, chunkSize: 65536)
                #expect(outcome.error?.status == .dataError, "\(name), \(jobs) jobs")
                let report = try folder.text("report-\(jobs).json")
                reports.append(
                    report.split(separator: "\n").filter {
                        !$0.contains("\"started\"") && !$0.contains("Seconds")
                    }.joined(separator: "\n"))
            }
            #expect(reports[0].contains("\"rows\": "))
            for jobs in 1...2 {
                let differ = zip(reports[0].split(separator: "\n"), reports[jobs].split(separator: "\n"))
                    .filter { $0.0 != $0.1 }.prefix(3).map { "\($0.0) | \($0.1)" }
                #expect(differ.isEmpty, "\(compression) \(name), \(jobs + 1) jobs: \(differ)")
            }
        }
    }

    /// docs/report.md, "A run that stopped": its counts are those of the records before the one
    /// that stopped it. The blank lines after that record, in the same chunk, were counted too,
    /// so the count depended on where the input was cut (131,071 from a plain file, 133,118 from
    /// standard input and 133,119 gzipped, for one export).
    @Test(
        "a run stopped by a bad record counts only the blank lines before it, however the input is cut",
        arguments: [1, 7, 64, 1 << 20])
    func stoppedRunCountsBlankLinesBeforeIt(chunkSize: Int) throws {
        var text = "id,phone,note\n1,5551234567,a\n\n2,5551234568,b\n\n\n3,5551234569,c\n"
        // Line 8: two fields of three, which ends the run; blank lines follow it, before and
        // between the records after it.
        text += "4,5551234560\n\n\n5,5551234561,e\n"
        for row in 6..<400 { text += row % 3 == 0 ? "\n" : "\(row),555123\(1000 + row),n\n" }
        // An old Mac export too: line numbers count line feeds, so there every line is line 1.
        let ends = [
            ("LF", Array(text.utf8), [3, 5, 6]),
            ("CR", Array(text.utf8).map { $0 == 0x0A ? 0x0D : $0 }, [1, 1, 1]),
        ]
        for name in ["data.csv", "data.csv.gz"] {
            for (lineEnd, bytes, lines) in ends {
                for jobs in [1, 3] {
                    let folder = try TemporaryFolder()
                    try Self.write(bytes, as: name, in: folder)
                    let outcome = try runPipeline(
                        spec: PipelineTests.spec, input: name, in: folder, output: "clean",
                        report: "report.json",
                        jobs: jobs, chunkSize: chunkSize)
                    let place = "\(name), \(lineEnd), chunk size \(chunkSize), \(jobs) jobs"
                    #expect(outcome.error?.status == .dataError, "\(place)")
                    let report = try #require(
                        try JSONSerialization.jsonObject(with: Data(folder.text("report.json").utf8))
                            as? [String: Any])
                    #expect(report["rows"] as? Int == 3, "\(place)")
                    let blankLines = try #require(report["blankLines"] as? [String: Any], "\(place)")
                    #expect(blankLines["count"] as? Int == 3, "\(place)")
                    #expect(blankLines["lines"] as? [Int] == lines, "\(place)")
                }
            }
        }
    }

    @Test(
        "the same records, lines, quarantine and report as reading in order",
        arguments: [1, 7, 64, 4096], [1, 3])
    func sameAsInOrder(chunkSize: Int, jobs: Int) throws {
        for input in Self.inputs {
            // At 3 jobs the gzip input is also inflated ahead, on a thread of its own.
            let inOrder = try Self.run(input.bytes, named: input.name + ".gz", jobs: jobs, chunkSize: 1 << 20)
            let ranged = try Self.run(input.bytes, named: input.name, jobs: jobs, chunkSize: chunkSize)
            #expect(inOrder.rows > 30, "\(input.name)")
            #expect(ranged == inOrder, "\(input.name), chunk size \(chunkSize), \(jobs) jobs")
        }
    }
}
