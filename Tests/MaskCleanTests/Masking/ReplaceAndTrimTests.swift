import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// `replace` writes the cleaned value into the input column itself; `trim` strips white space
/// before masking. ETL jobs asked for both: the column cleaned in place, padded cells read.
@Suite("replace and trim")
struct ReplaceAndTrimTests {
    static let spec = #"""
        {"columns":[
          {"name":"phone","format":"+1 ([000]) [000]-[0000]","replace":"formatted","formattedColumn":null,"trim":true},
          {"name":"zip","format":"[00000]-[9999]","autocomplete":false,"replace":"extracted","replaceIncomplete":true,"extractedColumn":null}
        ]}
        """#

    func run(
        _ input: String, name: String, outputFormat: RecordFormat? = nil, escapeFormulas: Bool = false,
        jobs: Int = 1
    )
        throws -> (String, Report)
    {
        let folder = try TemporaryFolder()
        try folder.write(name, input)
        let outcome = try runPipeline(
            spec: Self.spec, input: name, in: folder, output: "out", outputFormat: outputFormat,
            escapeFormulas: escapeFormulas)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        return (try folder.text("out"), report)
    }

    static let csv = """
        id,phone,zip,note
        1, 5551234567 ,90210-1234,a
        2,555,123,"b, c"
        3,,,d
        4,"(555) 123-4567",02108,=x

        """

    @Test("CSV: complete cells are replaced, others keep their input unless replaceIncomplete")
    func csvInPlace() throws {
        let (out, report) = try run(Self.csv, name: "in.csv")
        #expect(
            out == """
                id,phone,zip,note,phone_extracted,phone_status,zip_formatted,zip_status
                1,+1 (555) 123-4567,902101234,a,5551234567,complete,90210-1234,complete
                2,555,123,"b, c",555,incomplete,123,incomplete
                3,,,d,,empty,,empty
                4,+1 (555) 123-4567,02108,=x,5551234567,complete,02108,complete

                """)
        // The report counts the cells as without replace.
        #expect(report.columns[0].stats.complete == 2)
        #expect(report.columns[0].stats.incomplete == 1)
        #expect(report.columns[0].stats.empty == 1)
    }

    @Test("a replaced value is quoted like any cell, and escaped with --escape-formulas")
    func csvQuotingAndFormulas() throws {
        let folder = try TemporaryFolder()
        try folder.write("in.csv", "id,amount\n1,1234567\n2,12\n")
        let outcome = try runPipeline(
            spec:
                #"{"columns":[{"name":"amount","format":"[999],[999],[999]","rightToLeft":true,"replace":"formatted"}]}"#,
            input: "in.csv", in: folder, output: "out")
        #expect(outcome.report != nil, "\(outcome.error?.message ?? "")")
        #expect(
            try folder.text("out")
                == "id,amount,amount_formatted,amount_extracted,amount_status\n1,\"1,234,567\",\"1,234,567\",1234567,complete\n2,12,12,12,complete\n"
        )
        let (escaped, _) = try run(Self.csv, name: "in.csv", escapeFormulas: true)
        #expect(escaped.contains("\n1,'+1 (555) 123-4567,902101234,a,"), "\(escaped)")
    }

    @Test("CSV to JSON, and every JSON direction: keys keep their place, a number becomes a string")
    func jsonInPlace() throws {
        let (ndjson, _) = try run(Self.csv, name: "in.csv", outputFormat: .ndjson)
        #expect(ndjson.hasPrefix(#"{"id":"1","phone":"+1 (555) 123-4567","zip":"902101234","note":"a","#))
        let json = """
            {"id":1,"phone":5551234567,"zip":"90210-1234","n":"=x"}
            {"id":2,"phone":"555","zip":"123"}
            {"id":3,"phone":null}
            {"id":4,"phone":"\\u00a0555-123-4567\\u3000","zip":"02108"}

            """
        let (out, report) = try run(json, name: "in.ndjson")
        #expect(
            out == """
                {"id":1,"phone":"+1 (555) 123-4567","zip":"902101234","n":"=x","phone_extracted":"5551234567","phone_status":"complete","zip_formatted":"90210-1234","zip_status":"complete"}
                {"id":2,"phone":"555","zip":"123","phone_extracted":"555","phone_status":"incomplete","zip_formatted":"123","zip_status":"incomplete"}
                {"id":3,"phone":null,"phone_extracted":"","phone_status":"empty","zip_formatted":"","zip_status":"empty"}
                {"id":4,"phone":"+1 (555) 123-4567","zip":"02108","phone_extracted":"5551234567","phone_status":"complete","zip_formatted":"02108","zip_status":"complete"}

                """)
        #expect(report.columns[0].stats.complete == 2)
        let (csv, _) = try run(json, name: "in.ndjson", outputFormat: .csv)
        #expect(csv.contains("\n1,+1 (555) 123-4567,902101234,=x,5551234567,complete,"), "\(csv)")
        let (escaped, _) = try run(json, name: "in.ndjson", escapeFormulas: true)
        #expect(escaped.hasPrefix(#"{"id":1,"phone":"'+1 (555) 123-4567","zip":"902101234","n":"'=x","#))
    }

    @Test("without formattedColumn the output has the input's columns, cleaned")
    func sameColumnsAsInput() throws {
        let folder = try TemporaryFolder()
        try folder.write("in.csv", "id,phone\n1,555.123.4567\n2,5551234\n")
        let outcome = try runPipeline(
            spec:
                #"{"columns":[{"name":"phone","format":"[000]-[000]-[0000]","replace":"formatted","formattedColumn":null,"extractedColumn":null,"statusColumn":null}]}"#,
            input: "in.csv", in: folder, output: "out")
        #expect(outcome.report != nil)
        #expect(try folder.text("out") == "id,phone\n1,555-123-4567\n2,5551234\n")
    }

    @Test("trim strips Unicode white space before masking; a cell of white space is empty")
    func trim() throws {
        let spaces = ["", " ", "\t", "\u{00A0}", "\u{3000}", "\u{2009}", "\u{202F}", " \u{00A0}\t"]
        var input = "phone\n"
        for (index, space) in spaces.enumerated() {
            input += "\(space)555123456\(index)\(space.reversed().map(String.init).joined())\n"
        }
        input += "\u{00A0} \u{3000}\n"
        let folder = try TemporaryFolder()
        try folder.write("in.csv", input)
        let outcome = try runPipeline(
            spec: #"{"columns":[{"name":"phone","format":"[000]-[000]-[0000]","trim":true}]}"#,
            input: "in.csv",
            in: folder, output: "out")
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        #expect(report.columns[0].stats.complete == spaces.count)
        #expect(report.columns[0].stats.empty == 1)
        let lines = try folder.text("out").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2].hasPrefix(" 5551234561 ,555-123-4561,"), "the input keeps its bytes: \(lines[2])")
        // Without trim, the same cells lose nothing but are padded: the mask skips the spaces.
        let untrimmed = UnicodeWhiteSpace.trimmed
        #expect(withBytes("\u{00A0}x\u{3000}") { String(decoding: untrimmed($0), as: UTF8.self) } == "x")
        #expect(withBytes("\u{2028}\u{2029}\u{85}") { untrimmed($0).count } == 0)
        #expect(withBytes("é") { untrimmed($0).count } == 2, "not white space")
    }

    @Test("spec errors: an unknown replace value, replaceIncomplete alone, non-boolean values")
    func specErrors() {
        #expect(
            specError(#"{"columns":[{"name":"a","format":"[0]","replace":"formated"}]}"#)
                == #"spec.json: columns[0] "a": replace: expected one of "formatted", "extracted", "normalized", got "formated"; did you mean "formatted"?"#
        )
        #expect(
            specError(#"{"columns":[{"name":"a","format":"[0]","replaceIncomplete":true}]}"#)
                == #"spec.json: columns[0] "a": replaceIncomplete: only with "replace": it says which cells replace their input"#
        )
        #expect(
            specError(#"{"columns":[{"name":"a","format":"[0]","trim":"yes"}]}"#)
                == #"spec.json: columns[0] "a": trim: expected true or false, got the string "yes""#)
        #expect(
            specError(
                #"{"columns":[{"name":"a","format":"[0]","replace":"formatted","replaceIncomplete":1}]}"#)
                == #"spec.json: columns[0] "a": replaceIncomplete: expected true or false, got the number 1"#)
    }
}
