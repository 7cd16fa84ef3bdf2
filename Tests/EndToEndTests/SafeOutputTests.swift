import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The "safe output": atomic writes, an existing output untouched by a failed run, a
/// closed stdout ending quietly, SIGTERM removing temporaries.
@Suite("Safe output")
struct SafeOutputTests {
    static let spec = ExitStatusTests.spec

    @Test(
        "a failed run leaves existing outputs exactly as they were",
        arguments: [
            ("id,phone\n1,5551234567\n2,\"555\n", 65),  // malformed input
            ("id,mobile\n1,5551234567\n", 78),  // a spec column missing from the header
            ("", 65),  // no header at all
        ])
    func existingOutputUntouched(input: String, status: Int32) throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        _ = try scratch.write("data.csv", input)
        let previous = "id,phone,phone_formatted,phone_extracted,phone_status\nyesterday's run\n"
        let clean = try scratch.write("clean.csv", previous)
        let report = try scratch.write("report.json", "{\"rows\": 41}\n")
        let bad = try scratch.write("bad.csv", "kept\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: clean)
        let before = try FileManager.default.attributesOfItem(atPath: clean)
        // (With --quarantine the malformed input would not fail; the file is there to stay as it is.)
        let outcome = try Maskclean.run(
            ["run", "spec.json", "data.csv", "-o", "clean.csv", "--report", "report.json"], in: scratch.url)
        #expect(outcome.status == status, "\(outcome.stderr)")
        #expect(try String(contentsOfFile: clean, encoding: .utf8) == previous)
        // The report is replaced by one that says what stopped the run (docs/report.md#a-run-that-stopped).
        #expect(
            try String(contentsOfFile: report, encoding: .utf8).contains("\"error\": {\"status\": \(status),")
        )
        #expect(try String(contentsOfFile: bad, encoding: .utf8) == "kept\n")
        let after = try FileManager.default.attributesOfItem(atPath: clean)
        #expect(
            after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int, "the same file, not a copy"
        )
        #expect(after[.posixPermissions] as? Int == 0o640)
        #expect(scratch.files == ["bad.csv", "clean.csv", "data.csv", "report.json", "spec.json"])
    }

    @Test("a successful run replaces an existing output whole, keeping its permissions")
    func replacesOutput() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        _ = try scratch.write("data.csv", "id,phone\n1,5551234567\n")
        let clean = try scratch.write("clean.csv", String(repeating: "an older, longer output\n", count: 100))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: clean)
        let outcome = try Maskclean.run(
            ["run", "spec.json", "data.csv", "-o", "clean.csv", "--quiet"], in: scratch.url)
        #expect(outcome.status == 0)
        #expect(
            try String(contentsOfFile: clean, encoding: .utf8)
                == "id,phone,phone_formatted,phone_extracted,phone_status\n1,5551234567,+1 (555) 123-4567,5551234567,complete\n"
        )
        #expect(try FileManager.default.attributesOfItem(atPath: clean)[.posixPermissions] as? Int == 0o640)
        #expect(scratch.files == ["clean.csv", "data.csv", "spec.json"])
    }

    @Test("a non-regular target is written directly: /dev/null and a FIFO")
    func nonRegularTargets() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        _ = try scratch.write("data.csv", "id,phone\n1,5551234567\n")
        let devNull = try Maskclean.run(
            ["run", "spec.json", "data.csv", "-o", "/dev/null", "--quiet"], in: scratch.url)
        #expect(devNull.status == 0, "\(devNull.stderr)")
        let reportToNull = try Maskclean.run(
            ["run", "spec.json", "data.csv", "-o", "-", "--report", "/dev/null", "--quiet"], in: scratch.url)
        #expect(reportToNull.status == 0, "\(reportToNull.stderr)")
        #expect(reportToNull.stdoutText.hasSuffix(",complete\n"))
        let fifo = scratch.path("pipe.csv")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = BackgroundReader { FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data() }
        let outcome = try Maskclean.run(
            ["run", "spec.json", "data.csv", "-o", "pipe.csv", "--quiet"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(reader.finished(within: 10))
        #expect(
            String(decoding: reader.data, as: UTF8.self)
                == "id,phone,phone_formatted,phone_extracted,phone_status\n1,5551234567,+1 (555) 123-4567,5551234567,complete\n"
        )
        #expect(scratch.files == ["data.csv", "pipe.csv", "spec.json"], "no temporary file beside the FIFO")
    }

    @Test("a closed stdout ends the run quietly: no message, no stack trace, no crash")
    func closedStdout() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        try Generated.customers(rows: 30_000).write(to: scratch.url.appendingPathComponent("data.csv"))
        for jobs in ["1", "4"] {
            let running = try RunningMaskclean(
                ["run", "spec.json", "data.csv", "--jobs", jobs], in: scratch.url)
            defer { running.kill() }
            // Read the header and a little more, as `head` would, then go away.
            let first = running.output.fileHandleForReading.readData(ofLength: 200)
            #expect(
                String(decoding: first, as: UTF8.self).hasPrefix("id,name,phone,date,note,phone_formatted"))
            try running.output.fileHandleForReading.close()
            let ended = running.wait(seconds: 60)
            #expect(ended, "the run ends once its reader is gone")
            guard ended else { continue }
            #expect(
                running.process.terminationReason == .exit,
                "ended by signal \(running.process.terminationStatus)")
            #expect(running.stderr.isEmpty, "stderr: \(running.stderr)")
            #expect(![4, 5, 6, 11].contains(running.process.terminationStatus), "a crash")
        }
        #expect(scratch.files == ["data.csv", "spec.json"])
    }

    @Test("SIGTERM during a long run removes the temporary files; nothing is left")
    func sigtermRemovesTemporaries() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        let inputs = try TemporaryFolder()
        try Generated.customers(rows: 150_000).write(to: inputs.url.appendingPathComponent("data.csv"))
        let running = try RunningMaskclean(
            [
                "run", scratch.path("spec.json"), inputs.path("data.csv"), "-o", scratch.path("clean.csv"),
                "--report", scratch.path("report.json"), "--jobs", "1",
            ])
        defer { running.kill() }
        let temporariesAppeared = eventually(seconds: 30) {
            scratch.files.filter { $0.hasSuffix(".tmp") }.count == 2
        }
        #expect(temporariesAppeared, "the run writes to two temporary files: \(scratch.files)")
        #expect(running.process.isRunning, "the input is big enough to still be running")
        running.process.terminate()
        let ended = running.wait(seconds: 300)
        #expect(ended)
        guard ended else { return }
        #expect(
            running.process.terminationStatus != 0 || running.process.terminationReason == .uncaughtSignal)
        #expect(scratch.files == ["spec.json"], "left behind: \(scratch.files)")
        #expect(!running.stderr.contains("Fatal error"))
    }

    @Test("--progress prints nothing when stderr is not a terminal")
    func progressNotATerminal() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        try Generated.customers(rows: 20_000).write(to: scratch.url.appendingPathComponent("data.csv"))
        let plain = try Maskclean.run(["check", "spec.json", "data.csv"], in: scratch.url)
        let progress = try Maskclean.run(["check", "spec.json", "data.csv", "--progress"], in: scratch.url)
        #expect(progress.status == plain.status)
        #expect(progress.stderr == plain.stderr, "only the summary")
        #expect(!progress.stderr.contains("\u{1B}["), "no terminal control sequence")
        #expect(!progress.stderr.contains("\r"))
        let quiet = try Maskclean.run(
            ["check", "spec.json", "data.csv", "--progress", "--quiet"], in: scratch.url)
        #expect(quiet.stderr.isEmpty)
        let run = try Maskclean.run(
            ["run", "spec.json", "data.csv", "--progress", "--quiet"], in: scratch.url)
        #expect(run.stderr.isEmpty)
        #expect(run.status == 0)
    }
}
