import Foundation
import TestSupport
import Testing

/// Issue 26: `apply` takes a column's check, case, ignored and significant characters as flags
/// (`--check`, `--date-order`, `--luhn-prefix`, `--case`, `--ignore`, `--significant`), so that a
/// format and its rules can be tried before they go into a spec, and must show what `run` writes.
@Suite("apply with checks, case, ignore and significant")
struct ApplyCheckTests {
    /// A column tried both ways: as `apply` flags and as the spec column with the same keys.
    struct Column: CustomStringConvertible {
        var format: String
        var affineFormats: [String] = []
        var flags: [String]
        var keys: [String: String]
        var values: [String]
        /// The statuses a run gives the values: so that the two agreeing is not two wrong answers.
        var statuses: [String]
        var description: String { "\(format) \(flags)" }
    }

    static let columns = [
        Column(
            format: "[09]/[09]/[0000]", flags: ["--check", "date", "--date-order", "DMY"],
            keys: ["check": "date", "dateOrder": "DMY"],
            values: ["04/07/2024", "31/02/2024", "7/4/2024", "29/02/2023", "29/02/2024"],
            statuses: ["complete", "invalid", "complete", "invalid", "complete"]),
        Column(
            format: "[00]/[00]/[0000]", flags: ["--check", "date", "--date-order", "MDY"],
            keys: ["check": "date", "dateOrder": "MDY"],
            values: ["07/04/2024", "13/01/2024", "12/31/1999", "07/04"],
            statuses: ["complete", "invalid", "complete", "incomplete"]),
        // A value the chosen format reads as an impossible date takes the format that reads it
        // as a real one: 99/12/31 is 1999-12-31, not the 31st day of month 99.
        Column(
            format: "[09]/[09]/[0099]", affineFormats: ["[0099]/[09]/[09]", "[00000000]"],
            flags: ["--check", "date", "--date-order", "MDY"], keys: ["check": "date", "dateOrder": "MDY"],
            values: ["99/12/31", "12/31/99", "19480713", "99/13/31", "19481307"],
            statuses: ["complete", "complete", "complete", "invalid", "invalid"]),
        Column(
            format: "[0000]-[00]-[00]", flags: ["--check", "date"], keys: ["check": "date"],
            values: ["2024-02-29", "2023-02-29", "2024-13-01", ""],
            statuses: ["complete", "invalid", "invalid", "empty"]),
        Column(
            format: "[0000] [0000] [0000] [0000]", flags: ["--check", "luhn"], keys: ["check": "luhn"],
            values: ["4111111111111111", "4111-1111-1111-1112", "5500 0000 0000 0004", "4111 1111"],
            statuses: ["complete", "invalid", "complete", "incomplete"]),
        Column(
            format: "[0000000000]", flags: ["--check", "luhn", "--luhn-prefix", "80840"],
            keys: ["check": "luhn", "luhnPrefix": "80840"],
            values: ["1234567893", "1234567890"], statuses: ["complete", "invalid"]),
        Column(
            format: "[AA][00] [____] [____] [____] [____] [__]",
            flags: ["--check", "iban", "--case", "upper"], keys: ["check": "iban", "case": "upper"],
            values: ["gb82 west 1234 5698 7654 32", "de89370400440532013000", "gb82west12345698765433"],
            statuses: ["complete", "complete", "invalid"]),
        Column(
            format: "[000]-[0]-[000]-[00000]-[0]", flags: ["--check", "isbn"], keys: ["check": "isbn"],
            values: ["978-0-306-40615-7", "9780306406158"], statuses: ["complete", "invalid"]),
        Column(
            format: "+1 ([000]) [000]-[0000]", flags: ["--ignore", " -()."], keys: ["ignore": " -()."],
            values: ["(555) 123-4567", "555.123.4567", "555-12"],
            statuses: ["complete", "complete", "incomplete"]),
        Column(
            format: "[0999999]", flags: ["--significant=-."], keys: ["significant": "-."],
            values: ["320", "3.20", "-320"], statuses: ["complete", "lossy", "lossy"]),
        Column(
            format: "[0999999].[00]", flags: ["--significant=-.", "--case", "lower"],
            keys: ["significant": "-.", "case": "lower"],
            values: ["3.20", "-3.20"], statuses: ["complete", "lossy"]),
    ]

    /// The cells of each value as `run` writes them, read back from NDJSON.
    static func runCells(_ column: Column) throws -> [[String: String]] {
        let scratch = try TemporaryFolder()
        var spec: [String: Any] = ["name": "v", "format": column.format]
        for (key, value) in column.keys { spec[key] = value }
        if !column.affineFormats.isEmpty { spec["affineFormats"] = column.affineFormats }
        let specText = String(
            decoding: try JSONSerialization.data(withJSONObject: ["columns": [spec]]), as: UTF8.self)
        _ = try scratch.write("spec.json", specText)
        let csv = "v\n" + column.values.map { "\"\($0)\"\n" }.joined()
        _ = try scratch.write("in.csv", csv)
        let run = try Maskclean.run(
            ["run", "spec.json", "in.csv", "-o", "out.ndjson", "--output-format", "ndjson", "--quiet"],
            in: scratch.url)
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        return try scratch.text("out.ndjson").split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            var cells: [String: String] = [:]
            for name in ["formatted", "extracted", "status", "normalized"] {
                cells[name] = object["v_\(name)"] as? String
            }
            return cells
        }
    }

    /// The same cells as `apply --json` shows them.
    static func applyCells(_ column: Column) throws -> [[String: String]] {
        let apply = try Maskclean.run(
            ["apply", column.format, "--json"] + column.flags
                + column.affineFormats.flatMap { ["--affine", $0] }
                + ["--"] + column.values)
        #expect(apply.status == 0, "\(apply.stderr)")
        return try apply.stdoutText.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            var cells: [String: String] = [:]
            for name in ["formatted", "extracted", "status", "normalized"] {
                cells[name] = object[name] as? String
            }
            return cells
        }
    }

    @Test("apply shows what a run with the same spec column writes", arguments: columns)
    func sameAsRun(_ column: Column) throws {
        let run = try Self.runCells(column)
        let apply = try Self.applyCells(column)
        #expect(run.map { $0["status"] ?? "" } == column.statuses)
        #expect(apply.count == column.values.count)
        for (index, value) in column.values.enumerated() where index < apply.count && index < run.count {
            #expect(apply[index] == run[index], "\(value)")
        }
    }

    @Test("a check with a canonical form adds the normalized column, filled for complete values only")
    func normalizedColumn() throws {
        let dates = try Maskclean.run(
            [
                "apply", "[00]/[00]/[0000]", "--check", "date", "--date-order", "MDY", "07/04/2024",
                "02/30/2024",
            ])
        let lines = dates.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("dropped  normalized") == true, "\(dates.stdoutText)")
        #expect(lines.dropFirst().first?.hasSuffix("2024-07-04") == true, "\(dates.stdoutText)")
        // An invalid date has no canonical form: its row ends with the format's placeholder.
        #expect(lines.last?.contains("invalid") == true && lines.last?.hasSuffix("00/00/0000") == true)
        let iban = try Maskclean.run(
            [
                "apply", "[AA][00] [____] [____] [____] [____] [__]", "--check", "iban", "--json",
                "gb82 west 1234 5698 7654 32",
            ])
        #expect(iban.stdoutText.contains(#""normalized": "GB82WEST12345698765432""#), "\(iban.stdoutText)")
        // Luhn has no canonical form: no column, as a run writes none.
        let cards = try Maskclean.run([
            "apply", "[0000] [0000] [0000] [0000]", "--check", "luhn", "4111111111111111",
        ])
        #expect(!cards.stdoutText.contains("normalized"), "\(cards.stdoutText)")
        #expect(cards.stdoutText.contains("complete"))
    }

    @Test("a template shows the formatted value in the column's case, after the ignored characters are out")
    func template() throws {
        let outcome = try Maskclean.run(
            [
                "apply", "[AA]-[000]", "--case", "upper", "--ignore", " ", "--placeholder", "_", "--json",
                "ab 1",
            ])
        #expect(outcome.stdoutText.contains(#""template": "AB-1__""#), "\(outcome.stdoutText)")
    }

    @Test(
        "a rule flag without its check, or a format the check cannot read, is a usage error naming the flag",
        arguments: [
            (["[0000]-[00]-[00]", "--date-order", "DMY", "2024-01-01"], "--date-order"),
            (["[00]/[00]/[0000]", "--check", "luhn", "--date-order", "MDY", "07/04/2024"], "--date-order"),
            (["[0000]", "--check", "iban", "--luhn-prefix", "80840", "1234"], "--luhn-prefix"),
            (["[0000]", "--check", "luhn", "--luhn-prefix", "80a", "1234"], "--luhn-prefix"),
            (["[000]", "--check", "date", "123"], "--check date"),
            (["[00]/[00]/[0000]", "--check", "date", "01/02/2024"], "--check date"),
            (["[0000]-[00]-[00]", "--affine", "[00].[00]", "--check", "date", "2024-01-01"], "--affine"),
            (["[000]", "--ignore=-", "--significant=-.", "123"], "--significant"),
            (["[000]", "--check", "crc", "123"], "--check"),
            (["[000]", "--case", "title", "123"], "--case"),
        ])
    func usageErrors(_ arguments: [String], flag: String) throws {
        let outcome = try Maskclean.run(["apply"] + arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }
}
