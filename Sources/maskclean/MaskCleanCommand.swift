import ArgumentParser
import MaskClean

@main
struct MaskCleanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maskclean",
        abstract: "Clean CSV and JSON records with input masks.",
        discussion: """
            A spec file gives each column to clean a mask format (with alternatives); maskclean writes \
            every record back with formatted, extracted and status columns, and reports how complete \
            each column is. `check` does the same work without writing records and fails when a \
            column's quality is below its threshold.

            Exit status: 0 all good; 1 a minComplete threshold was not met, more records were \
            rejected than maxRejected, or fewer read than minRows; 64 wrong usage; \
            65 malformed input data; 66 input file missing or unreadable; 73 output cannot be created; \
            74 write error; 78 bad spec.
            """,
        version: maskcleanVersion,
        subcommands: [Run.self, Check.self, Merge.self, Apply.self, Describe.self, Schema.self])
}
