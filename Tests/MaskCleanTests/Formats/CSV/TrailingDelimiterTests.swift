import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// A header line that ends with a delimiter, as exports from some ERP and report tools write
/// every line (docs/record-formats.md#a-trailing-delimiter): read as if neither the header nor
/// the records had it, and written back with it in CSV.
@Suite("CSV with a trailing delimiter")
struct TrailingDelimiterTests {
    static let spec = #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]"}]}"#

    /// Every line ends with a comma, the quoted city too; CRLF line ends.
    static let export =
        "customer_id,phone,city,\r\n" + "C-1001,5551234567,Boston,\r\n"
        + "C-1002,(555) 987-6543,\"Salem, MA\",\r\n"
        + "C-1003,555-000-111,Lowell,\r\n"

    static let expectedCSV =
        "customer_id,phone,city,,phone_formatted,phone_extracted,phone_status\r\n"
        + "C-1001,5551234567,Boston,,+1 (555) 123-4567,5551234567,complete\r\n"
        + "C-1002,(555) 987-6543,\"Salem, MA\",,+1 (555) 987-6543,5559876543,complete\r\n"
        + "C-1003,555-000-111,Lowell,,+1 (555) 000-111,555000111,incomplete\r\n"

    @Test(
        "the header's trailing empty field names no column; CSV out keeps it, however the records are read",
        arguments: [1, 7, 40, 1 << 20], [true, false])
    func csvKeepsIt(chunkSize: Int, splitsPlainLines: Bool) throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("export.csv", Self.export)
        let outcome = try runPipeline(
            spec: Self.spec, input: "export.csv", in: folder, output: "out.csv", chunkSize: chunkSize,
            splitsPlainLines: splitsPlainLines)
        #expect(outcome.report?.rows == 3, "\(outcome.error?.message ?? "")")
        #expect(try folder.text("out.csv") == Self.expectedCSV)
    }

    @Test("written field by field (formula escaping, TSV out) it is kept too")
    func fieldByField() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("export.csv", Self.export)
        let escaped = try runPipeline(
            spec: Self.spec, input: "export.csv", in: folder, output: "out.csv", escapeFormulas: true)
        #expect(escaped.report?.rows == 3, "\(escaped.error?.message ?? "")")
        // A formatted number starting with + is guarded as a formula would be.
        #expect(try folder.text("out.csv") == Self.expectedCSV.replacing(",+1 (", with: ",'+1 ("))
        let tsv = try runPipeline(
            spec: Self.spec, input: "export.csv", in: folder, output: "out.tsv", outputFormat: .tsv)
        #expect(tsv.report?.rows == 3, "\(tsv.error?.message ?? "")")
        #expect(
            try folder.text("out.tsv").split(separator: "\r\n").first
                == "customer_id\tphone\tcity\t\tphone_formatted\tphone_extracted\tphone_status")
        #expect(
            try folder.text("out.tsv").split(separator: "\r\n")[2]
                == "C-1002\t(555) 987-6543\tSalem, MA\t\t+1 (555) 987-6543\t5559876543\tcomplete")
    }

    @Test("JSON out has no key for it", arguments: [RecordFormat.ndjson, .json])
    func jsonDropsIt(format: RecordFormat) throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("export.csv", Self.export)
        let outcome = try runPipeline(
            spec: Self.spec, input: "export.csv", in: folder, output: "out.json", outputFormat: format)
        #expect(outcome.report?.rows == 3, "\(outcome.error?.message ?? "")")
        let text = try folder.text("out.json")
        #expect(!text.contains("\"\":"), "no empty key: \(text)")
        #expect(
            text.contains(
                #"{"customer_id":"C-1002","phone":"(555) 987-6543","city":"Salem, MA","phone_formatted":"+1 (555) 987-6543","phone_extracted":"5559876543","phone_status":"complete"}"#
            ), "\(text)")
    }

    @Test("a record with a value after the last column is bad, with the reason; one without the field too")
    func valueInTheTrailingField() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "export.csv",
            "customer_id,phone,city,\n" + "C-1,5551234567,Boston,\n" + "C-2,5551234567,Salem,MA\n"
                + "C-3,5551234567,Lowell\n" + "C-4,5551234567,\"Lynn\",\"\"\n")
        for splitsPlainLines in [true, false] {
            let failed = try runPipeline(
                spec: Self.spec, input: "export.csv", in: folder, output: "out.csv",
                splitsPlainLines: splitsPlainLines)
            #expect(
                failed.error?.message
                    == "\(folder.path("export.csv")):3: a value after the last column: the header ends with a delimiter, so the records' last field is empty"
            )
            let skipped = try runPipeline(
                spec: Self.spec, input: "export.csv", in: folder, output: "out.csv", policy: .skip,
                splitsPlainLines: splitsPlainLines)
            #expect(skipped.report?.rows == 4)
            #expect(skipped.report?.rejectedCount == 2, "C-2 and C-3; C-4's quoted empty field is empty")
            #expect(
                try folder.text("out.csv").split(separator: "\n").map { String($0.prefix(4)) } == [
                    "cust", "C-1,", "C-4,",
                ])
        }
    }

    @Test("a header that alone ends with a delimiter: the records are read and written as they are")
    func headerOnly() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "export.csv",
            "customer_id,phone,city,\r\nC-1001,5551234567,Boston\r\nC-1002,(555) 987-6543,\"Salem, MA\"\r\n")
        for splitsPlainLines in [true, false] {
            let outcome = try runPipeline(
                spec: Self.spec, input: "export.csv", in: folder, output: "out.csv", chunkSize: 9,
                splitsPlainLines: splitsPlainLines)
            #expect(outcome.report?.rows == 2, "\(outcome.error?.message ?? "")")
            #expect(
                try folder.text("out.csv")
                    == "customer_id,phone,city,phone_formatted,phone_extracted,phone_status\r\n"
                    + "C-1001,5551234567,Boston,+1 (555) 123-4567,5551234567,complete\r\n"
                    + "C-1002,(555) 987-6543,\"Salem, MA\",+1 (555) 987-6543,5559876543,complete\r\n")
        }
    }

    @Test("two empty names at the end are two unnamed columns, as before")
    func onlyOneTrailingField() throws {
        let folder = try TemporaryFolder()
        let source = try CSVSource(
            input: InputFile(path: try folder.write("a.csv", "id,phone,,\n1,5551234567,x,\n")),
            sourceSettings(loadSpec(Self.spec), output: .csv))
        #expect(source.start.columnNames == ["id", "phone", "", ""])
        #expect(!source.start.trailingDelimiter)
        let trailing = try CSVSource(
            input: InputFile(path: try folder.write("b.csv", "id,phone,\n1,5551234567,\n")),
            sourceSettings(loadSpec(Self.spec), output: .ndjson))
        #expect(trailing.start.columnNames == ["id", "phone"])
        #expect(trailing.start.trailingDelimiter)
    }

    @Test("describe proposes the named columns only")
    func describe() throws {
        let folder = try TemporaryFolder()
        var rows = "customer_id,phone,city,\n"
        for index in 0..<40 { rows += "C-\(1000 + index),(555) 555-\(String(1000 + index)),Boston,\n" }
        var options = DescribeOptions(input: try folder.write("export.csv", rows))
        options.jobs = 1
        let proposal = try SpecProposer.describe(options)
        #expect(proposal.columns.map(\.name) == ["customer_id", "phone", "city"])
        #expect(proposal.proposed.map(\.name).contains("phone"))
        #expect(proposal.proposed.allSatisfy { !$0.name.isEmpty })
    }
}
