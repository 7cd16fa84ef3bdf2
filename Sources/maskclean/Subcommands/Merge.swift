import ArgumentParser
import FoundationEssentials
import MaskClean

// maskclean merge SPEC REPORT... [--report REPORT] [options]
//
// Combines the reports of the partitions of one export (each written by `run` or `check` with
// --part and --first-row) into the report one run over the whole export would have written, and
// judges it against the spec as `check` does.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge the reports of an export's partitions into one, and check it as `check` does.",
        discussion: """
            Counts are summed per column and status, the ratios worked out again from the sums, the \
            spec's thresholds applied, and the first samples kept in (partition, row) order. Exits 0 \
            when the merged report passes the spec's gate, 1 when it does not, 65 when a file is not a \
            partial report or two reports hold the same rows, 78 when a report was made with another spec.
            """)

    @Argument(help: "The spec file (JSON or YAML) every partial report was made with.")
    var spec: String

    @Argument(help: "The partial reports (JSON, as written by run or check --report; - for stdin).")
    var reports: [String]

    @OptionGroup var reportOutputs: ReportOptions

    @Option(
        help: ArgumentHelp(
            "The whole input's name in the reports (JUnit's suite, the annotations' file, the HTML page).",
            valueName: "name"))
    var input: String = "-"

    @Option(
        help: ArgumentHelp(
            "The row the reports' rows start at (default 1): to merge some of an input's partitions, one node of a tree of merges.",
            valueName: "n"))
    var firstRow = 1

    @Flag(help: "Print no summary on stderr.")
    var quiet = false

    mutating func validate() throws {
        let fromStandardInput = ([spec] + reports).count { $0 == "-" }
        if fromStandardInput > 1 {
            throw ValidationError("only one of the spec and the reports can be standard input")
        }
        if reportOutputs.baseline == "-" && fromStandardInput > 0 {
            throw ValidationError(
                "--baseline and the \(spec == "-" ? "spec" : "reports") cannot both be standard input")
        }
        if !(1...Count.maximum).contains(firstRow) {
            throw ValidationError(
                "--first-row must be from 1 to \(Count.maximum) (the row the partial reports start at)")
        }
    }

    func run() throws {
        var options = MergeOptions(reports: reports)
        options.reportPaths = reportOutputs.paths
        options.redactSamples = reportOutputs.redactsSamples
        options.baseline = reportOutputs.baseline
        options.input = input
        options.firstRow = firstRow
        var shown = Frontend.Shown(spec: spec, quiet: quiet, annotations: reportOutputs.annotations)
        shown.reads += reports.map { ($0, "partial report") }
        shown.failsOnWarn = reportOutputs.failOn == .warn
        try ExitPath.run { try Frontend.merge(shown, options) }
    }
}
