/// What an output is to the command that writes it. The library names outputs by their role
/// (`the records output`, `the HTML report`); the executable names each by the flag that sets it
/// when it shows a message (`UsageMessage.rendered(naming:)`).
public enum OutputRole: Sendable, Hashable, CustomStringConvertible {
    /// The cleaned records (`run`).
    case records
    /// The records that could not be read, as they were read.
    case quarantine
    /// The report in one of its formats.
    case report(ReportFormat)
    /// The spec `describe` proposes.
    case proposedSpec
    /// The file GitHub Actions shows as the step's summary, which the Markdown summary is
    /// appended to.
    case stepSummary

    /// The role in words, as the library's own messages say it.
    public var description: String {
        switch self {
        case .records: "the records output"
        case .quarantine: "the quarantine"
        case .report(let format): format.role
        case .proposedSpec: "the proposed spec"
        case .stepSummary: "the step summary"
        }
    }
}
