// The command line's names for what the library names by role: each output is named in a
// message by the flag that sets it, so that `the HTML report x is the input file` reads
// `--html x is the input file`; each setting by its flag too, so that `the first row of a
// partition must be from 1` reads `--first-row must be from 1`.

import MaskClean

extension OutputRole {
    /// The flag (or variable) that names the output on the command line.
    var flag: String {
        switch self {
        case .records, .proposedSpec: "-o"
        case .quarantine: "--quarantine"
        case .report(let format): format.flag
        case .stepSummary: "GITHUB_STEP_SUMMARY"
        }
    }
}

extension ReportFormat {
    /// Each report format's flag is its name (`--junit`, `--html`), but the JSON report's,
    /// the report itself, which is `--report`.
    var flag: String { self == .json ? "--report" : "--" + rawValue }
}

extension MaskCleanError {
    /// The message as the command line shows it: every output and setting named by its flag.
    var shown: String { message(naming: \.flag, setting: \.flag) }
}

extension Setting {
    /// The flag that gives the setting on the command line.
    var flag: String {
        switch self {
        case .inputFormat: "--input-format"
        case .headerless: "--no-header"
        case .columnNames: "--columns"
        case .firstRow: "--first-row"
        case .proposedColumns: "--only"
        case .delimiter: "--delimiter"
        case .encoding: "--encoding"
        }
    }
}
