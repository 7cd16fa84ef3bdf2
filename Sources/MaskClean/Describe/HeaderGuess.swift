/// Whether a CSV input's first line, read as its header, looks like a record: an export written
/// without its header line gives columns named `5551234567` and `ann@example.com`, which
/// `describe` then judges as free text or identifiers (docs/command-line.md#describe).
///
/// A column name is rarely a number, a date, a phone number or an e-mail address, and a record
/// nearly always holds one: the first line looks like data when one of its fields is made of at
/// least three digits and no letter (`2024-01-05`, `+44 20 7946 0958`, `12.50`) or is an e-mail
/// address, and such fields are at least a third of them. A wide table named by years
/// (`region,2022,2023,2024`) is flagged too; describe only warns, so it costs a line on stderr.
enum HeaderGuess {
    /// The names that look like values, when they are enough to say the line looks like a
    /// record; empty otherwise.
    static func valuesAmong(_ names: [String]) -> [String] {
        let values = names.filter(looksLikeValue)
        guard !values.isEmpty, values.count * 3 >= names.count else { return [] }
        return values
    }

    static func looksLikeValue(_ name: String) -> Bool {
        var digits = 0
        var letters = 0
        for scalar in name.unicodeScalars {
            if scalar.properties.numericType == .decimal {
                digits += 1
            } else if scalar.properties.isAlphabetic {
                letters += 1
            }
        }
        if digits >= 3 && letters == 0 { return true }
        // An e-mail address: one @ between a local part and a dotted domain, no spaces.
        let parts = name.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !name.contains(" ")
            && parts[1].last != "."
    }

    /// What describe says of such a line: which names look like values, and how to describe a
    /// file that has no header line.
    static func warning(_ values: [String], columns: Int, file: String) -> UsageMessage {
        let shown = values.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
        return
            "the first line of \(file) looks like a record, not column names (\(shown)): if the file has no header line, describe it with \(Setting.headerless) \(Setting.columnNames) followed by its \(columns) column name\(columns == 1 ? "" : "s"), separated by commas"
    }
}
