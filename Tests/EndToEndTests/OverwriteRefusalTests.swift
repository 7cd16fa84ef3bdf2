import Foundation
import TestSupport
import Testing

/// Issue 24, item 1: every command that writes a file refuses to write over a file it reads
/// (the input, the spec, a partial report), by the file's identity and not its name, and
/// `describe -o` replaces an existing file only with `--force` (docs/exit-status.md, 64).
@Suite("No command writes over what it reads, end to end")
struct OverwriteRefusalTests {
    static let records = """
        [{"id": 1, "phone": "5551234567"}, {"id": 2, "phone": "(555) 123-4567"},
         {"id": 3, "phone": "555 123 4567"}]

        """

    /// Runs `maskclean arguments…` in `scratch` with standard input read from the file `stdin`
    /// there (as a shell's `< FILE` gives it), when one is named.
    static func run(_ arguments: [String], in scratch: TemporaryFolder, stdin: String? = nil) throws
        -> Maskclean.Outcome
    {
        try Maskclean.run(
            arguments, in: scratch.url, stdinFile: stdin.map { scratch.url.appendingPathComponent($0) })
    }

    /// The files of `scratch` and their bytes.
    static func contents(_ scratch: TemporaryFolder) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in scratch.files {
            contents[name] = try Data(contentsOf: scratch.url.appendingPathComponent(name))
        }
        return contents
    }

    @Test(
        "describe -o the input is refused, whatever names it: the same name, ./name, a link, standard input")
    func describeSparesItsInput() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("data.json", Self.records)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("link.json"), withDestinationPath: "data.json")
        let before = try Self.contents(scratch)
        for (arguments, stdin) in [
            (["describe", "data.json", "-o", "data.json"], nil),
            (["describe", "data.json", "-o", "./data.json"], nil),
            (["describe", "data.json", "-o", "link.json", "--force"], nil),
            (["describe", "-", "--input-format", "json", "-o", "data.json", "--force"], "data.json"),
        ] as [([String], String?)] {
            let outcome = try Self.run(arguments, in: scratch, stdin: stdin)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(
                outcome.stderr.contains("is the input file: writing it would destroy the input"),
                "\(arguments): \(outcome.stderr)")
            #expect(try Self.contents(scratch) == before, "\(arguments) changed the folder")
        }
    }

    @Test("describe -o replaces an existing file only with --force")
    func describeKeepsAnEditedSpec() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("data.json", Self.records)
        let edited = "# edited by hand\ncolumns:\n  - name: phone\n    format: \"[000]\"\n"
        _ = try scratch.write("spec.yaml", edited)
        let refused = try Self.run(["describe", "data.json", "-o", "spec.yaml"], in: scratch)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("-o spec.yaml exists: describe replaces a file only with --force"))
        #expect(try String(contentsOfFile: scratch.path("spec.yaml"), encoding: .utf8) == edited)

        let forced = try Self.run(["describe", "data.json", "-o", "spec.yaml", "--force"], in: scratch)
        #expect(forced.status == 0, "\(forced.stderr)")
        let proposed = try String(contentsOfFile: scratch.path("spec.yaml"), encoding: .utf8)
        #expect(proposed.contains(#"name: "phone""#) && !proposed.contains("edited by hand"))

        let fresh = try Self.run(["describe", "data.json", "-o", "new.yaml"], in: scratch)
        #expect(fresh.status == 0, "\(fresh.stderr)")
    }

    @Test("run and check refuse to write over the file standard input reads")
    func standardInputIsProtected() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", ExitStatusTests.spec)
        _ = try scratch.write("data.csv", ExitStatusTests.goodCSV)
        let before = try Self.contents(scratch)
        for arguments in [
            ["run", "spec.json", "-", "--input-format", "csv", "-o", "data.csv"],
            ["check", "spec.json", "-", "--input-format", "csv", "--report", "data.csv"],
        ] {
            let outcome = try Self.run(arguments, in: scratch, stdin: "data.csv")
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("is the input file"), "\(outcome.stderr)")
            #expect(try Self.contents(scratch) == before)
        }
    }

    @Test("merge refuses to write over a partial report it reads from standard input")
    func mergeSparesAPartialOnStandardInput() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", ExitStatusTests.spec)
        _ = try scratch.write("data.csv", ExitStatusTests.goodCSV)
        let made = try Self.run(
            ["check", "spec.json", "data.csv", "--report", "part.json", "--quiet"], in: scratch)
        #expect(made.status == 0, "\(made.stderr)")
        let before = try Self.contents(scratch)
        let outcome = try Self.run(
            ["merge", "spec.json", "-", "--report", "part.json"], in: scratch, stdin: "part.json")
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("is the partial report file"), "\(outcome.stderr)")
        #expect(try Self.contents(scratch) == before)
    }

    @Test("the step summary is not appended to the input or the spec")
    func stepSummarySparesTheInput() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", ExitStatusTests.spec)
        _ = try scratch.write("data.csv", ExitStatusTests.goodCSV)
        let before = try Self.contents(scratch)
        for target in ["data.csv", "spec.json"] {
            let outcome = try Maskclean.run(
                ["check", "spec.json", "data.csv", "--quiet"], in: scratch.url,
                environment: ["GITHUB_STEP_SUMMARY": scratch.path(target)])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("warning: GITHUB_STEP_SUMMARY"), "\(outcome.stderr)")
            #expect(try Self.contents(scratch) == before)
        }
    }
}
