import ArgumentParser
import MaskClean

// maskclean check SPEC INPUT [--report REPORT] [options]
//
// The work of `run` without writing records: for CI. Exits 1 when a column's complete ratio is
// below its minComplete.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check an export against the spec's thresholds without writing records (for CI).",
        discussion: "Exits 0 when every column meets its minComplete, 1 when one does not.")

    @OptionGroup var records: RecordOptions

    func run() throws {
        let status = Frontend.run(try records.settings(output: nil, outputFormat: nil))
        throw ExitCode(status.rawValue)
    }
}
