import Foundation
import MaskClean
import TestSupport
import Testing

/// Issue 25, item 4: every report format of the library's registry (`ReportFormat`) is an
/// output of run, check and merge, set by its flag, checked against the other outputs, and
/// counted by the one rule for what is on standard output.
@Suite("One report registry, end to end")
struct ReportRegistryEndToEndTests {
    /// A scratch folder with a spec, an input that passes its gate, and a partial report of it.
    static func scratch() throws -> TemporaryFolder {
        let scratch = try TemporaryFolder()
        for (name, text) in [("spec.json", ExitStatusTests.spec), ("data.csv", ExitStatusTests.goodCSV)] {
            _ = try scratch.write(name, text)
        }
        let made = try Maskclean.run(
            ["check", "spec.json", "data.csv", "--report", "part.json", "--quiet"], in: scratch.url)
        #expect(made.status == 0, "\(made.stderr)")
        return scratch
    }

    /// The flag that sets each format of the registry: its name, but the JSON report's.
    static func flag(_ format: ReportFormat) -> String {
        format == .json ? "--report" : "--" + format.rawValue
    }

    @Test(
        "every registered report format is an output of run, check and merge",
        arguments: ReportFormat.allCases)
    func everyFormatAccepted(format: ReportFormat) throws {
        let scratch = try Self.scratch()
        for arguments in [
            ["run", "spec.json", "data.csv", "-o", "out.csv"],
            ["check", "spec.json", "data.csv"],
            ["merge", "spec.json", "part.json"],
        ] {
            let name = "\(arguments[0]).\(format.rawValue)"
            let outcome = try Maskclean.run(
                arguments + [Self.flag(format), name, "--quiet"], in: scratch.url)
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            let written = try Data(contentsOf: scratch.url.appendingPathComponent(name))
            #expect(!written.isEmpty, "\(arguments) \(format)")
        }
    }

    /// The demo misses a threshold, so it has an annotation to print.
    @Test(
        "every registered report format on - takes standard output: the annotations go to standard error",
        arguments: ReportFormat.allCases)
    func everyFormatOnStandardOutput(format: ReportFormat) throws {
        let demo = Maskclean.fixtures.appendingPathComponent("demo")
        let scratch = try TemporaryFolder()
        let partial = scratch.path("part.json")
        _ = try Maskclean.run(
            [
                "check", "spec.json", "customers.csv", "--report", partial, "--part", "1", "--first-row", "1",
                "--quiet",
            ],
            in: demo)
        for arguments in [
            ["run", "spec.json", "customers.csv", "-o", scratch.path("clean.csv")],
            ["check", "spec.json", "customers.csv"],
            ["merge", "spec.json", partial],
        ] {
            let onFile = try Maskclean.run(
                arguments + [
                    Self.flag(format), scratch.path("report"), "--quiet", "--annotations", "github",
                ],
                in: demo)
            #expect(onFile.status == 1)
            #expect(onFile.stdoutText.hasPrefix("::error "), "\(arguments): annotations on standard output")
            let onStandardOutput = try Maskclean.run(
                arguments + [Self.flag(format), "-", "--quiet", "--annotations", "github"], in: demo)
            #expect(onStandardOutput.status == 1)
            #expect(!onStandardOutput.stdoutText.contains("::error"), "\(arguments) \(format)")
            #expect(
                onStandardOutput.stderr.hasPrefix("::error "),
                "\(arguments) \(format): \(onStandardOutput.stderr)")
            let report = try String(contentsOfFile: scratch.path("report"), encoding: .utf8)
            // The same report, but for when its run started and how long it took.
            #expect(untimed(onStandardOutput.stdoutText) == untimed(report), "\(arguments) \(format)")
        }
    }

    @Test("two report formats on - are refused, named by their flags", arguments: ReportFormat.allCases)
    func twoFormatsOnStandardOutput(format: ReportFormat) throws {
        let scratch = try Self.scratch()
        for other in ReportFormat.allCases where other != format {
            let outcome = try Maskclean.run(
                ["check", "spec.json", "data.csv", Self.flag(format), "-", Self.flag(other), "-"],
                in: scratch.url)
            #expect(outcome.status == 64)
            let (first, second) =
                ReportFormat.allCases.firstIndex(of: format)! < ReportFormat.allCases.firstIndex(of: other)!
                ? (format, other) : (other, format)
            #expect(
                outcome.stderr == "\(Self.flag(second)) and \(Self.flag(first)) both name -\n",
                "\(outcome.stderr)")
        }
    }
}
