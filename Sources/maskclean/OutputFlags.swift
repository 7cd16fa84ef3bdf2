// The command line's names for what the library names by role: each output is named in a
// message by the flag that sets it, so that `the HTML report x is the input file` reads
// `--html x is the input file`.

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
    /// The message as the command line shows it: every output named by its flag.
    var shown: String { message(naming: \.flag) }
}
