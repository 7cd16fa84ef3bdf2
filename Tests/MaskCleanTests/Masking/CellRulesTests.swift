import Foundation
import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// What a column asks of a cell besides its formats (docs/cell-status.md): a check that makes a
/// cell invalid, characters to ignore, characters that are significant, and the case of letters.
/// Each case here is one the fourth probe found counted complete before the column keys existed.
@Suite("Cell rules: checks, ignore, significant and case")
struct CellRulesTests {
    /// The output of a run of `spec` over `csv` (CSV out unless `outputFormat`), and its report.
    func run(_ spec: String, _ csv: String, outputFormat: RecordFormat? = nil, jobs: Int = 1) throws -> (
        String, Report
    ) {
        let folder = try TemporaryFolder()
        try folder.write("in.csv", csv)
        let outcome = try runPipeline(
            spec: spec, input: "in.csv", in: folder, output: "out", jobs: jobs, outputFormat: outputFormat)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        return (try folder.text("out"), report)
    }

    /// The rows of a CSV output, each as its fields (no field here needs quotes).
    func rows(_ csv: String) -> [[String]] {
        csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test(
        "impossible dates are invalid, real ones complete with their ISO form; the cells are written as for a complete cell"
    )
    func dates() throws {
        let spec = #"{"columns":[{"name":"day","format":"[0000]-[00]-[00]","check":"date"}]}"#
        let (out, report) = try run(
            spec,
            "day\n2024-02-29\n2024-13-01\n2024-02-30\n2023-02-29\n1900-02-29\n2000-02-29\n2024-04-31\n2024-0\n\n"
        )
        #expect(
            rows(out) == [
                ["day", "day_formatted", "day_extracted", "day_status", "day_normalized"],
                ["2024-02-29", "2024-02-29", "20240229", "complete", "2024-02-29"],
                ["2024-13-01", "2024-13-01", "20241301", "invalid", ""],
                ["2024-02-30", "2024-02-30", "20240230", "invalid", ""],
                ["2023-02-29", "2023-02-29", "20230229", "invalid", ""],
                ["1900-02-29", "1900-02-29", "19000229", "invalid", ""],
                ["2000-02-29", "2000-02-29", "20000229", "complete", "2000-02-29"],
                ["2024-04-31", "2024-04-31", "20240431", "invalid", ""],
                ["2024-0", "2024-0", "20240", "incomplete", ""],
                ["", "", "", "empty", ""],
            ])
        let stats = report.columns[0].stats
        #expect((stats.complete, stats.invalid, stats.incomplete, stats.empty) == (2, 5, 1, 1))
        #expect(
            stats.invalidSamples.map(\.value) == [
                "2024-13-01", "2024-02-30", "2023-02-29", "1900-02-29", "2024-04-31",
            ])
        #expect(stats.invalidSamples.map(\.row) == [2, 3, 4, 5, 7])
    }

    @Test(
        "dateOrder reads day-first and month-first dates, 2-digit years by the POSIX pivot, and each affine format its own way"
    )
    func dateOrders() throws {
        let spec = #"""
            {"columns":[
              {"name":"eu","format":"[00]/[00]/[0000]","affineFormats":["[0000]-[00]-[00]","[00].[00].[00]"],"check":"date","dateOrder":"DMY"},
              {"name":"us","format":"[09]/[09]/[0000]","check":"date","dateOrder":"MDY"}
            ]}
            """#
        let (out, _) = try run(
            spec,
            "eu,us\n31/12/1999,12/31/1999\n2024-02-29,2/29/2024\n31.12.68,2/29/2023\n31.12.69,13/1/2024\n12/31/1999,1/2/2024\n"
        )
        let table = rows(out).map { [$0[4], $0[5], $0[8], $0[9]] }
        #expect(
            table == [
                ["eu_status", "eu_normalized", "us_status", "us_normalized"],
                ["complete", "1999-12-31", "complete", "1999-12-31"],
                ["complete", "2024-02-29", "complete", "2024-02-29"],
                ["complete", "2068-12-31", "invalid", ""],
                ["complete", "1969-12-31", "invalid", ""],
                ["invalid", "", "complete", "2024-01-02"],
            ])
    }

    @Test(
        "a year group of 2 to 4 digits takes a 2-digit year by the pivot and refuses 1 or 3 digits; 8 digits are YYYYMMDD"
    )
    func yearLengths() throws {
        let spec = #"""
            {"columns":[
              {"name":"us","format":"[09]/[09]/[0099]","check":"date","dateOrder":"MDY"},
              {"name":"basic","format":"[00]/[00]/[0000]","affineFormats":["[0000][00][00]"],"check":"date","dateOrder":"DMY"}
            ]}
            """#
        let (out, _) = try run(
            spec, "us,basic\n1/2/48,20240229\n1/2/148,20240431\n12/31/1999,20231231\n1/2/4,\n")
        #expect(
            rows(out).map { [$0[4], $0[5], $0[8], $0[9]] } == [
                ["us_status", "us_normalized", "basic_status", "basic_normalized"],
                ["complete", "2048-01-02", "complete", "2024-02-29"],
                ["invalid", "", "invalid", ""],
                ["complete", "1999-12-31", "complete", "2023-12-31"],
                ["incomplete", "", "empty", ""],
            ])
    }

    @Test(
        "bestStatus takes the format under which a value passes the check; other strategies keep their choice"
    )
    func checkChoosesFormat() throws {
        let formats =
            #""format":"[09]/[09]/[0099]","affineFormats":["[0099]/[09]/[09]"],"check":"date","dateOrder":"MDY","templateColumn":"t""#
        let best = #"{"columns":[{"name":"d",\#(formats)}]}"#
        let whole = #"{"columns":[{"name":"d",\#(formats),"affinityStrategy":"wholeString"}]}"#
        let csv = "d\n99/12/31\n12/31/99\n99/13/31\n"
        let (out, report) = try run(best, csv)
        // By shape alone 99/12/31 fills both formats and the first is chosen: month 99. The check
        // says that is no date, and the year-first format reads it as one.
        #expect(
            rows(out) == [
                ["d", "d_formatted", "d_extracted", "d_status", "t", "d_normalized"],
                ["99/12/31", "99/12/31", "991231", "complete", "99/12/31", "1999-12-31"],
                ["12/31/99", "12/31/99", "123199", "complete", "12/31/99", "1999-12-31"],
                ["99/13/31", "99/13/31", "991331", "invalid", "99/13/31", ""],
            ])
        // A value no format reads as a date keeps the strategy's choice.
        #expect(report.columns[0].stats.formatCounts == [2, 1])
        let (kept, keptReport) = try run(whole, csv)
        #expect(rows(kept)[1][3] == "invalid", "wholeString's own choice stands")
        #expect(keptReport.columns[0].stats.formatCounts == [3, 0])
    }

    @Test("checks read decimal digits of any script, and never take one for a separator")
    func digitsOfEveryScript() throws {
        let spec = #"""
            {"columns":[
              {"name":"d","format":"[09]/[09]/[0099]","check":"date","dateOrder":"MDY"},
              {"name":"card","format":"[0000000000000000]","check":"luhn"}
            ]}
            """#
        // 1४/2/2000 is month 14 and 2/4/४44 a year of 3 digits: before, the Devanagari digits
        // were skipped as separators and both came out complete dates of 2000 and 2044.
        let (out, _) = try run(
            spec, "d,card\n1४/2/2000,４１１１１１１１１１１１１１１１\n2/4/४44,４１１１１１１１１１１１１１１２\n१२/३१/१९९९,\n")
        #expect(
            rows(out).map { [$0[4], $0[5], $0[8]] } == [
                ["d_status", "d_normalized", "card_status"],
                ["invalid", "", "complete"],
                ["invalid", "", "invalid"],
                ["complete", "1999-12-31", "empty"],
            ])
        // Separators outside ASCII stay separators.
        let (kanji, _) = try run(
            #"{"columns":[{"name":"d","format":"[0000]年[00]月[00]日","check":"date"}]}"#,
            "d\n2024年02月29日\n2023年02月29日\n")
        #expect(
            rows(kanji).map { [$0[3], $0[4]] } == [
                ["d_status", "d_normalized"], ["complete", "2024-02-29"], ["invalid", ""],
            ])
    }

    @Test("a number's separators kept by {} literals are not part of what luhn, gtin and isbn read")
    func keptSeparators() throws {
        let spec = #"""
            {"columns":[
              {"name":"card","format":"[0000]{ }[0000]{ }[0000]{ }[0000]","check":"luhn"},
              {"name":"isbn","format":"[000]{-}[0]{-}[0000]{-}[0000]{-}[0]","check":"isbn","extractedColumn":null}
            ]}
            """#
        let (out, _) = try run(
            spec, "card,isbn\n4111111111111111,9780804429573\n4111111111111112,9780804429574\n")
        #expect(
            rows(out).map { [$0[3], $0[4], $0[6], $0[7]] } == [
                ["card_extracted", "card_status", "isbn_status", "isbn_normalized"],
                ["4111 1111 1111 1111", "complete", "complete", "9780804429573"],
                ["4111 1111 1111 1112", "invalid", "invalid", ""],
            ])
    }

    @Test("a card number with a wrong check digit is invalid; luhnPrefix checks an NPI")
    func luhn() throws {
        let spec = #"""
            {"columns":[
              {"name":"card","format":"[0000] [0000] [0000] [0000]","check":"luhn"},
              {"name":"npi","format":"[0000000000]","check":"luhn","luhnPrefix":"80840"}
            ]}
            """#
        let (out, report) = try run(
            spec,
            "card,npi\n4111 1111 1111 1111,1234567893\n4111111111111112,1234567890\n5500-0000-0000-0004,\n")
        #expect(rows(out).map { $0[4] } == ["card_status", "complete", "invalid", "complete"])
        #expect(rows(out).map { $0[7] } == ["npi_status", "complete", "invalid", "empty"])
        // Invalid cells are written as complete ones, so that a user sees what failed.
        #expect(rows(out)[2][2] == "4111 1111 1111 1112")
        #expect(report.columns[0].stats.complete == 2)
        #expect(!out.contains("normalized"), "Luhn defines no canonical form")
    }

    @Test("IBAN: case upper, the electronic form normalized, a wrong check invalid")
    func iban() throws {
        let spec = #"""
            {"columns":[{"name":"iban","format":"[AA00] [____] [____] [____] [____] [__]","check":"iban","case":"upper","extractedColumn":null}]}
            """#
        let (out, _) = try run(
            spec, "iban\ngb82 west 1234 5698 7654 32\nGB82WEST12345698765433\nDE89 3704 0044 0532 0130 00\n")
        #expect(
            rows(out) == [
                ["iban", "iban_formatted", "iban_status", "iban_normalized"],
                [
                    "gb82 west 1234 5698 7654 32", "GB82 WEST 1234 5698 7654 32", "complete",
                    "GB82WEST12345698765432",
                ],
                ["GB82WEST12345698765433", "GB82 WEST 1234 5698 7654 33", "invalid", ""],
                [
                    "DE89 3704 0044 0532 0130 00", "DE89 3704 0044 0532 0130 00", "complete",
                    "DE89370400440532013000",
                ],
            ])
    }

    @Test("case converts the formatted and extracted values only; the status is unchanged")
    func letterCase() throws {
        let spec = #"""
            {"columns":[{"name":"post","format":"[A_--] [0AA]","case":"upper"},{"name":"code","format":"[AAA]-[000]","case":"lower","statusColumn":null}]}
            """#
        let (out, report) = try run(spec, "post,code\nsw1a 1aa,ABC-123\nEC1A 1bb,Straße\n")
        #expect(
            rows(out) == [
                [
                    "post", "code", "post_formatted", "post_extracted", "post_status", "code_formatted",
                    "code_extracted",
                ],
                ["sw1a 1aa", "ABC-123", "SW1A 1AA", "SW1A1AA", "complete", "abc-123", "abc123"],
                ["EC1A 1bb", "Straße", "EC1A 1BB", "EC1A1BB", "complete", "str-", "str"],
            ])
        #expect(report.columns[1].stats.incomplete == 1)
    }

    @Test("ignore: separators that don't matter are removed first, so a variable-length number masks whole")
    func ignore() throws {
        let format = "+[000999999999999]"
        let with = #"{"columns":[{"name":"phone","format":"\#(format)","ignore":" -.()"}]}"#
        let without = #"{"columns":[{"name":"phone","format":"\#(format)"}]}"#
        let csv = "phone\n+1-202-944-6000\n+44 (20) 7946.0958\n+1202\n"
        let (cleaned, _) = try run(with, csv)
        #expect(
            rows(cleaned) == [
                ["phone", "phone_formatted", "phone_extracted", "phone_status"],
                ["+1-202-944-6000", "+12029446000", "12029446000", "complete"],
                ["+44 (20) 7946.0958", "+442079460958", "442079460958", "complete"],
                ["+1202", "+1202", "1202", "complete"],
            ])
        // Without it, optional digits stop at the first separator and the rest is lost.
        let (lossy, _) = try run(without, csv)
        #expect(rows(lossy)[1] == ["+1-202-944-6000", "+1202", "1202", "lossy"])
    }

    @Test("significant: a dropped sign or decimal point makes a cell lossy, not a complete wrong number")
    func significant() throws {
        // input-mask's mandatory slots skip a character that does not fit: punctuation, unless
        // it is significant, goes without a trace.
        let with = #"{"columns":[{"name":"n","format":"[000]","significant":"-."}]}"#
        let without = #"{"columns":[{"name":"n","format":"[000]"}]}"#
        let csv = "n\n3.20\n-512\n320\n"
        let (out, report) = try run(with, csv)
        #expect(rows(out).map { $0[3] } == ["n_status", "lossy", "lossy", "complete"])
        #expect(report.columns[0].stats.droppedCharacters == 2)
        let (old, _) = try run(without, csv)
        #expect(rows(old).map { $0[3] } == ["n_status", "complete", "complete", "complete"])
    }

    @Test(
        "a lossy cell is still checked: failing makes it invalid, passing keeps it lossy with no normalized value"
    )
    func lossyThenChecked() throws {
        let spec = #"{"columns":[{"name":"day","format":"[0000]-[00]-[00]","check":"date"}]}"#
        let (out, report) = try run(spec, "day\n2024-02-29x9\n2024-02-30x9\n")
        #expect(
            rows(out).map { [$0[3], $0[4]] } == [
                ["day_status", "day_normalized"], ["lossy", ""], ["invalid", ""],
            ])
        #expect(report.columns[0].stats.lossy == 1)
    }

    @Test("replace: normalized writes the canonical form over complete cells; others keep their input")
    func replaceNormalized() throws {
        let spec = #"""
            {"columns":[{"name":"day","format":"[00]/[00]/[0000]","check":"date","dateOrder":"DMY","replace":"normalized","normalizedColumn":null,"extractedColumn":null}]}
            """#
        let (csv, _) = try run(spec, "id,day\n1,29/02/2024\n2,30/02/2024\n3,\n")
        #expect(
            rows(csv) == [
                ["id", "day", "day_formatted", "day_status"],
                ["1", "2024-02-29", "29/02/2024", "complete"],
                ["2", "30/02/2024", "30/02/2024", "invalid"],
                ["3", "", "", "empty"],
            ])
        let (ndjson, _) = try run(spec, "id,day\n1,29/02/2024\n2,30/02/2024\n", outputFormat: .ndjson)
        #expect(
            ndjson == """
                {"id":"1","day":"2024-02-29","day_formatted":"29/02/2024","day_status":"complete"}
                {"id":"2","day":"30/02/2024","day_formatted":"30/02/2024","day_status":"invalid"}

                """)
    }

    @Test("an ISBN-10 is normalized to its ISBN-13; the normalized column follows the template column")
    func isbnAndColumnOrder() throws {
        let spec = #"""
            {"columns":[{"name":"isbn","format":"[000000000][_]","check":"isbn","case":"upper","templateColumn":"isbn_template","affineFormats":["[0000000000000]"]}]}
            """#
        let (out, _) = try run(spec, "isbn\n080442957x\n9780306406157\n0306406153\n")
        #expect(
            rows(out) == [
                [
                    "isbn", "isbn_formatted", "isbn_extracted", "isbn_status", "isbn_template",
                    "isbn_normalized",
                ],
                ["080442957x", "080442957X", "080442957X", "complete", "080442957X", "9780804429573"],
                [
                    "9780306406157", "9780306406157", "9780306406157", "complete", "9780306406157",
                    "9780306406157",
                ],
                ["0306406153", "0306406153", "0306406153", "invalid", "0306406153", ""],
            ])
    }

    @Test(
        "invalid cells never count toward minComplete; maxInvalid fails a column above it and passes one at it"
    )
    func thresholds() throws {
        // 14 digits at most: a 13-digit EAN fits, and one with a wrong check digit is invalid.
        let csv = "code\n4006381333931\n4006381333932\n4006381333931\n4006381333931\n"
        let format =
            #"{"columns":[{"name":"code","format":"[00000000000009]","check":"gtin","minComplete":0.5,"maxInvalid":MAX}]}"#
        let (_, atLimit) = try run(format.replacingOccurrences(of: "MAX", with: "0.25"), csv)
        let column = atLimit.columns[0]
        #expect((column.stats.complete, column.stats.invalid) == (3, 1))
        #expect(column.completeRatio == Ratio(3, of: 4))
        #expect(column.invalidPassed && column.passed && atLimit.passed)
        let (_, above) = try run(format.replacingOccurrences(of: "MAX", with: "0.2"), csv)
        #expect(!above.columns[0].invalidPassed && above.columns[0].completePassed && !above.passed)
    }

    @Test("the same cells, whatever the number of workers")
    func jobs() throws {
        let spec = #"{"columns":[{"name":"day","format":"[0000]-[00]-[00]","check":"date","ignore":" "}]}"#
        var csv = "day\n"
        for day in 0..<3000 { csv += "20\(10 + day % 20)-0\(1 + day % 9)-\(10 + day % 25)\n" }
        let (one, oneReport) = try run(spec, csv, jobs: 1)
        let (four, fourReport) = try run(spec, csv, jobs: 4)
        #expect(one == four)
        #expect(oneReport.columns[0].stats == fourReport.columns[0].stats)
        #expect(oneReport.columns[0].stats.invalid > 0 && oneReport.columns[0].stats.complete > 0)
    }
}
