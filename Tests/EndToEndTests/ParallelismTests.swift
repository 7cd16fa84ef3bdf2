import Foundation
import TestSupport
import Testing

/// docs/command-line.md: `--jobs N` for any N gives byte-identical output; docs/record-formats.md: records leave in the order
/// they came in.
@Suite("Parallelism")
struct ParallelismTests {
    /// ~20k records of ~300 bytes with quoted line breaks: several 1 MiB chunks.
    static let rows = 20_000

    /// Issue 32: byte-identical at 1, 2, 7 and 16 jobs (and 4), whatever the machine's cores.
    @Test("--jobs 1, 2, 4, 7 and 16 give byte-identical output and report")
    func jobsIdentical() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        let input = Generated.customers(rows: Self.rows, lossyEvery: 3000)
        #expect(input.count > 4 << 20, "several chunks")
        try input.write(to: scratch.url.appendingPathComponent("data.csv"))
        var outputs: [Data] = []
        var reports: [String] = []
        let jobsValues = ["1", "2", "4", "7", "16"]
        for jobs in jobsValues {
            let outcome = try Maskclean.run(
                [
                    "run", "spec.json", "data.csv", "-o", "clean-\(jobs).csv", "--report",
                    "report-\(jobs).json", "--jobs", jobs, "--samples", "raw", "--quiet",
                ],
                in: scratch.url)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            outputs.append(try Data(contentsOf: scratch.url.appendingPathComponent("clean-\(jobs).csv")))
            // When each run started and how long it took differ; nothing else may.
            reports.append(
                untimed(try String(contentsOfFile: scratch.path("report-\(jobs).json"), encoding: .utf8)))
        }
        for (index, jobs) in jobsValues.enumerated().dropFirst() {
            #expect(outputs[0] == outputs[index], "--jobs 1 and --jobs \(jobs) differ")
            #expect(reports[0] == reports[index], "--jobs 1 and --jobs \(jobs) report otherwise")
        }

        // The records are all there, in input order.
        let text = String(decoding: outputs[0], as: UTF8.self)
        var searchFrom = text.startIndex
        for row in stride(from: 1, through: Self.rows, by: 997) {
            guard let found = text.range(of: "\n\(row),", range: searchFrom..<text.endIndex) else {
                Issue.record("record \(row) is missing or out of order")
                break
            }
            searchFrom = found.upperBound
        }
        // Lossy phones are rows 3000, 6000…, incomplete dates rows 3500, 7000…: a 1 MiB chunk
        // holds about one of each, so the samples are merged across chunks, in row order.
        let report = reports[0]
        #expect(report.contains(#""rows": 20000,"#))
        func sample(_ row: Int, _ value: String) -> String { #"{"row": \#(row), "value": "\#(value)""# }
        let lossy = (1...6).map { sample($0 * 3000, "555\(String(format: "%07d", $0 * 3000))99") }
        for expected in lossy.prefix(5) { #expect(report.contains(expected), "missing \(expected)") }
        #expect(!report.contains(lossy[5]), "only the first five samples are kept")
        #expect(report.contains(#""lossy": 6,"#))
        let incomplete = (1...5).map { sample($0 * 3500, "12/3") }
        for expected in incomplete { #expect(report.contains(expected), "missing \(expected)") }
        #expect(report.contains(#""incomplete": 5,"#))
    }

    @Test("--jobs 1 and --jobs 4 reject, quarantine and count bad records identically")
    func jobsIdenticalWithBadRecords() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        let input = Generated.customers(rows: Self.rows, badEvery: 1999)
        try input.write(to: scratch.url.appendingPathComponent("data.csv"))
        var results: [[Data]] = []
        for jobs in ["1", "4"] {
            let outcome = try Maskclean.run(
                [
                    "run", "spec.json", "data.csv", "-o", "clean-\(jobs).csv", "--report",
                    "report-\(jobs).json",
                    "--quarantine", "bad-\(jobs).csv", "--jobs", jobs, "--quiet",
                ], in: scratch.url)
            // Rejected records fail the default maxRejected of 0: exit 1, outputs written.
            #expect(outcome.status == 1, "\(outcome.stderr)")
            results.append(
                try ["clean-\(jobs).csv", "report-\(jobs).json", "bad-\(jobs).csv"].map {
                    try Data(contentsOf: scratch.url.appendingPathComponent($0))
                })
        }
        #expect(results[0][0] == results[1][0] && results[0][2] == results[1][2])
        #expect(untimed(results[0][1]) == untimed(results[1][1]))
        let report = String(decoding: results[0][1], as: UTF8.self)
        // Rows 1999, 3998…: ten bad records, each on its own line. Good records take two lines.
        let badRows = (1...10).map { $0 * 1999 }
        #expect(report.contains(#""count": 10,"#))
        for row in badRows.prefix(10) {
            let line = 2 + (row - 1) * 2 - (badRows.filter { $0 < row }.count)
            #expect(
                report.contains(#"{"line": \#(line), "reason": "unexpected character after a closing quote"#),
                "row \(row) on line \(line)")
        }
        #expect(report.contains(#""rows": 20000,"#))
        let quarantine = String(decoding: results[0][2], as: UTF8.self)
        #expect(quarantine.split(separator: "\n").count == 10)
        #expect(quarantine.hasPrefix("1999,Customer 1999,\"55\"5,"))
    }
}
