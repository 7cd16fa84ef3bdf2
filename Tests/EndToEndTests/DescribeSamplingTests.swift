import Foundation
import MaskClean
import TestSupport
import Testing

/// Issue 28, item 1: `describe` judged a spec from the first 10,000 records only, so that an
/// export sorted by a key whose shape changes further down (the NHS list of GP practices, by
/// code) got a spec that failed `check` on the same file, and `minComplete` was the first
/// records' share. It now reads every record, judges from a sample spread over all of them,
/// and measures the proposal on every record.
@Suite("describe samples the whole input")
struct DescribeSamplingTests {
    /// `records` practices sorted by code: the first half coded `A81001`, the second `Y00001`
    /// with a letter more (`YA00001`), as codes of later regions are; a district code of which
    /// one in 25 of the last fifth lacks a digit, fewer than the sample makes a format of.
    static func practices(_ records: Int) -> String {
        var text = "code,name,district\n"
        for row in 0..<records {
            let code =
                row < records / 2
                ? "A\(String(format: "%05d", 81_001 + row))" : "YA\(String(format: "%05d", row))"
            let district = row >= records * 4 / 5 && row % 25 == 0 ? "D-\(row % 9)" : "D-\(row % 90 + 10)"
            text += "\(code),Practice \(row),\(district)\n"
        }
        return text
    }

    /// Every column of `report`'s with its complete share and threshold.
    static func shares(_ report: String) throws -> [String: (ratio: Double, threshold: Double)] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
        var shares: [String: (ratio: Double, threshold: Double)] = [:]
        for column in (object as? [String: Any])?["columns"] as? [[String: Any]] ?? [] {
            shares[column["name"] as? String ?? ""] = (
                column["completeRatio"] as? Double ?? -1, column["minComplete"] as? Double ?? -1
            )
        }
        return shares
    }

    @Test("a file sorted by a key whose shape changes past the first 10,000 records: check passes on it")
    func sortedKeys() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("practices.csv", Self.practices(30_000))
        let spec = folder.path("spec.yaml")
        let described = try Maskclean.run(["describe", input, "-o", spec])
        #expect(described.status == 0, "stderr: \(described.stderr)")
        let checked = try Maskclean.run(["check", spec, input, "--quiet"])
        #expect(checked.status == 0, "stderr: \(checked.stderr)")
        #expect(try SpecLoader.load(path: spec).columns.map(\.name).contains("code"))
    }

    @Test("minComplete is the complete share check reports on the whole file, rounded down")
    func minCompleteOfEveryRecord() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("practices.csv", Self.practices(30_000))
        let spec = folder.path("spec.json")
        #expect(try Maskclean.run(["describe", input, "-o", spec, "--only", "district"]).status == 0)
        let report = folder.path("report.json")
        let checked = try Maskclean.run(["check", spec, input, "--quiet", "--report", report])
        #expect(checked.status == 0, "stderr: \(checked.stderr)")
        let district = try #require(try Self.shares(report)["district"])
        #expect(district.ratio < 1)
        #expect(district.threshold == (district.ratio * 100).rounded(.down) / 100)
        let yaml = try Maskclean.run(["describe", input, "--only", "district"]).stdoutText
        #expect(yaml.contains("from a sample of 10000 of the 30000 records of"), "\(yaml)")
        #expect(yaml.contains(#"# "district": 30000 values; of the 10000 sampled, "#), "\(yaml)")
    }

    @Test("two runs give the same spec, byte for byte, and standard input or a pipe gives the file's")
    func repeatable() throws {
        let folder = try TemporaryFolder()
        let text = Self.practices(25_000)
        let input = try folder.write("practices.csv", text)
        let first = try Maskclean.run(["describe", input])
        let second = try Maskclean.run(["describe", input])
        #expect(first.status == 0 && !first.stdout.isEmpty, "stderr: \(first.stderr)")
        #expect(first.stdout == second.stdout)
        let piped = try Maskclean.run(["describe", "-", "--input-format", "csv"], stdin: Data(text.utf8))
        #expect(piped.status == 0, "stderr: \(piped.stderr)")
        let named = { (outcome: Maskclean.Outcome, name: String) in
            outcome.stdoutText.replacingOccurrences(of: name, with: "INPUT")
        }
        #expect(named(piped, #""stdin""#) == named(first, "\"\(input)\""))
        // A pipe named by a path (a process substitution) is read twice as standard input is.
        let fifo = try Maskclean.run(
            ["describe", "/dev/stdin", "--input-format", "csv"], stdin: Data(text.utf8))
        #expect(fifo.status == 0, "stderr: \(fifo.stderr)")
        #expect(named(fifo, #""/dev/stdin""#) == named(first, "\"\(input)\""))
    }

    @Test("--head N gives what the first N records give; with --sample it samples them")
    func head() throws {
        let folder = try TemporaryFolder()
        let text = Self.practices(30_000)
        let input = try folder.write("practices.csv", text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try folder.write("first.csv", lines.prefix(12_001).joined(separator: "\n") + "\n")
        let headed = try Maskclean.run(["describe", input, "--head", "12000"])
        let cut = try Maskclean.run(["describe", first])
        #expect(headed.status == 0, "stderr: \(headed.stderr)")
        #expect(headed.stdoutText.contains("from a sample of 10000 of the 12000 records of"))
        #expect(
            headed.stdoutText.replacingOccurrences(of: input, with: first) == cut.stdoutText)
        let every = try Maskclean.run(["describe", input, "--head", "12000", "--sample", "0"])
        #expect(every.stdoutText.contains("from 12000 records of"), "\(every.stdoutText)")
        let negative = try Maskclean.run(["describe", input, "--head=-1"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--head must be 0 (every record) or more"))
    }

    @Test("a gzip input larger than the sample is read twice as it reads once")
    func gzipInput() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("practices.csv", Self.practices(20_000))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-k", input]
        try gzip.run()
        gzip.waitUntilExit()
        try #require(gzip.terminationStatus == 0)
        let plain = try Maskclean.run(["describe", input])
        let compressed = try Maskclean.run(["describe", input + ".gz"])
        #expect(compressed.status == 0, "stderr: \(compressed.stderr)")
        #expect(compressed.stdoutText.contains("from a sample of 10000 of the 20000 records of"))
        #expect(
            compressed.stdoutText.replacingOccurrences(of: ".csv.gz", with: ".csv") == plain.stdoutText)
        let piped = try Maskclean.run(
            ["describe", "-", "--input-format", "csv"],
            stdin: try Data(contentsOf: URL(fileURLWithPath: input + ".gz")))
        #expect(piped.status == 0, "stderr: \(piped.stderr)")
        #expect(
            piped.stdoutText.replacingOccurrences(of: #""stdin""#, with: "\"\(input)\"") == plain.stdoutText)
    }

    @Test("a bad record past the sample fails describe as it fails a run, unless --head stops before it")
    func badRecordAnywhere() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("practices.csv", Self.practices(20_000) + "Z1,\"unterminated\n")
        let described = try Maskclean.run(["describe", input, "-o", folder.path("spec.yaml")])
        #expect(described.status == 65)
        #expect(
            described.stderr.contains("practices.csv:20002: unterminated quoted field"), "\(described.stderr)"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.path("spec.yaml")))
        #expect(try Maskclean.run(["describe", input, "--head", "20000"]).status == 0)
    }
}
