import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 24, items 2 and 4: what a closed or shared standard output may not do to a gate
/// (docs/exit-status.md). Once the gate is judged, its verdict is the exit status whatever
/// became of standard output; only a reader of the records that stops reading before the gate
/// is judged (`run … | head`) ends the run quietly with 0. Annotations go to standard error
/// whenever standard output carries an output, in any format.
@Suite("A closed or shared standard output, end to end")
struct ClosedStandardOutputTests {
    /// The demo misses its card column's threshold: exit 1 when read whole.
    static let demo = Maskclean.fixtures.appendingPathComponent("demo")

    /// Runs `maskclean arguments…` in `directory` with standard output a pipe whose reader has
    /// gone already.
    static func runWithClosedOutput(_ arguments: [String], in directory: URL = demo) throws -> (
        status: Int32, stderr: String
    ) {
        let outcome = try Maskclean.run(arguments, in: directory, closedStdout: true)
        return (outcome.status, outcome.stderr)
    }

    @Test(
        "a failing gate's report on a closed standard output still exits 1",
        arguments: ["--report", "--junit", "--markdown", "--html"])
    func failingGateStaysFailing(flag: String) throws {
        let outcome = try Self.runWithClosedOutput(
            ["check", "spec.json", "customers.csv", flag, "-", "--quiet"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty, "a closed reader is no error: \(outcome.stderr)")
    }

    @Test("a passing gate's report on a closed standard output exits 0, not 74")
    func passingGateStaysPassing() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", ExitStatusTests.spec)
        _ = try scratch.write("data.csv", ExitStatusTests.goodCSV)
        let outcome = try Self.runWithClosedOutput(
            ["check", "spec.json", "data.csv", "--report", "-", "--quiet"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    /// `run -o out.csv --report - | head` once exited 0 and never wrote out.csv.
    @Test("run -o FILE --report - on a closed standard output writes FILE and exits with the verdict")
    func recordsCommittedWhenReportReaderCloses() throws {
        let out = try TemporaryFolder()
        let clean = out.path("clean.csv")
        let outcome = try Self.runWithClosedOutput(
            [
                "run", "spec.json", "customers.csv", "-o", clean, "--junit", out.path("junit.xml"),
                "--report", "-",
            ])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("1000 rows: FAILED (1 column below threshold)"), "\(outcome.stderr)")
        let expected = try Data(contentsOf: Self.demo.appendingPathComponent("expected.clean.csv"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: clean)) == expected)
        #expect(out.files == ["clean.csv", "junit.xml"], "\(out.files)")
    }

    @Test("merge --report - on a closed standard output exits with the merged verdict")
    func mergeKeepsItsVerdict() throws {
        let out = try TemporaryFolder()
        let partial = out.path("part.json")
        let made = try Maskclean.run(
            [
                "check", "spec.json", "customers.csv", "--report", partial, "--part", "1", "--first-row", "1",
                "--quiet",
            ], in: Self.demo)
        #expect(made.status == 1, "\(made.stderr)")
        let outcome = try Self.runWithClosedOutput([
            "merge", "spec.json", partial, "--report", "-", "--quiet",
        ])
        #expect(outcome.status == 1, "\(outcome.stderr)")
    }

    /// docs/exit-status.md: the reader of the records stopped reading before the gate was judged.
    @Test("run with its records on a closed standard output ends quietly with 0 and commits nothing")
    func recordsReaderGoneIsQuiet() throws {
        let out = try TemporaryFolder()
        let outcome = try Self.runWithClosedOutput(
            ["run", "spec.json", "customers.csv", "--report", out.path("report.json"), "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(out.files.isEmpty, "\(out.files)")
    }

    /// Item 4: `check --html -` on GitHub Actions appended `::error` lines to the HTML page.
    @Test(
        "annotations go to stderr when a report of any format is on standard output",
        arguments: ["--report", "--junit", "--markdown", "--html"])
    func annotationsLeaveAReportAlone(flag: String) throws {
        let outcome = try Maskclean.run(
            ["check", "spec.json", "customers.csv", flag, "-", "--quiet"], in: Self.demo,
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(outcome.status == 1)
        #expect(!outcome.stdoutText.contains("::error"), "annotations in the \(flag) output")
        #expect(outcome.stderr.contains("::error"), "\(outcome.stderr)")
    }

    /// The probe of the fixes: `--report /dev/stdout` put `::error` lines after the JSON.
    @Test(
        "annotations go to stderr when a report names standard output by a path",
        arguments: ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"])
    func annotationsLeaveAReportOnAPathAlone(path: String) throws {
        let outcome = try Maskclean.run(
            ["check", "spec.json", "customers.csv", "--report", path, "--quiet"], in: Self.demo,
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdoutText.hasSuffix("}\n"), "\(outcome.stdoutText.suffix(200))")
        #expect(!outcome.stdoutText.contains("::error"))
        #expect(outcome.stderr.contains("::error"), "\(outcome.stderr)")
    }

    @Test("merge --html - on GitHub Actions keeps the annotations off the page")
    func mergeAnnotationsLeaveThePageAlone() throws {
        let out = try TemporaryFolder()
        let partial = out.path("part.json")
        _ = try Maskclean.run(
            ["check", "spec.json", "customers.csv", "--report", partial, "--quiet"], in: Self.demo)
        let outcome = try Maskclean.run(
            ["merge", "spec.json", partial, "--html", "-", "--quiet"], in: Self.demo,
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdoutText.hasPrefix("<!DOCTYPE html>"), "\(outcome.stdoutText.prefix(40))")
        #expect(!outcome.stdoutText.contains("::error"))
        #expect(outcome.stderr.contains("::error"), "\(outcome.stderr)")
    }
}
