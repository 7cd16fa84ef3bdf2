/// What a caller sets for a run, `describe` or a merge, as the library names it in a message:
/// by what it is (`the first row of a partition`); the executable names each by the flag that
/// sets it (`--first-row`) when it shows a message (`UsageMessage.rendered(naming:setting:)`).
public enum Setting: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The format the input is read as, whatever its name's extension says.
    case inputFormat
    /// That the input has no header line: its column names are given instead.
    case headerless
    /// The column names given for an input without a header line.
    case columnNames
    /// The row number of the first record, for one partition of a larger input.
    case firstRow
    /// The columns `describe` proposes a spec for.
    case proposedColumns
    /// The CSV or TSV input's field delimiter.
    case delimiter
    /// The encoding of the input's text.
    case encoding

    /// The setting in words, as the library's own messages say it.
    public var description: String {
        switch self {
        case .inputFormat: "the input format"
        case .headerless: "an input without a header line"
        case .columnNames: "the column list given for a header-less input"
        case .firstRow: "the first row of a partition"
        case .proposedColumns: "the columns to propose"
        case .delimiter: "the field delimiter"
        case .encoding: "the input's encoding"
        }
    }
}
