/// The formats a report is written in: the one registry that every command's outputs loop over
/// (`Outputs` opens, renders and commits one file per format asked for, `RunOptions` and
/// `MergeOptions` name them, the executable gives each its flag). Adding a format is a renderer
/// in a file of its own and one case here, with its renderer in `renderer`'s switch.
public enum ReportFormat: String, CaseIterable, Sendable, Hashable {
    /// The report itself (docs/report.md), the one `merge` reads back.
    case json
    /// JUnit XML, which GitLab, Jenkins and Azure DevOps show as tests.
    case junit
    /// The Markdown summary: a CI page, a pull-request comment.
    case markdown
    /// One self-contained HTML page.
    case html

    /// The code that writes the report in this format.
    var renderer: any ReportRenderer.Type {
        switch self {
        case .json: JSONReport.self
        case .junit: JUnitReport.self
        case .markdown: MarkdownReport.self
        case .html: HTMLReport.self
        }
    }

    /// The report in this format.
    public func render(_ report: Report, _ context: ReportContext) -> String {
        renderer.render(report, context)
    }

    /// What messages call a file of this format: `the report`, `the HTML report`.
    public var role: String { renderer.role }

    /// Whether a file named `.gz` or `.zst` is written compressed; a format a CI system reads
    /// as it is (JUnit, Markdown) is never compressed.
    public var compressesBySuffix: Bool { renderer.compressesBySuffix }
}

/// What a renderer is told about the run besides its report: where the records and the spec
/// came from (as named) and how long the run took.
public struct ReportContext: Sendable {
    public var input: String
    public var spec: String
    public var elapsed: Duration

    public init(input: String, spec: String, elapsed: Duration) {
        self.input = input
        self.spec = spec
        self.elapsed = elapsed
    }
}

/// One report format's code: the renderer's signature every format has.
protocol ReportRenderer {
    /// What messages call its file: `the JUnit report`.
    static var role: String { get }
    /// Whether a file named `.gz` or `.zst` is written compressed.
    static var compressesBySuffix: Bool { get }
    /// The report's whole text in this format, a pure function of its arguments.
    static func render(_ report: Report, _ context: ReportContext) -> String
}
