import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What two hostile probes found wrong with outputs and signals. Each test reproduces a report
/// that main passed before the fix (exit 0 with records lost, a setuid output, a replaced
/// `/dev/stdout` link, temporaries left behind).
@Suite("Hostile probes: outputs and signals")
struct OutputSafetyProbeTests {
    static let spec = #"{"columns":[{"name":"phone","format":"+1 ([000]) [000]-[0000]"}]}"#
    static let input = "id,phone\n1,5551234567\n"
    static let cleaned =
        "id,phone,phone_formatted,phone_extracted,phone_status\n1,5551234567,+1 (555) 123-4567,5551234567,complete\n"

    func scratch() throws -> TemporaryFolder {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        _ = try scratch.write("in.csv", Self.input)
        return scratch
    }

    /// Regression: `--report ./out.csv` beside `-o out.csv` exited 0 with the records gone.
    @Test(
        "two outputs in one file are refused, however the file is named",
        arguments: [
            (
                ["-o", "out.csv", "--report", "./out.csv"],
                "--report ./out.csv and -o out.csv are the same file"
            ),
            (
                ["-o", "out.csv", "--quarantine", "hard.csv"],
                "--quarantine hard.csv and -o out.csv are the same file"
            ),
            (
                ["-o", "link.csv", "--report", "out.csv"],
                "--report out.csv and -o link.csv are the same file"
            ),
            (
                ["-o", "new.csv", "--report", "sub/../new.csv"],
                "--report sub/../new.csv and -o new.csv are the same file"
            ),
            (["-o", "spec.json"], "-o spec.json is the spec file: writing it would destroy the spec"),
            (["-o", "x.csv", "--report", "spec.json"], "--report spec.json is the spec file"),
            (["-o", "-", "--report", "-"], "--report and -o both name -"),
            (["-o", ""], "-o needs a file name (or - for standard output)"),
        ])
    func twoOutputsOneFile(arguments: [String], message: String) throws {
        let scratch = try scratch()
        let out = try scratch.write("out.csv", "yesterday\n")
        link(out, scratch.path("hard.csv"))
        symlink("out.csv", scratch.path("link.csv"))
        try FileManager.default.createDirectory(
            atPath: scratch.path("sub"), withIntermediateDirectories: true)
        let outcome = try Maskclean.run(["run", "spec.json", "in.csv"] + arguments, in: scratch.url)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "yesterday\n")
        #expect(try String(contentsOfFile: scratch.path("spec.json"), encoding: .utf8) == Self.spec)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.csv")))
        #expect(outcome.stdout.isEmpty)
    }

    @Test("/dev/null takes any number of outputs; the spec and the input cannot both be stdin")
    func devNullAndDoubleStdin() throws {
        let scratch = try scratch()
        // Standard output on /dev/null with the report sent there too: nothing to clobber.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = [
            "-c", "'\(Maskclean.binary.path)' run spec.json in.csv --report /dev/null > /dev/null",
        ]
        shell.currentDirectoryURL = scratch.url
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let null = try Maskclean.run(
            ["run", "spec.json", "in.csv", "-o", "/dev/null", "--report", "/dev/null", "--quiet"],
            in: scratch.url)
        #expect(null.status == 0, "\(null.stderr)")
        let stdin = try Maskclean.run(["run", "-", "-"], in: scratch.url, stdin: Data(Self.input.utf8))
        #expect(stdin.status == 64)
        #expect(
            stdin.stderr.contains("the spec and the input cannot both be standard input"), "\(stdin.stderr)")
    }

    /// Regression: a report FIFO whose reader quit ended the run with exit 0, committing nothing.
    @Test("a closed pipe on the report is a write error naming it (74)")
    func closedReportPipe() throws {
        let scratch = try scratch()
        try Generated.customers(rows: 20_000).write(to: scratch.url.appendingPathComponent("data.csv"))
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        let fifo = scratch.path("report.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that is there when the run opens the report, and gone when it writes it.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        let running = try RunningMaskclean(
            [
                "run", "spec.json", "data.csv", "-o", "clean.csv", "--report", "report.fifo", "--quiet",
                "--jobs", "1",
            ],
            in: scratch.url)
        defer { running.kill() }
        let opened = eventually(seconds: 30) {
            let descriptors =
                (try? FileManager.default.contentsOfDirectory(
                    atPath: "/proc/\(running.process.processIdentifier)/fd")) ?? []
            return descriptors.contains {
                (try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "/proc/\(running.process.processIdentifier)/fd/\($0)")) == fifo
            }
        }
        #expect(opened, "the run opened the report")
        close(reader)
        #expect(running.wait(seconds: 120))
        #expect(running.process.terminationStatus == 74, "\(running.stderr)")
        #expect(running.stderr.contains("report.fifo: cannot write"), "\(running.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("clean.csv")), "nothing committed")
    }

    /// Regression: `-o link` replaced the link with a regular file, and `-o /dev/stdout` with
    /// standard output redirected to a file sent nothing there.
    @Test("an output that is a symlink writes what it points to")
    func symlinkOutput() throws {
        let scratch = try scratch()
        _ = try scratch.write("target.csv", "old\n")
        symlink("target.csv", scratch.path("link.csv"))
        symlink("missing.csv", scratch.path("dangling.csv"))
        for output in ["link.csv", "dangling.csv"] {
            let outcome = try Maskclean.run(
                ["run", "spec.json", "in.csv", "-o", output, "--quiet"], in: scratch.url)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("link.csv"))
                == "target.csv")
        #expect(try String(contentsOfFile: scratch.path("target.csv"), encoding: .utf8) == Self.cleaned)
        #expect(try String(contentsOfFile: scratch.path("missing.csv"), encoding: .utf8) == Self.cleaned)

        let redirected = scratch.path("stdout.txt")
        _ = FileManager.default.createFile(atPath: redirected, contents: nil)
        let process = Process()
        process.executableURL = Maskclean.binary
        process.arguments = ["run", "spec.json", "in.csv", "-o", "/dev/stdout", "--quiet"]
        process.currentDirectoryURL = scratch.url
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: redirected))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try String(contentsOfFile: redirected, encoding: .utf8) == Self.cleaned)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "/dev/stdout")) != nil)
    }

    /// Regression: names past about 223 characters were refused because of the temporary suffix.
    @Test("a long legal file name is written; the temporary name stays within the limit")
    func longFileName() throws {
        let scratch = try scratch()
        let name = String(repeating: "x", count: 251) + ".csv"
        let outcome = try Maskclean.run(
            ["run", "spec.json", "in.csv", "-o", name, "--quiet"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try String(contentsOfFile: scratch.path(name), encoding: .utf8) == Self.cleaned)
        #expect(scratch.files == ["in.csv", name, "spec.json"].sorted())
    }

    /// Regression: a replaced setuid output stayed setuid, and a root run left it root:root.
    @Test("a replaced output keeps its permission bits, owner and group, but not setuid or setgid")
    func replacedOutputModes() throws {
        let scratch = try scratch()
        let out = try scratch.write("out.csv", "old\n")
        #expect(chmod(out, 0o6755) == 0)
        let isRoot = getuid() == 0
        if isRoot { #expect(chown(out, 65534, 65534) == 0) }
        let outcome = try Maskclean.run(
            ["run", "spec.json", "in.csv", "-o", "out.csv", "--quiet"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var info = stat()
        #expect(stat(out, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o755)
        if isRoot {
            #expect(info.st_uid == 65534)
            #expect(info.st_gid == 65534)
        }
    }

    /// Regression: SIGHUP, SIGUSR1/2, SIGALRM and SIGXCPU left full-size temporaries, SIGQUIT
    /// printed a crash report and the run went on to commit, and SIGTERM took up to minutes to act
    /// while workers were busy.
    @Test(
        "every terminating signal ends a busy run at once, by that signal, leaving nothing",
        arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU])
    func terminatingSignals(signal: Int32) throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        let inputs = try TemporaryFolder()
        try Generated.customers(rows: 150_000).write(to: inputs.url.appendingPathComponent("data.csv"))
        let running = try RunningMaskclean([
            "run", scratch.path("spec.json"), inputs.path("data.csv"), "-o", scratch.path("clean.csv"),
            "--report", scratch.path("report.json"), "--jobs", "2",
        ])
        defer { running.kill() }
        #expect(eventually(seconds: 30) { scratch.files.contains { $0.hasSuffix(".tmp") } })
        Glibc.kill(running.process.processIdentifier, signal)
        #expect(running.wait(seconds: 2), "still running 2 s after signal \(signal)")
        guard running.wait(seconds: 120) else { return }
        #expect(running.process.terminationReason == .uncaughtSignal, "\(running.stderr)")
        #expect(running.process.terminationStatus == signal)
        #expect(scratch.files == ["spec.json"], "left behind: \(scratch.files)")
        #expect(!running.stderr.contains("crashed"), "\(running.stderr)")
    }

    /// Regression: a SIGTERM landing between two renames left a new output beside an old report
    /// (4 in 400 tries). Many short runs, each stopped at a different moment: the records and the
    /// report are always of the same run.
    @Test("a signal never lands between the renames of one run's outputs")
    func commitIsAllOrNothing() throws {
        let scratch = try scratch()
        for attempt in 0..<120 {
            _ = try scratch.write("out.csv", "old\n")
            _ = try scratch.write("report.json", "old\n")
            let running = try RunningMaskclean(
                ["run", "spec.json", "in.csv", "-o", "out.csv", "--report", "report.json", "--quiet"],
                in: scratch.url)
            usleep(UInt32(attempt % 40) * 250)
            running.process.terminate()
            _ = running.wait(seconds: 30)
            let records = try String(contentsOfFile: scratch.path("out.csv"), encoding: .utf8)
            let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
            #expect((records == "old\n") == (report == "old\n"), "attempt \(attempt): \(records) / \(report)")
            #expect(!scratch.files.contains { $0.hasSuffix(".tmp") })
        }
    }
}

/// Regression: a spec of many columns was quadratic (12,500 columns 0.7 s, 100,000 21 s in a
/// release build), in building each worker's field-to-column table. The limit is a guard far
/// above the linear cost of a debug build, so that the quadratic table fails instead of hanging.
@Suite("Hostile probes: wide exports")
struct WideExportProbeTests {
    @Test("an export of 40,000 masked columns is checked, every column counted")
    func fortyThousandColumns() throws {
        let scratch = try TemporaryFolder()
        let count = 40_000
        let columns = (0..<count).map { #"{"name":"c\#($0)","format":"[000]","minComplete":1}"# }
        _ = try scratch.write("spec.json", #"{"columns":["# + columns.joined(separator: ",") + "]}")
        let header = (0..<count).map { "c\($0)" }.joined(separator: ",")
        let record = (0..<count).map { _ in "123" }.joined(separator: ",")
        _ = try scratch.write("wide.csv", header + "\n" + record + "\n" + record + "\n")
        let running = try RunningMaskclean(
            ["check", "spec.json", "wide.csv", "--report", "report.json", "--quiet"], in: scratch.url)
        defer { running.kill() }
        #expect(running.wait(seconds: 120), "still checking 40,000 columns after 120 s")
        #expect(running.process.terminationStatus == 0, "\(running.stderr)")
        let report =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: scratch.url.appendingPathComponent("report.json"))) as? [String: Any]
        let reported = report?["columns"] as? [[String: Any]]
        #expect(reported?.count == count)
        #expect(reported?.last?["complete"] as? Int == 2)
    }
}
