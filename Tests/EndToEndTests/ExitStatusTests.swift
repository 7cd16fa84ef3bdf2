import Foundation
import TestSupport
import Testing

/// docs/exit-status.md: every exit status, and after every failure nothing left behind: no output, no
/// report, no quarantine file, no temporary file.
@Suite("Exit statuses")
struct ExitStatusTests {
    static let spec =
        #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]", "minComplete": 0.5}]}"#
    static let goodCSV = "id,phone\n1,5551234567\n2,\"(555) 123-4567\"\n"

    /// A scratch folder with the spec and an input; outputs go to `out/`, which must stay empty
    /// after a failure.
    final class Setup {
        let scratch: TemporaryFolder
        let out: URL

        init(
            input: String = ExitStatusTests.goodCSV, name: String = "data.csv",
            spec: String = ExitStatusTests.spec
        )
            throws
        {
            scratch = try TemporaryFolder()
            out = scratch.url.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            _ = try scratch.write("spec.json", spec)
            _ = try scratch.write(name, input)
        }

        func out(_ name: String) -> String { out.appendingPathComponent(name).path }

        var leftovers: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).sorted()
        }

        /// The status the report in `out/` says stopped the run (docs/report.md#a-run-that-stopped).
        func stoppedStatus(_ name: String = "report.json") throws -> Int? {
            let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            return text.firstMatch(of: #/"error": \{"status": ([0-9]+)/#).flatMap { Int($0.output.1) }
        }

        func run(_ arguments: [String]) throws -> Maskclean.Outcome {
            try Maskclean.run(arguments, in: scratch.url)
        }

        /// `run spec.json INPUT -o out/clean.csv --report out/report.json --quarantine…` and more.
        func runAll(_ input: String = "data.csv", _ extra: [String] = []) throws -> Maskclean.Outcome {
            try run(
                ["run", "spec.json", input, "-o", out("clean.csv"), "--report", out("report.json")] + extra)
        }
    }

    @Test("0: the run finished and every threshold was met")
    func success() throws {
        let setup = try Setup()
        let outcome = try setup.runAll()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(setup.leftovers == ["clean.csv", "report.json"])
        #expect(outcome.stderr.hasSuffix("2 rows: passed\n"))
    }

    @Test("1: a minComplete threshold was not met; the outputs are still written")
    func thresholdNotMet() throws {
        let setup = try Setup(input: "id,phone\n1,5551234567\n2,555\n3,12\n")
        let run = try setup.runAll()
        #expect(run.status == 1)
        #expect(setup.leftovers == ["clean.csv", "report.json"])
        #expect(run.stderr.contains("3 rows: FAILED (1 column below threshold)"))
        let check = try setup.run(["check", "spec.json", "data.csv", "--quiet"])
        #expect(check.status == 1)
        #expect(check.stderr.isEmpty, "--quiet prints no summary")
        #expect(check.stdout.isEmpty, "check writes no records")
    }

    /// Issue 29, item 6: a WARN (passed, but below warnComplete) exits 0, as the gate passed;
    /// with `--fail-on warn` it exits 1 in run, check and merge, the reports unchanged, and a
    /// line after the summary says why.
    @Test("1 with --fail-on warn: a column below its warnComplete; 0 without")
    func failOnWarn() throws {
        let spec =
            #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]", "minComplete": 0.5, "warnComplete": 0.9}]}"#
        let setup = try Setup(input: "id,phone\n1,5551234567\n2,5551234568\n3,555\n", spec: spec)
        let plain = try setup.run(["check", "spec.json", "data.csv"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("WARN (1 column below warnComplete)"))
        for command in ["check", "run"] {
            let outcome = try setup.run(
                [
                    command, "spec.json", "data.csv", "--fail-on", "warn", "--report",
                    setup.out("\(command).json"),
                ]
                    + (command == "run" ? ["-o", setup.out("clean.csv")] : []))
            #expect(outcome.status == 1, "\(command): \(outcome.stderr)")
            #expect(
                outcome.stderr.hasSuffix("exit 1: 1 column below warnComplete, and --fail-on warn\n"),
                "\(outcome.stderr)")
            // The report is the one without the flag: it passed, with a warning.
            let report = try String(contentsOfFile: setup.out("\(command).json"), encoding: .utf8)
            #expect(report.contains(#""passed":true"#) || report.contains(#""passed": true"#), "\(report)")
        }
        let quiet = try setup.run(["check", "spec.json", "data.csv", "--fail-on", "warn", "--quiet"])
        #expect(quiet.status == 1 && quiet.stderr.isEmpty)
        #expect(try setup.run(["check", "spec.json", "data.csv", "--fail-on", "fail"]).status == 0)
        // A failing gate is 1 either way; a passing one without WARN is 0 with the flag.
        let clean = try Setup(input: ExitStatusTests.goodCSV, spec: spec)
        #expect(try clean.run(["check", "spec.json", "data.csv", "--fail-on", "warn"]).status == 0)
        // merge judges the merged report as check does.
        #expect(
            try setup.run(["check", "spec.json", "data.csv", "--part", "a", "--report", setup.out("a.json")])
                .status == 0)
        let merged = try setup.run(["merge", "spec.json", setup.out("a.json"), "--fail-on", "warn"])
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(try setup.run(["merge", "spec.json", setup.out("a.json")]).status == 0)
        #expect(try setup.run(["check", "spec.json", "data.csv", "--fail-on", "maybe"]).status == 64)
    }

    @Test("64: wrong usage, before anything is written")
    func usage() throws {
        let setup = try Setup()
        for arguments in [
            ["run", "spec.json", "data.csv", "--bogus", "-o", setup.out("clean.csv")],
            ["run", "spec.json", "-o", setup.out("clean.csv")],
            ["run", "spec.json", "data.csv", "--jobs", "0", "-o", setup.out("clean.csv")],
            ["run", "spec.json", "data.csv", "--jobs", "many", "-o", setup.out("clean.csv")],
            ["run", "spec.json", "data.csv", "--delimiter", ";;", "-o", setup.out("clean.csv")],
            ["run", "spec.json", "data.csv", "--input-format", "xlsx", "-o", setup.out("clean.csv")],
            ["run", "spec.json", "data.csv", "--on-error", "fail", "--quarantine", setup.out("bad.csv")],
            ["run", "spec.json", "data.csv", "-o", setup.out("same"), "--report", setup.out("same")],
            ["run", "spec.json", "data.csv", "-o", setup.out("a.csv"), "--quarantine", setup.out("a.csv")],
            ["check", "spec.json", "data.csv", "-o", setup.out("clean.csv")],
            ["apply"],
            ["frobnicate"],
        ] {
            let outcome = try setup.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stderr.isEmpty, "\(arguments) says what is wrong")
            #expect(setup.leftovers.isEmpty, "\(arguments) left \(setup.leftovers)")
        }
    }

    @Test("64: an output that is the input file is refused, however it is named")
    func outputIsInput() throws {
        let setup = try Setup()
        let input = setup.scratch.path("data.csv")
        try FileManager.default.createDirectory(
            at: setup.scratch.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: setup.scratch.path("link.csv"), withDestinationPath: input)
        try FileManager.default.linkItem(atPath: input, toPath: setup.scratch.path("hard.csv"))
        for (flag, path) in [
            ("-o", "data.csv"), ("-o", "./data.csv"), ("-o", input), ("-o", "sub/../data.csv"),
            ("-o", "link.csv"), ("-o", "hard.csv"), ("--report", "data.csv"), ("--quarantine", "./data.csv"),
        ] {
            var arguments = ["run", "spec.json", "data.csv", flag, path]
            if flag == "--quarantine" { arguments += ["-o", setup.out("clean.csv")] }
            let outcome = try setup.run(arguments)
            #expect(outcome.status == 64, "\(flag) \(path): \(outcome.stderr)")
            #expect(
                outcome.stderr == "\(flag) \(path) is the input file: writing it would destroy the input\n",
                "\(flag) \(path)")
            #expect(try String(contentsOfFile: input, encoding: .utf8) == Self.goodCSV, "the input is intact")
            #expect(setup.leftovers.isEmpty)
        }
        // Nothing but the input and what the test made is in the folder: no temporary file.
        #expect(setup.scratch.files == ["data.csv", "hard.csv", "link.csv", "out", "spec.json", "sub"])
    }

    @Test("65: malformed input data")
    func malformed() throws {
        let setup = try Setup(input: "id,phone\n1,5551234567\n2,\"555\n")
        let outcome = try setup.runAll()
        #expect(outcome.status == 65)
        #expect(outcome.stderr == "data.csv:3: unterminated quoted field\n")
        // No records: only the report, which says what stopped the run.
        #expect(setup.leftovers == ["report.json"])
        #expect(try setup.stoppedStatus() == 65)
    }

    @Test("66: the input is missing or unreadable")
    func noInput() throws {
        let setup = try Setup()
        let missing = try setup.runAll("nowhere.csv")
        #expect(missing.status == 66)
        #expect(missing.stderr == "nowhere.csv: no such file or directory\n")
        #expect(setup.leftovers == ["report.json"])
        #expect(try setup.stoppedStatus() == 66)
        // A directory is its record files (docs/command-line.md#many-inputs): their records go
        // to a directory, not to one output.
        let folder = try setup.run([
            "run", "spec.json", "out", "--input-format", "csv", "--report", setup.out("r.json"),
        ])
        #expect(folder.status == 64)
        #expect(
            folder.stderr.hasPrefix(
                "Error: -o -: with several inputs, -o names a directory for their outputs (end it with /)"),
            "\(folder.stderr)")
        #expect(setup.leftovers == ["report.json"])
    }

    @Test("73: an output cannot be created; nothing else is left")
    func cannotCreate() throws {
        let setup = try Setup()
        for (flag, path) in [
            ("-o", setup.out("missing/clean.csv")), ("--report", setup.out("missing/report.json")),
            ("--quarantine", setup.out("missing/bad.csv")),
        ] {
            var arguments = [
                "run", "spec.json", "data.csv", "-o", setup.out("clean.csv"), "--report",
                setup.out("report.json"),
            ]
            if flag == "-o" {
                arguments = [
                    "run", "spec.json", "data.csv", "-o", path, "--report", setup.out("report.json"),
                ]
            } else if flag == "--report" {
                arguments = ["run", "spec.json", "data.csv", "-o", setup.out("clean.csv"), "--report", path]
            } else {
                arguments += ["--quarantine", path]
            }
            let outcome = try setup.run(arguments)
            #expect(outcome.status == 73, "\(flag) \(path): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix(path), "the message names \(path): \(outcome.stderr)")
            #expect(setup.leftovers.isEmpty, "\(flag) \(path) left \(setup.leftovers)")
        }
    }

    @Test("74: a write error on the output (a full disk) leaves no records behind, only the report saying so")
    func writeErrorOnOutput() throws {
        let setup = try Setup()
        let outcome = try setup.run(
            [
                "run", "spec.json", "data.csv", "-o", "/dev/full", "--report", setup.out("report.json"),
                "--quiet",
            ])
        #expect(outcome.status == 74)
        #expect(outcome.stderr == "/dev/full: cannot write: no space left on device\n")
        #expect(setup.leftovers == ["report.json"], "left \(setup.leftovers)")
        #expect(try setup.stoppedStatus() == 74)
    }

    @Test("74: a write error on the report exits 74 and leaves no temporary file")
    func writeErrorOnReport() throws {
        let setup = try Setup()
        let outcome = try setup.run(
            [
                "run", "spec.json", "data.csv", "-o", setup.out("clean.csv"), "--report", "/dev/full",
                "--quiet",
            ])
        #expect(outcome.status == 74)
        #expect(outcome.stderr == "/dev/full: cannot write: no space left on device\n")
        #expect(!setup.leftovers.contains { $0.hasSuffix(".tmp") }, "left \(setup.leftovers)")
        // That no output is left either is in KnownIssuesTests.
    }

    @Test("74: a write error on the quarantine file")
    func writeErrorOnQuarantine() throws {
        let setup = try Setup(input: "id,phone\n1,5551234567\n2,\"55\"5\n3,5551234567\n")
        let outcome = try setup.run(
            ["run", "spec.json", "data.csv", "-o", "/dev/null", "--quarantine", "/dev/full", "--quiet"])
        #expect(outcome.status == 74)
        #expect(outcome.stderr == "/dev/full: cannot write: no space left on device\n")
    }

    @Test("74: a write error on stdout")
    func writeErrorOnStdout() throws {
        let setup = try Setup()
        let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let process = Process()
        process.executableURL = Maskclean.binary
        process.arguments = ["run", "spec.json", "data.csv", "--quiet"]
        process.currentDirectoryURL = setup.scratch.url
        process.standardOutput = full
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74)
        #expect(message == "stdout: cannot write: no space left on device\n")
    }

    @Test("78: a bad spec stops the run before any record is written; the report says why")
    func badSpec() throws {
        let setup = try Setup(
            spec: #"{"columns": [{"name": "phone", "format": "[000", "minComplete": 0.5}]}"#)
        let outcome = try setup.runAll()
        #expect(outcome.status == 78)
        #expect(
            outcome.stderr == #"spec.json: columns[0] "phone": format: '[' at offset 0 is never closed"#
                + "\n")
        #expect(setup.leftovers == ["report.json"])
        #expect(try setup.stoppedStatus() == 78)
        let missingColumn = try Setup(spec: #"{"columns": [{"name": "mobile", "format": "[000]"}]}"#)
        let second = try missingColumn.runAll()
        #expect(second.status == 78)
        #expect(
            second.stderr
                == #"spec.json: columns[0] "mobile": no column "mobile" in data.csv (its columns: "id", "phone")"#
                + "\n")
        #expect(missingColumn.leftovers == ["report.json"])
        #expect(try missingColumn.stoppedStatus() == 78)
    }

    @Test("65 with --quarantine: a file with no header cannot be kept going; no quarantine file is left")
    func emptyFileWithQuarantine() throws {
        let setup = try Setup(input: "")
        let outcome = try setup.runAll("data.csv", ["--quarantine", setup.out("bad.csv")])
        #expect(outcome.status == 65)
        #expect(setup.leftovers == ["report.json"])
    }
}
