import Foundation
import TestSupport
import Testing

/// `--escape-formulas` where it failed under attack: each test reproduces what main wrote.
@Suite("Hostile probes: spreadsheet formulas")
struct FormulaProbeTests {
    /// Regression: with `'` as the delimiter the prefix went unquoted and the record broke (8
    /// fields for 6).
    @Test("with ' as the delimiter, a prefixed cell is quoted and the record keeps its fields")
    func apostropheDelimiter() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", OutputSafetyProbeTests.spec)
        _ = try scratch.write("in.csv", "id'phone'note\n1'+15551234567'=SUM(A1)\n2'5551234567'ok\n")
        let outcome = try Maskclean.run(
            ["run", "spec.json", "in.csv", "--delimiter", "'", "--escape-formulas", "--quiet"],
            in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdoutText
                == """
                id'phone'note'phone_formatted'phone_extracted'phone_status
                1'"'+15551234567"'"'=SUM(A1)"'"'+1 (555) 123-4567"'5551234567'complete
                2'5551234567'ok'"'+1 (555) 123-4567"'5551234567'complete

                """)
        // maskclean reads its own output back: two records, each with the header's six fields.
        _ = try scratch.write("out.csv", outcome.stdoutText)
        _ = try scratch.write(
            "again.json",
            #"{"columns":[{"name":"phone","format":"[0]","formattedColumn":"f","extractedColumn":"e","statusColumn":"s"}]}"#
        )
        let again = try Maskclean.run(
            [
                "check", "again.json", "out.csv", "--delimiter", "'", "--on-error", "skip", "--report",
                "r.json",
            ],
            in: scratch.url)
        #expect(again.stderr.contains("2 rows"), "\(again.stderr)")
        #expect(!again.stderr.contains("rejected"), "\(again.stderr)")
    }

    /// Regression: `\u003d`, `\u002B`, `\u0040` and `\u002d` decode to a formula's first character
    /// but were written unchanged, in top-level and in nested strings.
    @Test("escaped triggers in JSON strings are caught, nested ones too, keys left alone")
    func escapedTriggersInJSON() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", OutputSafetyProbeTests.spec)
        _ = try scratch.write(
            "in.ndjson",
            #"{"id":"\u003dHYPERLINK(\"http://x\")","phone":"\u002B15551234567","tags":["\u0040cmd","plain"],"meta":{"\u002dkey":"\u002d1","ok":"\t"}}"#
                + "\n")
        let outcome = try Maskclean.run(
            ["run", "spec.json", "in.ndjson", "--escape-formulas", "--quiet"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdoutText
                == #"{"id":"'\u003dHYPERLINK(\"http://x\")","phone":"'\u002B15551234567","tags":["'\u0040cmd","plain"],"meta":{"\u002dkey":"'\u002d1","ok":"'\t"},"phone_formatted":"'+1 (555) 123-4567","phone_extracted":"5551234567","phone_status":"complete"}"#
                + "\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(outcome.stdoutText.utf8)) as? [String: Any]
        for value in [parsed?["id"], parsed?["phone"], (parsed?["tags"] as? [Any])?.first] {
            #expect((value as? String)?.first == "'", "\(String(describing: value))")
        }
    }
}
