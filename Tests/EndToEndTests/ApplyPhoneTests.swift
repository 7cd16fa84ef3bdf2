import Foundation
import TestSupport
import Testing

/// Issue 27: `apply --kind phone` reads values as a phone column reads its cells, so that a
/// column's numbers can be tried before they go into a spec, and must show what `run` writes.
@Suite("apply --kind phone")
struct ApplyPhoneTests {
    static let values = [
        "020 7946 0958", "+1 613-563-4223", "+44 20 7946 0958 x123", "020 7946", "07700 900982", "", "n/a",
    ]

    /// The cells `apply --json` shows, by key.
    static func applyCells(_ flags: [String], _ values: [String]) throws -> [[String: String]] {
        let apply = try Maskclean.run(["apply", "--kind", "phone", "--json"] + flags + ["--"] + values)
        #expect(apply.status == 0, "\(apply.stderr)")
        return try apply.stdoutText.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            var cells: [String: String] = [:]
            for name in ["formatted", "extracted", "status", "country"] {
                cells[name] = object[name] as? String
            }
            return cells
        }
    }

    /// The cells `run` writes for the values with the spec column `keys`, read back from NDJSON.
    static func runCells(_ keys: String, _ values: [String]) throws -> [[String: String]] {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", #"{"columns":[{"name":"v","kind":"phone"\#(keys)}]}"#)
        _ = try scratch.write("in.csv", "v\n" + values.map { "\"\($0)\"\n" }.joined())
        let run = try Maskclean.run(
            ["run", "spec.json", "in.csv", "-o", "out.ndjson", "--output-format", "ndjson", "--quiet"],
            in: scratch.url)
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        return try scratch.text("out.ndjson").split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            var cells: [String: String] = [:]
            for name in ["formatted", "extracted", "status", "country"] {
                cells[name] = object["v_\(name)"] as? String
            }
            return cells
        }
    }

    @Test(
        "apply shows what a run with the same phone column writes",
        arguments: [
            ([String](), ""), (["--default-region", "GB"], #","defaultRegion":"GB""#),
            (
                ["--default-region", "gb", "--phone-format", "national"],
                #","defaultRegion":"gb","phoneFormat":"national""#
            ),
            (["--phone-format", "e164"], #","phoneFormat":"e164""#),
        ])
    func sameAsRun(flags: [String], keys: String) throws {
        let apply = try Self.applyCells(flags, Self.values)
        let run = try Self.runCells(keys, Self.values)
        #expect(apply.count == Self.values.count)
        #expect(apply == run)
    }

    @Test("the table's columns, and --json's keys")
    func columns() throws {
        let table = try Maskclean.run(["apply", "--kind", "phone", "--default-region", "GB", "020 7946 0958"])
        #expect(table.status == 0, "\(table.stderr)")
        let header = table.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            header.split(separator: " ").map(String.init) == [
                "value", "formatted", "extracted", "status", "country", "dropped",
            ])
        let json = try Maskclean.run(["apply", "--kind", "phone", "--json", "020 7946 0958"])
        #expect(json.stdoutText.hasPrefix(#"{"value": "020 7946 0958", "formatted": "#), "\(json.stdoutText)")
        #expect(json.stdoutText.contains(#", "dropped": 0}"#), "\(json.stdoutText)")
        // Values from standard input, a row each as they come.
        let streamed = try Maskclean.run(
            ["apply", "--kind", "phone", "--default-region", "GB"], stdin: Data("020 7946 0958\n\n".utf8))
        #expect(
            streamed.status == 0 && streamed.stdoutText.split(separator: "\n").count == 3,
            "\(streamed.stdoutText)")
    }

    @Test(
        "a flag a phone column has no use for, or a phone flag without --kind phone, is a usage error naming it",
        arguments: [
            (["--kind", "phone", "--affine", "[0]", "1"], "--affine"),
            (["--kind", "phone", "--strategy", "prefix", "1"], "--strategy"),
            (["--kind", "phone", "--check", "luhn", "1"], "--check"),
            (["--kind", "phone", "--case", "upper", "1"], "--case"),
            (["--kind", "phone", "--ignore", " ", "1"], "--ignore"),
            (["--kind", "phone", "--significant", "-", "1"], "--significant"),
            (["--kind", "phone", "--placeholder", "_", "1"], "--placeholder"),
            (["--kind", "phone", "--syntax", "akmask", "1"], "--syntax"),
            (["--kind", "phone", "--rtl", "1"], "--rtl"),
            (["--kind", "phone", "--default-region", "GBR", "1"], "--default-region: unknown region 'GBR'"),
            (["--kind", "phone", "--phone-format", "E164", "1"], "--phone-format"),
            (["--kind", "fone", "1"], "--kind"),
            (["[000]", "--default-region", "GB", "1"], "--default-region goes with --kind phone"),
            (["[000]", "--phone-format", "national", "1"], "--phone-format goes with --kind phone"),
            ([String](), "<format>"),
        ])
    func usageErrors(_ arguments: [String], flag: String) throws {
        let outcome = try Maskclean.run(["apply"] + arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }
}

/// `apply --kind phone` with real numbers: the numbering plan's answers, as libphonenumber's
/// Python port gives them (` ext. N`, or the country's own: ` x` for the UK). These need the numbering plan: with the
/// digits-only placeholder reader they fail.
@Suite("apply --kind phone: real numbers")
struct ApplyPhoneEngineTests {
    @Test("international, national and E.164 forms, the extension and the country")
    func forms() throws {
        let values = ["020 7946 0958", "+1 613-563-4223", "+44 20 7946 0958 x123", "020 7946"]
        let international = try ApplyPhoneTests.applyCells(["--default-region", "GB"], values)
        #expect(
            international == [
                [
                    "formatted": "+44 20 7946 0958", "extracted": "+442079460958", "status": "complete",
                    "country": "GB",
                ],
                [
                    "formatted": "+1 613-563-4223", "extracted": "+16135634223", "status": "complete",
                    "country": "CA",
                ],
                [
                    "formatted": "+44 20 7946 0958 x123", "extracted": "+442079460958",
                    "status": "complete",
                    "country": "GB",
                ],
                [
                    "formatted": international[3]["formatted"] ?? "",
                    "extracted": international[3]["extracted"] ?? "",
                    "status": "incomplete", "country": international[3]["country"] ?? "",
                ],
            ])
        let national = try ApplyPhoneTests.applyCells(
            ["--default-region", "GB", "--phone-format", "national"], values)
        #expect(
            national.prefix(3).map { $0["formatted"] ?? "" } == [
                "020 7946 0958", "(613) 563-4223", "020 7946 0958 x123",
            ])
        // Without a default region, a number written without its country code has no country.
        let none = try ApplyPhoneTests.applyCells([], ["020 7946 0958"])
        #expect(none == [["formatted": "", "extracted": "", "status": "invalid", "country": ""]])
    }
}
