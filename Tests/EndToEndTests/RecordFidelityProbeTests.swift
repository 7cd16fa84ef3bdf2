import Foundation
import TestSupport
import Testing

/// Values that cannot be written faithfully in the output format make their record bad (65, or
/// skipped or quarantined); before the fix each was written altered, with exit 0.
@Suite("Hostile probes: records written faithfully or not at all")
struct RecordFidelityProbeTests {
    static let spec = OutputSafetyProbeTests.spec

    func run(_ input: String, named name: String, _ arguments: [String]) throws -> (
        Maskclean.Outcome, [String: Any]?
    ) {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        try Data(input.utf8).write(to: scratch.url.appendingPathComponent(name))
        let outcome = try Maskclean.run(
            ["run", "spec.json", name, "--report", "report.json", "--quiet"] + arguments, in: scratch.url)
        let report =
            try? JSONSerialization.jsonObject(
                with: Data(contentsOf: scratch.url.appendingPathComponent("report.json"))) as? [String: Any]
        return (outcome, report)
    }

    func reasons(_ report: [String: Any]?) -> [String] {
        ((report?["rejected"] as? [String: Any])?["samples"] as? [[String: Any]])?.compactMap {
            $0["reason"] as? String
        }
            ?? []
    }

    /// Regression: `{"id":1,"id":2,…}` to CSV lost a value and shifted the rest, exit 0.
    @Test("JSON to CSV: a duplicate key is a bad record; JSON to JSON passes it through")
    func duplicateKeysToCSV() throws {
        let input = "{\"id\":1,\"phone\":\"5551234567\"}\n{\"id\":1,\"id\":2,\"phone\":\"5551234567\"}\n"
        let (toCSV, report) = try run(
            input, named: "in.ndjson", ["--output-format", "csv", "--on-error", "skip"])
        #expect(
            toCSV.stdoutText
                == "id,phone,phone_formatted,phone_extracted,phone_status\n1,5551234567,+1 (555) 123-4567,5551234567,complete\n"
        )
        #expect(reasons(report) == [#"key "id" appears twice; its CSV column can hold one value"#])
        let (strict, _) = try run(input, named: "in.ndjson", ["--output-format", "csv"])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("in.ndjson:2: key \"id\" appears twice"), "\(strict.stderr)")
        let (toJSON, _) = try run(input, named: "in.ndjson", [])
        #expect(toJSON.status == 0)
        #expect(toJSON.stdoutText.contains(#"{"id":1,"id":2,"phone":"5551234567","#))
    }

    /// Regression: `a,a,phone` to JSON wrote records with two "a" keys.
    @Test("CSV to JSON: a header that repeats a name is refused before any output")
    func repeatedHeaderToJSON() throws {
        for header in ["a,a,phone", ",,phone"] {
            let (outcome, _) = try run(
                "\(header)\n1,2,5551234567\n", named: "in.csv", ["--output-format", "ndjson"])
            #expect(outcome.status == 65)
            #expect(outcome.stderr.contains("in.csv:1: the header names column"), "\(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
    }

    /// Regression: `tél` in NFC and in NFD in one record: two spellings of the masked key.
    @Test("a masked key twice under canonically equivalent spellings is a bad record")
    func canonicallyEquivalentKeys() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", #"{"columns":[{"name":"t\#u{E9}l","format":"[000]"}]}"#)
        _ = try scratch.write(
            "in.ndjson", "{\"t\u{E9}l\":\"123\",\"te\u{301}l\":\"456\"}\n{\"te\u{301}l\":\"789\"}\n")
        let outcome = try Maskclean.run(
            ["run", "spec.json", "in.ndjson", "--on-error", "skip", "--quiet"], in: scratch.url)
        #expect(outcome.status == 1, "one rejected record")
        let lines = outcome.stdoutText.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""t\#u{E9}l_extracted":"789""#) == true, "\(outcome.stdoutText)")
    }

    /// Regression: a lone surrogate and invalid UTF-8 became empty CSV cells, and invalid bytes
    /// (overlong, encoded surrogate, Latin-1, truncated) went through to JSON output, exit 0.
    @Test(
        "text that is not UTF-8, or a lone surrogate, makes its record bad in every direction",
        arguments: [
            (
                "{\"id\":\"\\ud800\",\"phone\":\"5551234567\"}",
                #"a lone surrogate escape (\uD800–\uDBFF) in the value of key "id""#
            ),
            (
                "{\"id\":\"\\udc00x\",\"phone\":\"5551234567\"}",
                #"a lone surrogate escape (\uDC00–\uDFFF) in the value of key "id""#
            ),
            (
                "{\"id\":\"\u{C0}\u{80}\",\"phone\":\"5551234567\"}",
                #"invalid UTF-8 in the value of key "id""#
            ),
            (
                "{\"id\":\"ok\",\"phone\":\"\\ud83d\"}",
                #"a lone surrogate escape (\uD800–\uDBFF) in the value of key "phone""#
            ),
        ])
    func notUTF8(record: String, reason: String) throws {
        var bytes = Array(record.utf8)
        // Swift strings are UTF-8: put the raw bad bytes in by hand.
        if let marker = bytes.firstIndex(of: 0xC3), bytes[marker + 1] == 0x80 { bytes[marker] = 0xC0 }
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        try Data(bytes + [0x0A] + Array("{\"id\":\"2\",\"phone\":\"5551234567\"}\n".utf8)).write(
            to: scratch.url.appendingPathComponent("in.ndjson"))
        for format in ["csv", "ndjson"] {
            let outcome = try Maskclean.run(
                [
                    "run", "spec.json", "in.ndjson", "--output-format", format, "--on-error", "skip",
                    "--report", "r.json",
                ],
                in: scratch.url)
            #expect(outcome.status == 1, "\(format): \(outcome.stderr)")
            let report =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: scratch.url.appendingPathComponent("r.json"))) as? [String: Any]
            #expect(reasons(report) == [reason], "\(format)")
            #expect(!outcome.stdoutText.contains("\u{FFFD}"))
            if format == "ndjson" {
                #expect((try? JSONSerialization.jsonObject(with: outcome.stdout)) != nil, "strict JSON")
            }
        }
    }

    /// Regression: a CSV cell that is not UTF-8 went into a JSON string as it was.
    @Test("CSV to JSON: a cell that is not UTF-8 makes its record bad, naming the column")
    func csvCellNotUTF8ToJSON() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        try Data(
            Array("id,phone,city\n1,5551234567,M".utf8) + [0xFC] + Array("nchen\n2,5551234567,Berlin\n".utf8)
        )
        .write(to: scratch.url.appendingPathComponent("in.csv"))
        let outcome = try Maskclean.run(
            ["run", "spec.json", "in.csv", "--output-format", "ndjson"], in: scratch.url)
        #expect(outcome.status == 65)
        #expect(
            outcome.stderr.contains(
                #"in.csv:2: invalid UTF-8 in column "city", which a JSON string cannot hold"#),
            "\(outcome.stderr)")
        #expect(
            outcome.stdout.isEmpty
                || (try? JSONSerialization.jsonObject(with: outcome.stdout, options: .fragmentsAllowed))
                    != nil
        )
    }

    /// Regression: JSON to CSV wrote a raw NUL from `"a\u0000b"`, which maskclean's own CSV reader
    /// then refused. Generated records go JSON → CSV → JSON: every record written comes back with
    /// the same values; the ones CSV cannot carry are rejected on the way out, never altered.
    @Test("generated records survive JSON → CSV → JSON, or are rejected; never altered")
    func roundTrip() throws {
        let pieces = [
            "plain", "comma, inside", "quote \" inside", "line\nbreak", "cr\rreturn", "tab\there", "NUL\u{0}",
            "ünïcödé", "emoji 😀", "=formula", "  padded  ", "", "'apostrophe'", "back\\slash", "\u{202E}rtl",
        ]
        var generator = SystemRandomNumberGenerator()
        var records: [[String: String]] = []
        var lines: [String] = []
        for index in 0..<300 {
            let note = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined(separator: " ")
            let record = ["id": String(index), "phone": "5551234567", "note": note]
            records.append(record)
            let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
        }
        let scratch = try TemporaryFolder()
        _ = try scratch.write(
            "spec.json",
            #"{"columns":[{"name":"phone","format":"+1 ([000]) [000]-[0000]","formattedColumn":null,"extractedColumn":null,"statusColumn":null}]}"#
        )
        _ = try scratch.write("in.ndjson", lines.joined(separator: "\n") + "\n")
        let toCSV = try Maskclean.run(
            [
                "run", "spec.json", "in.ndjson", "-o", "out.csv", "--output-format", "csv", "--on-error",
                "skip", "--quiet",
            ],
            in: scratch.url)
        #expect([0, 1].contains(toCSV.status), "\(toCSV.stderr)")
        let back = try Maskclean.run(
            ["run", "spec.json", "out.csv", "--output-format", "ndjson", "--quiet"], in: scratch.url)
        #expect(back.status == 0, "maskclean reads back what it wrote: \(back.stderr)")
        var returned: [String: [String: String]] = [:]
        for line in back.stdoutText.split(separator: "\n") {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
            returned[object["id"] ?? ""] = object
        }
        for record in records {
            let id = record["id"]!
            if record["note"]!.contains("\u{0}") {
                #expect(returned[id] == nil, "record \(id) with a NUL was rejected")
            } else {
                #expect(returned[id] == record, "record \(id)")
            }
        }
    }
}
