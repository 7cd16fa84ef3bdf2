import FoundationEssentials

/// The column names of an input without a header line (`--no-header --columns`;
/// docs/command-line.md#inputs-without-a-header-line).
public enum ColumnList {
    /// Reads `text` as the header line the input lacks: one CSV record with the run's
    /// `delimiter`, so a name holding the delimiter is quoted (`id,"name, full",phone`). A usage
    /// error when it is not one record of non-empty names.
    public static func parse(_ text: String, delimiter: UInt8) throws(MaskCleanError) -> [String] {
        let names = try fields(of: text, delimiter: delimiter, option: .columnNames, line: "header line")
        try check(names)
        return names
    }

    /// `text` read as one CSV record with `delimiter`: its fields, unchecked. `option` and `line`
    /// say in a message what the text is (`Setting.proposedColumns`, `line`).
    public static func fields(of text: String, delimiter: UInt8, option: Setting, line: String = "line")
        throws(MaskCleanError) -> [String]
    {
        let fields = HeaderFields()
        let parser = CSVParser(delimiter: delimiter, sink: fields)
        var parsed = Array(text.utf8).withUnsafeBytes { parser.feed($0) }
        if parsed { parsed = parser.finish() }
        guard parsed else { throw .usage("\(option): \(parser.errorDescription)") }
        guard fields.records <= 1 else {
            throw .usage("\(option) holds a line break outside quotes; it is one \(line)")
        }
        // From a Swift string, the bytes are UTF-8.
        return fields.fields.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A column name as it is typed in a shell for an option that reads a CSV line with commas
    /// (`--only`): quoted as a CSV field when it holds a comma, a quote, a line break or spaces
    /// at its ends, then in single quotes when the shell would take it apart. A name with a
    /// character that cannot be seen or typed (a variation selector, a zero-width space) is made
    /// by printf(1) from octal escapes, as every POSIX shell reads them:
    /// `"$(printf 'd\357\270\217')"`; messages show such a character as an escape, which is
    /// not what the name holds.
    public static func typed(_ name: String) -> String {
        if name.unicodeScalars.contains(where: isShownEscaped) {
            return "\"$(printf '" + printfFormat(csvField(name)) + "')\""
        }
        let field = csvField(name)
        let plain =
            !field.isEmpty
            && field.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "_./:@%+=-".utf8.contains(byte)
                }
            }
        return plain ? field : "'" + replacing("'", with: "'\\''", in: field) + "'"
    }

    /// The name as one field of a CSV line with commas: quoted when it must be.
    private static func csvField(_ name: String) -> String {
        let csvSpecial =
            name.unicodeScalars.contains { ",\"\r\n".unicodeScalars.contains($0) } || name.first == " "
            || name.last == " "
        return csvSpecial ? "\"" + replacing("\"", with: "\"\"", in: name) + "\"" : name
    }

    /// `text` as printf's format between single quotes: `%` doubled, and each byte of a
    /// backslash, a single quote and a character shown as an escape written in octal.
    private static func printfFormat(_ text: String) -> String {
        var format = ""
        for scalar in text.unicodeScalars {
            if scalar == "%" {
                format += "%%"
            } else if scalar == "\\" || scalar == "'" || isShownEscaped(scalar) {
                for byte in String(scalar).utf8 { format += "\\" + String(byte, radix: 8) }
            } else {
                format.unicodeScalars.append(scalar)
            }
        }
        return format
    }

    private static func replacing(_ character: Character, with text: String, in name: String) -> String {
        name.split(separator: character, omittingEmptySubsequences: false).joined(separator: text)
    }

    /// The rules `parse` keeps, for names given another way: at least one name, none of them
    /// empty. A name may repeat (an official layout's six `Null` columns) as long as no spec
    /// column names it, which the run checks against the spec (`CSVSource`).
    public static func check(_ names: [String]) throws(MaskCleanError) {
        guard !names.isEmpty else {
            throw .usage(
                "\(Setting.columnNames) is empty; name the input's columns in order: \(Setting.columnNames) id,name,phone"
            )
        }
        for (index, name) in names.enumerated() where name.isEmpty {
            throw .usage("\(Setting.columnNames): column \(index + 1) of \(names.count) has an empty name")
        }
    }
}

extension RunOptions {
    /// `columnNames` are for CSV and TSV input only, and keep `ColumnList`'s rules.
    func checkColumnNames(inputFormat: RecordFormat) throws(MaskCleanError) {
        guard let columnNames else { return }
        guard !inputFormat.isJSON else {
            throw .usage(
                "\(Setting.headerless) is for CSV and TSV input; \(inputFormat.rawValue) records name their own keys"
            )
        }
        try ColumnList.check(columnNames)
    }
}

/// The header's fields, as the parser hands them over; what follows the first record is not
/// the header's.
final class HeaderFields: CSVFieldSink {
    var fields: [[UInt8]] = []
    /// Records ended: the header's, then any after it.
    var records = 0
    var ended: Bool { records > 0 }

    func field(_ bytes: UnsafeRawBufferPointer) {
        if !ended { fields.append(Array(bytes)) }
    }

    func endRecord() {
        records += 1
    }
}
