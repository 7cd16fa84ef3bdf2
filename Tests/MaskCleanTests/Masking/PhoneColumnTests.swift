import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Phone columns (`kind: phone`) through the pipeline: the readers hand over each record's
/// region cell, the added columns come in order, and `replace` and the counts work as they do
/// for columns of formats. These hold whatever the numbering plan decides; the tests of what it
/// decides for real numbers are `PhoneColumnEngineTests`.
@Suite("Phone columns: the data path")
struct PhoneColumnTests {
    static let spec = #"{"columns":[{"name":"tel","kind":"phone","regionColumn":"cc"}]}"#

    func run(
        _ input: String, name: String, spec: String = Self.spec, outputFormat: RecordFormat? = nil
    ) throws -> (out: String, outcome: RunOutcome) {
        let folder = try TemporaryFolder()
        try folder.write(name, input)
        let outcome = try runPipeline(
            spec: spec, input: name, in: folder, output: "out", chunkSize: 64, outputFormat: outputFormat)
        return ((try? folder.text("out")) ?? "", outcome)
    }

    static let csv = """
        id,cc,tel,note
        1,GB,020 7946 0958,a
        2,us,(613) 563-4223,b
        3,,+33 1 42 68 53 00,c
        4,FR,,d

        """

    @Test("CSV: the region column, not a spec column, stays as it was; four added columns, in order")
    func csvColumns() throws {
        let (out, outcome) = try run(Self.csv, name: "in.csv")
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines[0] == "id,cc,tel,note,tel_formatted,tel_extracted,tel_status,tel_country")
        #expect(lines.count == 5)
        // The input's own cells are copied as read.
        #expect(lines[1].hasPrefix("1,GB,020 7946 0958,a,"))
        #expect(lines[2].hasPrefix("2,us,(613) 563-4223,b,"))
        #expect(lines[4] == "4,FR,,d,,,empty,")
        let stats = report.columns[0].stats
        #expect(stats.cells == 4 && stats.empty == 1)
        #expect(stats.formatCounts == [3])
        #expect(report.columns[0].spec.formats == ["phone"])
    }

    @Test("CSV to JSON and JSON to CSV: the same added keys, in order")
    func otherFormats() throws {
        let (json, outcome) = try run(Self.csv, name: "in.csv", outputFormat: .ndjson)
        #expect(outcome.report != nil, "\(outcome.error?.message ?? "")")
        let first = try #require(json.split(separator: "\n").first)
        #expect(
            first.hasPrefix(#"{"id":"1","cc":"GB","tel":"020 7946 0958","note":"a","tel_formatted":"#))
        #expect(first.contains(#""tel_status":"#) && first.contains(#""tel_country":"#))
        let ndjson = """
            {"id":1,"tel":"020 7946 0958","cc":"GB"}
            {"id":2,"tel":"+1 613-563-4223"}

            """
        let (csv, fromJSON) = try run(ndjson, name: "in.ndjson", outputFormat: .csv)
        #expect(fromJSON.report != nil, "\(fromJSON.error?.message ?? "")")
        #expect(csv.hasPrefix("id,tel,cc,tel_formatted,tel_extracted,tel_status,tel_country\n"))
    }

    @Test("NDJSON: a record without the region key, or with null, has an empty region and is not rejected")
    func ndjsonMissingRegion() throws {
        let ndjson = """
            {"id":1,"tel":"020 7946 0958","cc":"GB"}
            {"id":2,"tel":"+1 613-563-4223"}
            {"id":3,"cc":null,"tel":"+33 1 42 68 53 00"}
            {"id":4,"cc":"fr"}

            """
        let (out, outcome) = try run(ndjson, name: "in.ndjson")
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        #expect(report.rejectedCount == 0 && report.rows == 4)
        #expect(report.columns[0].stats.empty == 1)
        let lines = out.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix(#"{"id":2,"tel":"+1 613-563-4223","tel_formatted":"#))
        #expect(
            lines[3]
                == #"{"id":4,"cc":"fr","tel_formatted":"","tel_extracted":"","tel_status":"empty","tel_country":""}"#
        )
    }

    @Test("NDJSON: a region key that holds an object is the record's problem, as a masked key's is")
    func ndjsonRegionObject() throws {
        let ndjson = #"{"id":1,"tel":"020 7946 0958","cc":{"code":"GB"}}"# + "\n"
        let (_, outcome) = try run(ndjson, name: "in.ndjson")
        #expect(outcome.error?.message.contains(#"key "cc" holds an object"#) == true, "\(outcome)")
    }

    @Test("a region column missing from the CSV header, the records or every JSON record is a spec error")
    func missingRegionColumn() throws {
        let spec = #"{"columns":[{"name":"tel","kind":"phone","regionColumn":"country"}]}"#
        let (_, csv) = try run(Self.csv, name: "in.csv", spec: spec)
        #expect(
            csv.error?.message.hasPrefix(
                #"spec.json: columns[0] "tel": regionColumn: no column "country" in "#) == true
                && csv.error?.message.hasSuffix(#"in.csv (its columns: "id", "cc", "tel", "note")"#)
                    == true,
            "\(csv.error?.message ?? "ran")")
        #expect(csv.error?.status == .config)
        let ndjson = #"{"id":1,"tel":"020 7946 0958","cc":"GB"}"# + "\n"
        let (_, json) = try run(ndjson, name: "in.ndjson", spec: spec)
        #expect(
            json.error?.message.contains(
                #"columns[0] "tel": regionColumn: no record of "#) == true, "\(json.error?.message ?? "ran")")
        #expect(
            json.error?.message.contains(#"has the key "country" (keys seen: "id", "tel", "cc")"#) == true)
        #expect(throws: MaskCleanError.self) {
            _ = try RecordCleaner(spec: loadSpec(spec), columns: ["id", "tel", "cc"])
        }
    }

    @Test("a region column that is itself a spec column is read once, for both")
    func regionIsSpecColumn() throws {
        let spec =
            #"{"columns":[{"name":"cc","format":"[AA]","case":"upper"},{"name":"tel","kind":"phone","regionColumn":"cc"}]}"#
        let (out, outcome) = try run(Self.csv, name: "in.csv", spec: spec)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        #expect(report.columns[0].stats.complete == 3)
        let header = try #require(out.split(separator: "\n").first)
        #expect(
            header
                == "id,cc,tel,note,cc_formatted,cc_extracted,cc_status,tel_formatted,tel_extracted,tel_status,tel_country"
        )
    }

    @Test(
        "replace: the input takes the extracted (or formatted) cell of a complete number; the counts are the same"
    )
    func replace() throws {
        let (plain, plainOutcome) = try run(Self.csv, name: "in.csv")
        let replacing =
            #"{"columns":[{"name":"tel","kind":"phone","regionColumn":"cc","replace":"extracted"}]}"#
        let (replaced, replacedOutcome) = try run(Self.csv, name: "in.csv", spec: replacing)
        let plainReport = try #require(plainOutcome.report)
        let replacedReport = try #require(replacedOutcome.report, "\(replacedOutcome.error?.message ?? "")")
        #expect(plainReport.columns[0].stats == replacedReport.columns[0].stats)
        let plainRows = Self.rows(plain)
        let replacedRows = Self.rows(replaced)
        #expect(plainRows.count == replacedRows.count)
        for (before, after) in zip(plainRows.dropFirst(), replacedRows.dropFirst()) {
            // id, cc, tel, note, formatted, extracted, status, country
            #expect(Array(after[4...]) == Array(before[4...]))
            let replacedBy = before[6] == "complete" ? before[5] : before[2]
            #expect(after[2] == replacedBy, "\(after)")
        }
        let formatted = replacing.replacingOccurrences(of: "extracted", with: "formatted")
        let (byFormatted, _) = try run(Self.csv, name: "in.csv", spec: formatted)
        for (before, after) in zip(plainRows.dropFirst(), Self.rows(byFormatted).dropFirst()) {
            #expect(after[2] == (before[6] == "complete" ? before[4] : before[2]), "\(after)")
        }
    }

    /// A CSV output's records, for outputs whose cells need no quotes.
    static func rows(_ csv: String) -> [[String]] {
        csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test("RecordCleaner: a phone column with its region column among the records'")
    func recordCleaner() throws {
        let spec = try loadSpec(Self.spec)
        var cleaner = try RecordCleaner(spec: spec, columns: ["tel", "cc"])
        #expect(
            cleaner.columns == ["tel", "cc", "tel_formatted", "tel_extracted", "tel_status", "tel_country"])
        let cleaned = try cleaner.clean([["020 7946 0958", "GB"], ["", "FR"]])
        #expect(cleaned.count == 2 && cleaned[0].count == 6)
        #expect(cleaned[1] == ["", "FR", "", "", "empty", ""])
        #expect(cleaner.report.columns[0].stats.cells == 2)
    }

    @Test("maskAnyColumn reads a phone cell as a record's are read, and counts it")
    func maskAnyColumn() throws {
        let spec = try loadSpec(#"{"columns":[{"name":"tel","kind":"phone","defaultRegion":"GB"}]}"#)
        let masker = CellMasker(columns: spec.columns)
        let complete = withBytes("+44 20 7946 0958") { masker.maskAnyColumn($0, column: 0, row: 1).status }
        let empty = withBytes("") { masker.maskAnyColumn($0, column: 0, row: 2).status }
        #expect(complete == .complete)
        #expect(empty == .empty)
        #expect(masker.stats[0].cells == 2)
    }
}
