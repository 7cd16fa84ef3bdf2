import Foundation
import MaskClean
import TestSupport
import Testing

/// `RecordCleaner`: another Swift program masks records in memory through the library's public
/// API alone (no `@testable`), and gets the cells and the report a run gives for the same records.
@Suite("Masking records in memory with the public API")
struct RecordCleanerTests {
    static let spec = #"""
        {"columns": [
          {"name": "phone", "format": "+1 ([000]) [000]-[0000]"},
          {"name": "zip", "format": "[00000]-[9999]", "replace": "formatted"}
        ]}
        """#

    static let records = [
        ["1", "Ann", "(555) 123-4567", "02134"],
        ["2", "Bob, \"Jr.\"", "555-12", "021341234"],
        ["3", "Zoë", "", "x"],
        ["4", "=cmd", "5551234567", ""],
    ]

    @Test("the cells and the report are a run's for the same records, written as CSV")
    func sameAsARun() throws {
        let spec = try SpecLoader.parse(Array(Self.spec.utf8), file: "spec.json")
        var cleaner = try RecordCleaner(spec: spec, columns: ["id", "name", "phone", "zip"])
        let cleaned = try cleaner.clean(Array(Self.records[..<2])) + cleaner.clean(Array(Self.records[2...]))
        #expect(
            cleaner.columns == [
                "id", "name", "phone", "zip", "phone_formatted", "phone_extracted", "phone_status",
                "zip_formatted", "zip_extracted", "zip_status",
            ])
        #expect(
            cleaned[0] == [
                "1", "Ann", "(555) 123-4567", "02134-", "+1 (555) 123-4567", "5551234567", "complete",
                "02134-",
                "02134", "complete",
            ])
        #expect(cleaned[1][1] == "Bob, \"Jr.\"", "a cell is text, nothing quoted")
        #expect(cleaned[1][3] == "02134-1234", "replace writes the formatted value into its column")

        // The same records through `maskclean run`, as CSV: the same cells, the same counts.
        let folder = try TemporaryFolder()
        var csv = "id,name,phone,zip\n"
        for record in Self.records {
            csv +=
                record.map {
                    $0.contains(",") || $0.contains("\"")
                        ? "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : $0
                }
                .joined(separator: ",") + "\n"
        }
        let input = try folder.write("in.csv", csv)
        let specPath = try folder.write("spec.json", Self.spec)
        let run = try Maskclean.run(
            [
                "run", specPath, input, "-o", folder.path("out.csv"), "--report", folder.path("report.json"),
                "--samples", "raw", "--quiet",
            ],
            in: folder.url)
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let written = try Self.rows(folder.text("out.csv"))
        #expect(written.first == cleaner.columns)
        #expect(Array(written.dropFirst()) == cleaned)
        let report = try ReportReader.load(path: folder.path("report.json"), spec: spec)
        #expect(report.rows == cleaner.report.rows)
        for (ran, cleanedColumn) in zip(report.columns, cleaner.report.columns) {
            #expect(ran.stats == cleanedColumn.stats)
        }
        #expect(cleaner.report.passed == report.passed)
    }

    /// The rows of CSV text whose records lie on one line each: quoted fields with doubled
    /// quotes, as the test's records need.
    static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { line in
            var cells: [String] = []
            var cell = ""
            var quoted = false
            var characters = Array(line)[...]
            while let character = characters.popFirst() {
                if quoted && character == "\"" && characters.first == "\"" {
                    cell.append(characters.removeFirst())
                } else if character == "\"" {
                    quoted.toggle()
                } else if character == "," && !quoted {
                    cells.append(cell)
                    cell = ""
                } else {
                    cell.append(character)
                }
            }
            cells.append(cell)
            return cells
        }
    }

    @Test("the example in RecordCleaner's documentation does what it says")
    func documentedExample() throws {
        let spec = try SpecLoader.parse(
            Array(#"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]"}]}"#.utf8),
            file: "spec.json")
        var cleaner = try RecordCleaner(spec: spec, columns: ["id", "phone"])
        let cleaned = try cleaner.clean([["1", "(555) 123-4567"], ["2", "555-12"]])
        #expect(cleaner.columns == ["id", "phone", "phone_formatted", "phone_extracted", "phone_status"])
        #expect(cleaned[0] == ["1", "(555) 123-4567", "+1 (555) 123-4567", "5551234567", "complete"])
        #expect(cleaned[1] == ["2", "555-12", "+1 (555) 12", "55512", "incomplete"])
        #expect(cleaner.report.columns[0].stats.complete == 1 && cleaner.report.passed)
    }

    @Test("a masked column the records lack, or a record of another length, is an error naming it")
    func errors() throws {
        let spec = try SpecLoader.parse(Array(Self.spec.utf8), file: "spec.json")
        #expect {
            try RecordCleaner(spec: spec, columns: ["id", "phone"])
        } throws: { error in
            (error as? MaskCleanError)?.message.contains("no column \"zip\" in the records") == true
        }
        var cleaner = try RecordCleaner(spec: spec, columns: ["id", "name", "phone", "zip"])
        _ = try cleaner.clean([Self.records[0]])
        #expect {
            try cleaner.clean([Self.records[1], ["3", "Zoë"]])
        } throws: { error in
            (error as? MaskCleanError)?.message.hasPrefix("records:3:") == true
        }
        #expect(cleaner.report.rows == 1, "nothing of a failed call is counted")
    }
}
