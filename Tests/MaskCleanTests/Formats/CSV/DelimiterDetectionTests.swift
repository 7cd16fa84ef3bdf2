import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// `--delimiter auto`, the default for CSV (docs/record-formats.md#choosing-the-delimiter): the
/// delimiter is told from the header and the first records, said in the report, and a file whose
/// delimiter cannot be told fails naming the candidates.
@Suite("Detecting the delimiter")
struct DelimiterDetectionTests {
    static func detect(_ text: String, isWhole: Bool = true, columns: Int? = nil) throws(MaskCleanError)
        -> UInt8
    {
        try DelimiterDetection.detect(Array(text.utf8), isWhole: isWhole, columns: columns, file: "in.csv")
            .delimiter
    }

    @Test(
        "real exports' delimiters are told apart, whatever their cells hold",
        arguments: [
            // A European export: decimal commas, semicolons between fields.
            ("id;name;amount\r\n1;Ann;1,50\r\n2;\"Bob; Jr.\";2,00\r\n", UInt8(ascii: ";")),
            // Commas between fields, semicolons in a quoted note and in a bare one.
            ("id,note,phone\n1,\"a; b; c\",555\n2,x;y,556\n", UInt8(ascii: ",")),
            // A spreadsheet's tab-separated text saved as .csv.
            ("id\tname\tphone\n1\tLee, Ann\t555\n2\tRoe, Bob\t556\n", 0x09),
            // A mainframe extract with pipes, commas in its addresses.
            ("id|address|zip\n1|1 Main St, Boston|02108\n2|9 Elm St, Salem|01970\n", UInt8(ascii: "|")),
            // A quoted field over two lines does not count as two records.
            ("id,note\n1,\"line one;\nline two\"\n2,plain\n", UInt8(ascii: ",")),
            // A byte-order mark and a blank line between the records.
            ("\u{FEFF}id;phone\n\n1;555\n2;556\n", UInt8(ascii: ";")),
            // One column: no candidate anywhere, read as one column.
            ("phone\n5551234567\n555-1234\n", UInt8(ascii: ",")),
            // Only a header.
            ("id;name;phone\n", UInt8(ascii: ";")),
            // More columns break a tie of fit: ',' gives 3 fields, ';' 2, both in every record.
            ("a,b;c,d\n1,2;3,4\n", UInt8(ascii: ",")),
        ])
    func exports(text: String, delimiter: UInt8) throws {
        #expect(try Self.detect(text) == delimiter)
    }

    @Test("a few bad records do not hide the delimiter; most of them mean another")
    func badRecords() throws {
        var text = "id;name;phone\n"
        for index in 0..<20 { text += "\(index);Ann;555\n" }
        text += "20;Ann;555;extra\n21;Bob\n"
        #expect(try Self.detect(text) == UInt8(ascii: ";"))
        // The header split by commas alone: the records that do not fit are bad records.
        #expect(try Self.detect("id,name,phone\n1;Ann;555\n2;Bob;556\n") == UInt8(ascii: ","))
        // Split by two, neither fitting the records: both are named.
        do throws(MaskCleanError) {
            _ = try Self.detect("id,name;phone\n1|Ann|555\n2|Bob|556\n")
            Issue.record("detected")
        } catch {
            #expect(
                error.message
                    == "in.csv: cannot tell the delimiter: ',' gives the header 2 fields and 0 of 2 records as many, ';' gives the header 2 fields and 0 of 2 records as many; give it with the field delimiter"
            )
        }
    }

    @Test("two candidates that fit alike are named, and the run is told to give one")
    func ambiguous() {
        do throws(MaskCleanError) {
            _ = try Self.detect("id;name,full\n1;Ann,Lee\n2;Bob,Roe\n")
            Issue.record("detected")
        } catch {
            #expect(
                error.message
                    == "in.csv: cannot tell the delimiter: ',' gives the header 2 fields and 2 of 2 records as many, ';' gives the header 2 fields and 2 of 2 records as many; give it with the field delimiter"
            )
        }
    }

    @Test("without a header line the given names say how many fields a record has")
    func headerless() throws {
        #expect(try Self.detect("1;Ann;555\n2;Bob;556\n", columns: 3) == UInt8(ascii: ";"))
        #expect(try Self.detect("1;Ann,Lee;555\n2;Bob,Roe;556\n", columns: 3) == UInt8(ascii: ";"))
        #expect(try Self.detect("1,Ann Lee;x,555\n", columns: 3) == UInt8(ascii: ","))
        #expect(try Self.detect("5551234567\n", columns: 1) == UInt8(ascii: ","))
        // Records that fit no candidate, or none at all: a comma, and bad records if they do not fit.
        #expect(try Self.detect("1;Ann;555\n", columns: 2) == UInt8(ascii: ","))
        #expect(try Self.detect("", columns: 2) == UInt8(ascii: ","))
    }

    @Test("a sample cut inside a record leaves that record out")
    func cutSample() throws {
        let text = "id;note\n1;\"a\nb\"\n2;\"unfinished"
        #expect(try Self.detect(text, isWhole: false) == UInt8(ascii: ";"))
    }

    @Test("a run detects it, masks with it, writes CSV back with it and says so in the report")
    func run() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("kunden.csv", "id;phone;amount\n1;5551234567;1,50\n2;555-0101;2,00\n")
        let spec =
            #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"]}]}"#
        for chunkSize in [5, 1 << 20] {
            let outcome = try runPipeline(
                spec: spec, input: "kunden.csv", in: folder, output: "out.csv", report: "report.json",
                chunkSize: chunkSize)
            let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
            #expect(report.columns[0].stats.complete == 2)
            #expect(report.origin.delimiter == UInt8(ascii: ";"))
            #expect(report.origin.delimiterDetected)
            #expect(
                try folder.text("out.csv")
                    == "id;phone;amount;phone_formatted;phone_extracted;phone_status\n"
                    + "1;5551234567;1,50;+1 (555) 123-4567;5551234567;complete\n"
                    + "2;555-0101;2,00;555-0101;5550101;complete\n")
            let written = try folder.text("report.json")
            #expect(written.contains("\"delimiter\": \";\",\n  \"delimiterDetected\": true,"), "\(written)")
            #expect(report.summary.contains("read with the delimiter ';' (detected)"))
            let read = try ReportReader.load(path: folder.path("report.json"), spec: try loadSpec(spec))
            #expect(read.origin.delimiter == UInt8(ascii: ";") && read.origin.delimiterDetected)
        }
        // Given, it is not detected; TSV keeps its tab unless asked.
        let given = try runPipeline(
            spec: spec, input: "kunden.csv", in: folder, output: "out.csv", delimiter: UInt8(ascii: ";"))
        #expect(given.report?.origin.delimiter == UInt8(ascii: ";"))
        #expect(given.report?.origin.delimiterDetected == false)
        #expect(given.report?.summary.contains("detected") == false)
    }

    @Test("a merge keeps the delimiter its partitions agree on, else none")
    func merge() throws {
        let folder = try TemporaryFolder()
        let spec = try loadSpec(#"{"columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#)
        let parts = ["id;phone\n1;555-1234\n", "id;phone\n2;555-9876\n", "id,phone\n3,555-0000\n"]
        for (index, text) in parts.enumerated() {
            _ = try folder.write("part-\(index).csv", text)
            var options = RunOptions(input: folder.path("part-\(index).csv"), output: nil, jobs: 1)
            options.reportPaths[.json] = folder.path("part-\(index).json")
            options.part = String(index)
            options.firstRow = index + 1
            _ = try Runner.run(spec, options)
        }
        let agreeing = try ReportMerger.merge(
            spec, MergeOptions(reports: [folder.path("part-0.json"), folder.path("part-1.json")]))
        #expect(agreeing.origin.delimiter == UInt8(ascii: ";") && agreeing.origin.delimiterDetected)
        let differing = try ReportMerger.merge(
            spec, MergeOptions(reports: (0..<3).map { folder.path("part-\($0).json") }))
        #expect(differing.origin.delimiter == nil && !differing.origin.delimiterDetected)
    }
}
