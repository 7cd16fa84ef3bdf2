import Foundation
import MaskEngine
import Testing

@testable import MaskClean

/// `HTMLReport.page` is a pure function of the report, which carries where it came from and when
/// (`Report.Origin`): given those, the demo's page is the kept fixture to the byte.
@Suite("The HTML page, rendered from the report")
struct HTMLReportTests {
    static let fixtures =
        repositoryRoot
        .appendingPathComponent("Fixtures")

    @Test(
        "the demo's page, started and timed as the fixture was, is Fixtures/cases/demo-html's, byte for byte")
    func demoPage() throws {
        let spec = try SpecLoader.load(path: Self.fixtures.appendingPathComponent("demo/spec.json").path)
        let input = Self.fixtures.appendingPathComponent("demo/customers.csv").path
        var report = try Runner.run(spec, RunOptions(input: input, output: nil, jobs: 2))
        report.input = "../../demo/customers.csv"
        report.origin.spec = "../../demo/spec.json"
        report.origin.started = Date(timeIntervalSince1970: 1_795_744_800)
        report.origin.duration = .milliseconds(25)
        report.redactSamples()  // as the command line does by default
        let page = HTMLReport.page(report)
        let expected = try Data(
            contentsOf: Self.fixtures.appendingPathComponent("cases/demo-html/expected.report.html"))
        #expect(Data(page.utf8) == expected)
    }

    @Test(
        "the time taken: milliseconds under a second, else seconds with two decimals, truncated",
        arguments: [
            (Duration.zero, "0 ms"), (.microseconds(999_999), "999 ms"), (.seconds(1), "1.00 s"),
            (.milliseconds(1_059), "1.05 s"), (.milliseconds(62_340), "62.34 s"),
        ])
    func duration(elapsed: Duration, shown: String) {
        #expect(HTMLReport.duration(elapsed) == shown)
    }

    @Test("data is escaped for an element and for an attribute, controls shown as in the summary")
    func escaping() {
        #expect(HTMLReport.escaped("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(HTMLReport.escaped("a\"b'c&d") == "a&quot;b&#39;c&amp;d")
        #expect(HTMLReport.escaped("x\u{1b}[2J\ny\u{202E}") == "x\\x1b[2J\\ny\\u{202e}")
        #expect(HTMLReport.escaped("Ðorđe €45") == "Ðorđe €45")
    }

    @Test("invalid cells have their part of the bar, their row, their share against maxInvalid and samples")
    func invalidCells() throws {
        var report = Report(
            spec: try loadSpec(
                #"{"columns":[{"name":"card","format":"[0000]","check":"luhn","maxInvalid":0.1},"#
                    + #"{"name":"phone","format":"[0]"}]}"#))
        report.rows = 10
        var stats = ColumnStats(formats: 1)
        for row in 1...10 {
            stats.count(row <= 8 ? .complete : .invalid, format: 0, dropped: 0, row: row) { "<4111 \(row)>" }
        }
        report.columns[0].stats = stats
        report.columns[1].stats.empty = 10
        let page = HTMLReport.page(report)
        // Stacked after the complete part, its width its count.
        #expect(
            page.contains(
                #"<rect class="invalid" x="8" y="0" width="2" height="20"><title>invalid 2</title>"#))
        #expect(
            page.contains(
                #"aria-label="card: complete 8, lossy 0, incomplete 0, invalid 2, empty 0, rejected 0""#))
        #expect(
            page.contains(
                #"<tr class="invalid"><td><span class="swatch invalid"></span>invalid</td><td class="n">2</td><td class="n">20.00%</td></tr>"#
            ))
        #expect(page.contains("invalid <b>20.00%</b> · maxInvalid <b>10.00%</b></p>"))
        #expect(page.contains(#"<article class="column fail" id="column-1">"#))
        #expect(page.contains(#"<dd id="result">FAILED (1 column above maxInvalid)</dd>"#))
        #expect(
            page.contains(
                "<h3>Invalid samples</h3>\n<ol class=\"samples\">\n"
                    + "<li><span class=\"row\">row 9</span><span><code>&lt;4111 9&gt;</code></span></li>"))
        #expect(
            page.contains(".swatch.invalid{background:var(--invalid)}") && page.contains("rect.invalid{fill"))
        // A column without a check has no invalid samples to list, and no invalid share.
        let phone = try #require(page.range(of: #"id="column-2""#)).lowerBound
        #expect(!page[phone...].contains("Invalid samples") && !page[phone...].contains("maxInvalid <b>"))
        #expect(page[phone...].contains(#"<tr class="invalid">"#))
    }
}
