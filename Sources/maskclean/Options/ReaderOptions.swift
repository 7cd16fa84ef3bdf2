import ArgumentParser
import MaskClean

/// How the input's records are read: the options `run`, `check` and `describe` share.
struct ReaderOptions: ParsableArguments {
    @Option(help: "The input's format, when its extension does not say it.")
    var inputFormat: RecordFormat?

    @Option(
        help:
            "The CSV field delimiter: one character, 'tab', or 'auto' to detect , ; tab or | from the first lines (default: auto for CSV, tab for TSV)."
    )
    var delimiter: String?

    @Option(
        help: ArgumentHelp(
            "The input's text encoding, converted to UTF-8 as it is read: utf-8 (the default), utf-16, utf-16le, utf-16be, iso-8859-1, iso-8859-15, windows-1252, or another name iconv knows.",
            valueName: "name"))
    var encoding: String?

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
        _ = try textEncoding()
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

    /// The delimiter given; nil for `auto` and for none.
    func delimiterByte() throws -> UInt8? {
        guard let delimiter else { return nil }
        switch delimiter {
        case "auto": return nil
        case "tab", "\\t", "\t": return 0x09
        default:
            guard delimiter.utf8.count == 1, let byte = delimiter.utf8.first, byte != 0x22, byte != 0x0A,
                byte != 0x0D
            else {
                throw ValidationError(
                    "--delimiter must be one ASCII character other than a quote or a line break, 'tab' or 'auto'"
                )
            }
            return byte
        }
    }

    /// The encoding `--encoding` names; nil without it.
    func textEncoding() throws -> TextEncoding? {
        guard let encoding else { return nil }
        do {
            return try TextEncoding(named: encoding)
        } catch {
            throw ValidationError(visible(error.shown))
        }
    }

    /// Whether the input's delimiter is detected: `--delimiter auto`, or none given for CSV
    /// (nil: the library's default for the format).
    var detectsDelimiter: Bool? { delimiter == "auto" ? true : delimiter == nil ? nil : false }

    /// The names `--columns` gives, read with the input's delimiter (docs/command-line.md); nil
    /// when the input has a header line. When the delimiter is detected, with the first of
    /// `,` `;` tab `|` that splits them, or a comma.
    func columnNames(input: String) throws -> [String]? {
        guard noHeader, let columns else { return nil }
        let format = inputFormat ?? RecordFormat.fromExtension(of: input)
        let detects = detectsDelimiter ?? (format != .tsv)
        let delimiters: [UInt8] =
            if let given = try delimiterByte() {
                [given]
            } else if detects {
                [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]
            } else {
                [0x09]
            }
        let splitting = delimiters.first { delimiter in
            let names = try? ColumnList.fields(of: columns, delimiter: delimiter, option: .columnNames)
            return (names?.count ?? 0) > 1
        }
        do {
            return try ColumnList.parse(columns, delimiter: splitting ?? delimiters[0])
        } catch {
            throw ValidationError(visible(error.shown))
        }
    }
}
