import Foundation
import Testing

@testable import MaskClean

/// A phone column in every report format and in `merge` (docs/report.md): its one `formats`
/// entry, `phone`; its invalid cells, with no check; its cells by detected region, `countries`.
/// The counts are set by hand, so these hold whatever the numbering plan decides.
@Suite("Reports: phone columns")
struct PhoneReportTests {
    static let specText = #"""
        {"columns":[
          {"name":"tel","kind":"phone","defaultRegion":"GB","minComplete":0.5,"maxInvalid":0.25},
          {"name":"zip","format":"[00000]"}
        ]}
        """#

    /// A report of 8 rows: tel 5 complete (GB 3, US 1, 001 1), 1 incomplete, 1 invalid, 1 empty.
    static func report() throws -> (Spec, Report) {
        let spec = try loadSpec(specText)
        var report = Report(spec: spec)
        report.input = "in.csv"
        report.rows = 8
        var tel = report.columns[0].stats
        (tel.complete, tel.incomplete, tel.invalid, tel.empty) = (5, 1, 1, 1)
        tel.formatCounts = [7]
        tel.incompleteSamples = [Sample(row: 2, value: "020 7946")]
        tel.invalidSamples = [Sample(row: 3, value: "+44 20 7946 0958 1234")]
        tel.countryCounts[CountryCode.index("GB")!] = 3
        tel.countryCounts[CountryCode.index("US")!] = 1
        tel.countryCounts[CountryCode.index("001")!] = 1
        report.columns[0].stats = tel
        report.columns[1].stats.complete = 8
        report.columns[1].stats.formatCounts = [8]
        return (spec, report)
    }

    @Test("region codes: two upper-case letters or 001, each its own place")
    func countryCodes() {
        #expect(
            CountryCode.index("AA") == 0 && CountryCode.index("ZZ") == 675 && CountryCode.index("001") == 676)
        #expect(
            CountryCode.index("gb") == nil && CountryCode.index("G") == nil && CountryCode.index("002") == nil
        )
        for index in 0..<CountryCode.count {
            #expect(CountryCode.index(CountryCode.code(at: index)) == index)
        }
    }

    @Test("JSON: formats {\"phone\": n}, countries most first, invalid counted without a check")
    func json() throws {
        let (_, report) = try Self.report()
        let json = report.json
        let formats = #""formats": {"# + "\n" + #"        "phone": 7"# + "\n      },"
        #expect(json.contains(formats))
        let countries = [
            #""countries": {"#, #"        "GB": 3,"#, #"        "001": 1,"#, #"        "US": 1"#, "      },",
        ]
        #expect(json.contains(countries.joined(separator: "\n")), "\(json)")
        // Only a phone column has the key: the other column's report is as it was.
        #expect(json.components(separatedBy: #""countries""#).count == 2)
        #expect(report.columns[0].invalidRatio == Ratio(1, of: 7))
        #expect(report.columns[0].passed)
    }

    @Test("summary, Markdown and HTML name the most common regions; JUnit and annotations the invalid count")
    func otherFormats() throws {
        let (_, report) = try Self.report()
        #expect(report.summary.contains("tel: countries GB 3, 001 1, US 1\n"))
        #expect(!report.summary.contains("zip: countries"))
        #expect(report.markdown.contains("- tel: countries GB 3, 001 1, US 1\n"))
        let html = HTMLReport.page(report)
        #expect(html.contains("<h3>Countries</h3>"))
        #expect(html.contains("<tr><td><code>GB</code></td><td class=\"n\">3</td></tr>"))
        #expect(html.contains("<code>phone</code>"))
        #expect(html.contains("Invalid samples"))
        let junit = report.junit
        #expect(junit.contains("5 complete, 0 lossy, 1 incomplete, 1 invalid, 1 empty, 0 rejected of 8 rows"))
    }

    @Test("more regions than the summary names: the rest are counted")
    func manyCountries() throws {
        var (_, report) = try Self.report()
        for code in ["FR", "DE", "JP", "CA"] {
            report.columns[0].stats.countryCounts[CountryCode.index(code)!] = 1
        }
        #expect(report.summary.contains("tel: countries GB 3, 001 1, CA 1, DE 1, FR 1 (and 2 more)\n"))
        report.columns[0].stats.countryCounts = Array(repeating: 0, count: CountryCode.count)
        #expect(report.summary.contains("tel: countries none\n"))
    }

    @Test("read back and merged: countries summed, and a report's regions checked")
    func merge() throws {
        let (spec, report) = try Self.report()
        let read = try ReportReader.parse(Array(report.json.utf8), file: "a.json", spec: spec)
        #expect(read.columns[0].stats == report.columns[0].stats)
        let merged = try Report.merging(
            [.init(file: "a", report: read), .init(file: "b", report: read)], spec: spec)
        #expect(
            merged.columns[0].stats.countries.map { "\($0.region) \($0.count)" } == ["GB 6", "001 2", "US 2"])
        #expect(merged.columns[0].stats.invalid == 2)
        #expect(merged.columns[0].stats.formatCounts == [14])
        // Merging a merged report gives the same sums again.
        let again = try ReportReader.parse(Array(merged.json.utf8), file: "m.json", spec: spec)
        #expect(again.columns[0].stats.countryCounts == merged.columns[0].stats.countryCounts)
    }

    @Test(
        "a report's countries that cannot be the column's are refused",
        arguments: [
            (
                #""GB": 3,"#, #""gb": 3,"#,
                #"countries: "gb" is not a region code (two upper-case letters, or 001)"#
            ),
            (
                #""GB": 3,"#, #""GB": 30,"#,
                "countries: count more cells than the 7 of the column that are not empty"
            ),
            (#""GB": 3,"#, #""GB": -1,"#, #"countries: "GB""#),
        ])
    func refused(original: String, replacement: String, message: String) throws {
        let (spec, report) = try Self.report()
        let text = report.json.replacingOccurrences(of: original, with: replacement)
        #expect(text != report.json)
        #expect(throws: MaskCleanError.self) {
            _ = try ReportReader.parse(Array(text.utf8), file: "a.json", spec: spec)
        }
        do {
            _ = try ReportReader.parse(Array(text.utf8), file: "a.json", spec: spec)
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("a phone column's report without countries is not one of this spec's")
    func missingCountries() throws {
        let (spec, report) = try Self.report()
        let text = report.json.replacingOccurrences(of: #""countries""#, with: #""kountries""#)
        #expect(throws: MaskCleanError.self) {
            _ = try ReportReader.parse(Array(text.utf8), file: "a.json", spec: spec)
        }
    }

    @Test("a column of formats with invalid cells is still refused: only a check or a phone column has them")
    func invalidWithoutCheck() throws {
        let (spec, report) = try Self.report()
        let json = report.json
        // zip: 8 complete → 7 complete and 1 invalid.
        let zipStart = try #require(json.range(of: #""name": "zip""#))
        var tail = String(json[zipStart.lowerBound...])
        tail = tail.replacingOccurrences(of: #""complete": 8"#, with: #""complete": 7"#)
        tail = tail.replacingOccurrences(of: #""invalid": 0"#, with: #""invalid": 1"#)
        let text = String(json[..<zipStart.lowerBound]) + tail
        do {
            _ = try ReportReader.parse(Array(text.utf8), file: "a.json", spec: spec)
            Issue.record("read")
        } catch {
            #expect(error.message.contains("gives the column no check"), "\(error.message)")
        }
    }
}
