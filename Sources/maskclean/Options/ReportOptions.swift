import ArgumentParser

/// The report's outputs, which `run`, `check` and `merge` share: one report, in every format.
struct ReportOptions: ParsableArguments {
    @Option(help: "Write the completeness report (JSON) to this file.")
    var report: String?

    @Option(
        help: "Write the report as JUnit XML to this file (GitLab, Jenkins, Azure DevOps show it as tests).")
    var junit: String?

    @Option(help: "Write the report as a Markdown summary to this file (a CI page, a pull-request comment).")
    var markdown: String?

    @Flag(
        help:
            "Show sample values by their shape only in every report: letters as x or X, digits and other numerals as 9."
    )
    var redactSamples = false

    @Option(
        help: ArgumentHelp(
            "GitHub Actions annotations for failing and warning columns (default: github when GITHUB_ACTIONS=true).",
            valueName: "github|none"))
    var annotations: AnnotationsChoice?

    @Option(help: "Write the report as one self-contained HTML page to this file.")
    var html: String?
}
