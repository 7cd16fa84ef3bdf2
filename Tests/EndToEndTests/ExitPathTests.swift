import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 25, item 7: every subcommand ends through one path (Sources/maskclean/ExitPath.swift),
/// so a closed or gone standard output, a signal and an error end each of them the same way, and
/// warnings go through the one diagnostics engine (Sources/maskclean/Diagnostics.swift).
@Suite("One exit path, end to end")
struct ExitPathTests {
    /// Each subcommand writing to standard output, its gate passed.
    static let writingToStandardOutput: [[String]] = [
        ["run", "spec.json", "data.csv", "--quiet"],
        ["check", "spec.json", "data.csv", "--report", "-", "--quiet"],
        ["merge", "spec.json", "part.json", "--report", "-", "--quiet"],
        ["apply", "[000]", "5551234567"],
        ["describe", "data.csv"],
        ["schema"],
    ]

    /// Runs `maskclean arguments… redirection` through the shell, in `scratch`.
    func shell(_ arguments: [String], _ redirection: String, in scratch: TemporaryFolder) throws -> (
        status: Int32, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        process.arguments = ["-c", "'\(Maskclean.binary.path)' \(quoted) \(redirection) 2>err.txt"]
        process.currentDirectoryURL = scratch.url
        process.environment = ["PATH": "/usr/bin:/bin"]
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus,
            try String(contentsOfFile: scratch.path("err.txt"), encoding: .utf8)
        )
    }

    @Test(
        "a closed standard output is the same error, and status, for every subcommand",
        arguments: writingToStandardOutput)
    func closedStandardOutput(arguments: [String]) throws {
        let outcome = try shell(arguments, ">&-", in: try ReportRegistryEndToEndTests.scratch())
        #expect(outcome.status == 74, "\(arguments)")
        #expect(
            outcome.stderr == "stdout: cannot write: standard output is closed\n",
            "\(arguments): \(outcome.stderr)")
    }

    @Test(
        "a reader of standard output that went away ends every subcommand quietly with 0",
        arguments: writingToStandardOutput)
    func goneReader(arguments: [String]) throws {
        let scratch = try ReportRegistryEndToEndTests.scratch()
        let outcome = try Maskclean.run(arguments, in: scratch.url, closedStdout: true)
        #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.isEmpty, "\(arguments): \(outcome.stderr)")
    }

    /// Each subcommand waiting on standard input, left open.
    static let waitingOnStandardInput: [[String]] = [
        ["run", "spec.json", "-", "--input-format", "csv", "-o", "out.csv"],
        ["check", "spec.json", "-", "--input-format", "csv", "--report", "report.json"],
        ["merge", "spec.json", "-", "--report", "merged.json"],
        ["apply", "[000]"],
        ["describe", "-", "--input-format", "csv", "-o", "proposed.yaml"],
    ]

    @Test(
        "a signal ends every subcommand as the signal would, leaving no file behind",
        arguments: waitingOnStandardInput)
    func signalled(arguments: [String]) throws {
        let scratch = try ReportRegistryEndToEndTests.scratch()
        let before = scratch.files
        let process = Process()
        process.executableURL = Maskclean.binary
        process.arguments = arguments
        process.currentDirectoryURL = scratch.url
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Something read, and the rest still to come.
        input.fileHandleForWriting.write(Data("id,phone\n1,5551234567\n".utf8))
        Thread.sleep(forTimeInterval: 0.5)
        process.terminate()
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal, "\(arguments)")
        #expect(process.terminationStatus == SIGTERM, "\(arguments)")
        #expect(scratch.files == before, "\(arguments): \(scratch.files)")
    }

    @Test(
        "a step summary that cannot be appended is a warning for run, check and merge, and the verdict stands"
    )
    func warningChannel() throws {
        let scratch = try ReportRegistryEndToEndTests.scratch()
        for arguments in [
            ["run", "spec.json", "data.csv", "-o", "out.csv", "--quiet"],
            ["check", "spec.json", "data.csv", "--quiet"],
            ["merge", "spec.json", "part.json", "--quiet"],
        ] {
            let folder = scratch.path("no/such/folder.md")
            let missing = try Maskclean.run(
                arguments, in: scratch.url, environment: ["GITHUB_STEP_SUMMARY": folder])
            #expect(missing.status == 0, "\(arguments): \(missing.stderr)")
            #expect(
                missing.stderr
                    == "warning: cannot append the summary to \(folder) (GITHUB_STEP_SUMMARY): No such file or directory\n",
                "\(arguments): \(missing.stderr)")
            let spec = try Maskclean.run(
                arguments, in: scratch.url, environment: ["GITHUB_STEP_SUMMARY": "spec.json"])
            #expect(spec.status == 0, "\(arguments): \(spec.stderr)")
            #expect(
                spec.stderr
                    == "warning: GITHUB_STEP_SUMMARY spec.json is the spec file: writing it would destroy the spec; the summary is not appended\n",
                "\(arguments): \(spec.stderr)")
        }
    }
}
