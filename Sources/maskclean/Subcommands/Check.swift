import ArgumentParser
import MaskClean

// maskclean check SPEC INPUT [--report REPORT] [options]
//
// The work of `run` without writing records: for CI. Exits 1 when the export misses the spec's
// gate: a column below its minComplete, more rejected records than maxRejected, fewer than minRows.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check an export against the spec's thresholds without writing records (for CI).",
        discussion: """
            Exits 0 when the export passes the spec's gate, 1 when it does not: a column's complete \
            ratio is below its minComplete, more records were rejected than maxRejected (default 0), \
            or fewer were read than minRows (default 1); with --fail-on warn, also when a column is \
            below its warnComplete. On GitHub Actions (GITHUB_ACTIONS=true) it \
            prints an annotation per failing or warning column, and appends the Markdown summary to \
            the file GITHUB_STEP_SUMMARY names.
            """)

    @OptionGroup var records: RecordOptions

    func validate() throws {
        _ = try records.manyInputs(output: nil)
    }

    func run() throws {
        try ExitPath.run { try Frontend.run(try records.settings(output: nil, outputFormat: nil)) }
    }
}
