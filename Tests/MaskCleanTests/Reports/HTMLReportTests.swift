import Foundation
import Testing

@testable import MaskClean

/// `HTMLReport.page` is a pure function of the report and the run's context: given the time taken,
/// the demo's page is the kept fixture to the byte, the time included.
@Suite("The HTML page, rendered from the report")
struct HTMLReportTests {
    static let fixtures =
        repositoryRoot
        .appendingPathComponent("Fixtures")

    @Test("the demo's page with a time of 25 ms is Fixtures/cases/demo-html's, byte for byte")
    func demoPage() throws {
        let spec = try SpecLoader.load(path: Self.fixtures.appendingPathComponent("demo/spec.json").path)
        let input = Self.fixtures.appendingPathComponent("demo/customers.csv").path
        let report = try Runner.run(spec, RunOptions(input: input, output: nil, jobs: 2))
        let page = HTMLReport.page(
            report, input: "../../demo/customers.csv", spec: "../../demo/spec.json",
            elapsed: .milliseconds(25))
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
}
