import ArgumentParser
import MaskClean

/// The report's outputs, which `run`, `check` and `merge` share: one report, in every format
/// of the library's registry (`ReportFormat`), each set by the flag `ReportFormat.flag` names.
struct ReportOptions: ParsableArguments {
    @Option(
        help:
            "Write the completeness report (JSON) to this file (run and check with several inputs: a directory, DIR/, for each input's report and total.json)."
    )
    var report: String?

    @Option(
        help: "Write the report as JUnit XML to this file (GitLab, Jenkins, Azure DevOps show it as tests).")
    var junit: String?

    @Option(help: "Write the report as a Markdown summary to this file (a CI page, a pull-request comment).")
    var markdown: String?

    @Option(
        help: ArgumentHelp(
            "Sample values in every report: by their shape only, letters as x or X and numerals as 9 (redacted, the default: CI logs and pages are read by many), or as they are (raw).",
            valueName: "redacted|raw"))
    var samples: SamplesChoice?

    @Flag(help: "The same as --samples redacted, the default.")
    var redactSamples = false

    /// Whether samples are redacted: unless `--samples raw` says otherwise.
    var redactsSamples: Bool { samples != .raw }

    mutating func validate() throws {
        if redactSamples && samples == .raw {
            throw ValidationError("--redact-samples and --samples raw say opposite things; give one")
        }
    }

    @Option(
        help: ArgumentHelp(
            "GitHub Actions annotations for failing and warning columns (default: github when GITHUB_ACTIONS=true).",
            valueName: "github|none"))
    var annotations: AnnotationsChoice?

    @Option(help: "Write the report as one self-contained HTML page to this file.")
    var html: String?

    @Option(
        help: ArgumentHelp(
            "Compare with a previous JSON report of the same spec (plain, .gz or .zst): every report shows the change, and the spec's maxDrop and maxRowsChange fail a drift.",
            valueName: "report"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Exit 1 when the export fails the spec's gate (fail, the default), or when a column is below its warnComplete too (warn).",
            valueName: "fail|warn"))
    var failOn: FailOnChoice?

    /// The file each format asked for goes to: the one place the flags meet the registry, whose
    /// switch has a case for every format.
    var paths: [ReportFormat: String] {
        var paths: [ReportFormat: String] = [:]
        for format in ReportFormat.allCases {
            paths[format] =
                switch format {
                case .json: report
                case .junit: junit
                case .markdown: markdown
                case .html: html
                }
        }
        return paths
    }
}

/// `--fail-on`: which verdict exits 1 (docs/exit-status.md).
enum FailOnChoice: String, ExpressibleByArgument, CaseIterable {
    case fail, warn
}

/// `--samples`: whether the reports show sample values as they are (docs/report.md#samples).
enum SamplesChoice: String, ExpressibleByArgument, CaseIterable {
    case redacted, raw
}
