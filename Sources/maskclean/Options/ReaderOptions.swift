import ArgumentParser
import MaskClean

/// How the input's records are read: the options `run`, `check` and `describe` share.
struct ReaderOptions: ParsableArguments {
    @Option(help: "The input's format, when its extension does not say it.")
    var inputFormat: RecordFormat?

    @Option(help: "The CSV field delimiter: one character, or 'tab' (default: , or tab for TSV).")
    var delimiter: String?

    @Flag(
        name: .customLong("no-header"),
        help: "The CSV or TSV input has no header line: its first line is a record. Needs --columns.")
    var noHeader = false

    @Option(
        help: ArgumentHelp(
            "With --no-header: the input's column names, as its header line would give them (one CSV line with the input's delimiter).",
            valueName: "names"))
    var columns: String?

    func validate() throws {
        _ = try delimiterByte()
        if noHeader && columns == nil {
            throw ValidationError(
                "--no-header needs --columns to name the input's columns: --columns id,name,phone")
        }
        if columns != nil && !noHeader {
            throw ValidationError(
                "--columns names the columns of an input without a header line; add --no-header (a header names its own)"
            )
        }
    }

    func delimiterByte() throws -> UInt8? {
        guard let delimiter else { return nil }
        switch delimiter {
        case "tab", "\\t", "\t": return 0x09
        default:
            guard delimiter.utf8.count == 1, let byte = delimiter.utf8.first, byte != 0x22, byte != 0x0A,
                byte != 0x0D
            else {
                throw ValidationError(
                    "--delimiter must be one ASCII character other than a quote or a line break, or 'tab'")
            }
            return byte
        }
    }

    /// The names `--columns` gives, read with the input's delimiter (docs/command-line.md); nil
    /// when the input has a header line.
    func columnNames(input: String) throws -> [String]? {
        guard noHeader, let columns else { return nil }
        let format = inputFormat ?? RecordFormat.fromExtension(of: input)
        let delimiter = try delimiterByte() ?? (format == .tsv ? 0x09 : UInt8(ascii: ","))
        do {
            return try ColumnList.parse(columns, delimiter: delimiter)
        } catch {
            throw ValidationError(visible(error.shown))
        }
    }
}
