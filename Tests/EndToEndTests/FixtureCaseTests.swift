import Foundation
import TestSupport
import Testing

/// One folder of `Fixtures/cases/` or `Fixtures/bad/` (malformed input): the command to run
/// there, and what it must do.
///
/// `case.json` holds `args` (with `OUT/` standing for a fresh scratch folder), the expected exit
/// `status`, text the `stderr` must contain, and `outputs`: for each file the run writes in
/// `OUT/` (or `-` for stdout), the fixture file it must equal byte for byte. `stdin` names a
/// file to feed, and `env` variables to set (`GITHUB_ACTIONS`; `GITHUB_STEP_SUMMARY` with `OUT/`).
/// After a failing run, `OUT/` must hold the reports the case names and nothing else. `varies`
/// names, for an output, a regular expression for the parts of it that differ from run to run
/// (the time a report was made, how long the run took): it must match in the output as many
/// times as in the expected file, and the rest must be equal byte for byte.
struct FixtureCase: Decodable, CustomTestStringConvertible, Sendable {

    var name = ""
    var args: [String]
    var status: Int32
    var stderr: String?
    var stdin: String?
    var env: [String: String]?
    var outputs: [String: String]?
    var varies: [String: String]?
    /// Why `case.json` could not be read: the case then fails with it.
    var loadError: String?

    enum CodingKeys: String, CodingKey {
        case args, status, stderr, stdin, env, outputs, varies
    }

    var testDescription: String { name }

    /// The demos (`Fixtures/demo`, `Fixtures/dialects`), then every case of `Fixtures/cases` and
    /// `Fixtures/bad`.
    static let all: [FixtureCase] =
        ["demo", "dialects"].compactMap { load($0) }
        + ["cases", "bad"].flatMap { group in
            let root = Maskclean.fixtures.appendingPathComponent(group)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            return names.sorted().compactMap { load("\(group)/\($0)") }
        }

    /// The case in folder `name` of `Fixtures/`, if it has a `case.json`.
    static func load(_ name: String) -> FixtureCase? {
        let file = Maskclean.fixtures.appendingPathComponent(name).appendingPathComponent("case.json")
        guard let data = try? Data(contentsOf: file) else { return nil }
        do {
            var decoded = try JSONDecoder().decode(FixtureCase.self, from: data)
            decoded.name = name
            return decoded
        } catch {
            return FixtureCase(name: name, args: [], status: -1, loadError: "\(error)")
        }
    }

    var directory: URL { Maskclean.fixtures.appendingPathComponent(name) }

    /// Runs the binary as the case says, its `OUT/` paths in `scratch`; `argument` replaces one
    /// of its arguments (an index and the new text) when given.
    func run(writingTo scratch: TemporaryFolder, replacing argument: (index: Int, text: String)? = nil) throws
        -> Maskclean.Outcome
    {
        var arguments = args.map { $0.replacingOccurrences(of: "OUT/", with: scratch.url.path + "/") }
        if let argument { arguments[argument.index] = argument.text }
        let stdin = try self.stdin.map { try Data(contentsOf: directory.appendingPathComponent($0)) }
        let environment = (env ?? [:]).mapValues {
            $0.replacingOccurrences(of: "OUT/", with: scratch.url.path + "/")
        }
        return try Maskclean.run(arguments, in: directory, stdin: stdin, environment: environment)
    }
}

@Suite("Fixture cases, byte for byte")
struct FixtureCaseTests {
    @Test("there are fixture cases to run, the demos among them")
    func casesExist() {
        #expect(FixtureCase.all.count >= 10)
        #expect(FixtureCase.all.contains { $0.name == "demo" })
        #expect(FixtureCase.all.contains { $0.name == "dialects" })
    }

    @Test(arguments: FixtureCase.all)
    func fixture(_ testCase: FixtureCase) throws {
        if let loadError = testCase.loadError {
            Issue.record("case.json: \(loadError)")
            return
        }
        let scratch = try TemporaryFolder()
        let outcome = try testCase.run(writingTo: scratch)
        #expect(outcome.status == testCase.status, "stderr: \(outcome.stderr)")
        if let expected = testCase.stderr {
            #expect(outcome.stderr.contains(expected), "stderr: \(outcome.stderr)")
        }
        for (written, expectedFile) in (testCase.outputs ?? [:]).sorted(by: { $0.key < $1.key }) {
            let expected = try Data(contentsOf: testCase.directory.appendingPathComponent(expectedFile))
            let actual =
                written == "-"
                ? outcome.stdout : try Data(contentsOf: scratch.url.appendingPathComponent(written))
            if let pattern = testCase.varies?[written] {
                let regex = try Regex(pattern)
                let actualText = String(decoding: actual, as: UTF8.self)
                let expectedText = String(decoding: expected, as: UTF8.self)
                let count = actualText.matches(of: regex).count
                #expect(count > 0, "\(written) has no \(pattern)")
                #expect(
                    expectedText.matches(of: regex).count == count,
                    "\(expectedFile) has not \(count) \(pattern)")
                #expect(
                    actualText.replacing(regex, with: "VARIES")
                        == expectedText.replacing(regex, with: "VARIES"),
                    "\(written) differs from \(expectedFile)")
            } else if actual != expected {
                #expect(
                    untimed(actual) == untimed(expected),
                    "\(written) differs from \(expectedFile)")
            }
        }
        if testCase.status != 0 && testCase.status != 1 {
            // A failed run leaves its reports, which say what stopped it, and nothing else: no
            // records, no quarantine, no temporary file (docs/report.md#a-run-that-stopped).
            let reports = Set((testCase.outputs ?? [:]).keys.filter { $0 != "-" })
            #expect(Set(scratch.files) == reports, "a failed run left \(scratch.files)")
        } else {
            #expect(
                !scratch.files.contains { $0.hasSuffix(".tmp") }, "temporary files left: \(scratch.files)")
        }
    }
}
