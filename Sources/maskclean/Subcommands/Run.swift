import ArgumentParser
import MaskClean

// maskclean run SPEC INPUT [-o OUTPUT] [--report REPORT] [options]
//
// Masks the spec's columns of every record and writes the records back with the added
// formatted, extracted and status columns, in input order. A summary goes to stderr.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mask the spec's columns and write every record back with the added columns.",
        discussion: """
            Records are written to OUTPUT (default: stdout) through a temporary file renamed into place \
            when the run succeeds, so a failed run leaves nothing half-written. Exits 1 when the export \
            misses the spec's gate (minComplete, maxRejected, minRows); the outputs are written then.
            """)

    @OptionGroup var records: RecordOptions

    @Option(name: [.short, .customLong("output")], help: "Write the records here (default: stdout).")
    var output: String = "-"

    @Option(help: "The output's format (default: the input's).")
    var outputFormat: FormatChoice?

    func run() throws {
        StandardStreams.occupyClosed()
        Signals.install()
        let status = Frontend.run(try records.settings(output: output, outputFormat: outputFormat))
        throw ExitCode(status.rawValue)
    }
}
