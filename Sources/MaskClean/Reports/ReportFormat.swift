/// The formats a report is written in: the one registry that every command's outputs loop over
/// (`Outputs` opens, renders and commits one file per format asked for, `RunOptions` and
/// `MergeOptions` name them, the executable gives each its flag). Adding a format is its
/// rendering, in a file of its own, and one case here with its `renderer`.
public enum ReportFormat: String, CaseIterable, Sendable, Hashable {
    /// The report itself (docs/report.md), the one `merge` reads back.
    case json
    /// JUnit XML, which GitLab, Jenkins and Azure DevOps show as tests.
    case junit
    /// The Markdown summary: a CI page, a pull-request comment.
    case markdown
    /// One self-contained HTML page.
    case html

    /// How the report is written in this format, and what messages call its file.
    var renderer: ReportRenderer {
        switch self {
        case .json: ReportRenderer(role: "the report", compressesBySuffix: true) { $0.json }
        case .junit: ReportRenderer(role: "the JUnit report") { $0.junit }
        case .markdown: ReportRenderer(role: "the Markdown report") { $0.markdown }
        case .html: ReportRenderer(role: "the HTML report", compressesBySuffix: true) { HTMLReport.page($0) }
        }
    }

    /// The report in this format.
    public func render(_ report: Report) -> String {
        renderer.render(report)
    }

    /// What messages call a file of this format: `the report`, `the HTML report`.
    public var role: String { renderer.role }

    /// Whether a file named `.gz` or `.zst` is written compressed; a format a CI system reads
    /// as it is (JUnit, Markdown) is never compressed.
    public var compressesBySuffix: Bool { renderer.compressesBySuffix }
}

/// One report format's code: the one signature every format renders with, a pure function of
/// the report (which carries where it came from and when: `Report.Origin`).
struct ReportRenderer {
    /// What messages call its file: `the JUnit report`.
    var role: String
    /// Whether a file named `.gz` or `.zst` is written compressed.
    var compressesBySuffix = false
    var render: (Report) -> String
}
