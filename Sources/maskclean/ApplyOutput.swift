// How `apply` shows its rows: a row's cells, the table whose columns fit them, and `--json`'s
// one object a line.

import MaskClean
import MaskEngine

extension ApplyRow {
    static let header = [
        "value", "formatted", "extracted", "status", "format", "placeholder", "dropped",
    ]

    /// The row's cells in the table's column order: the normalized value when the check has one,
    /// then the template last when there is one.
    var cells: [String] {
        var cells = [value, formatted, extracted, status.rawValue, format, placeholder, dropped]
        if let normalized { cells.append(normalized) }
        if let template { cells.append(template) }
        return cells
    }

    /// The row as one line of JSON (`--json`), without the line feed.
    var jsonLine: String {
        var members = [
            ("value", value), ("formatted", formatted), ("extracted", extracted),
            ("status", status.rawValue), ("format", format), ("placeholder", placeholder),
            ("dropped", dropped),
        ]
        if let normalized { members.append(("normalized", normalized)) }
        if let template { members.append(("template", template)) }
        return "{" + members.map { "\(jsonQuoted($0.0)): \(jsonQuoted($0.1))" }.joined(separator: ", ") + "}"
    }
}

extension ApplyPhoneRow {
    static let header = ["value", "formatted", "extracted", "status", "country", "dropped"]

    var cells: [String] { [value, formatted, extracted, status.rawValue, country, String(dropped)] }

    /// The row as one line of JSON (`--json`), without the line feed; `dropped` is a number.
    var jsonLine: String {
        let members = zip(Self.header.dropLast(), cells.dropLast()).map {
            "\(jsonQuoted($0)): \(jsonQuoted($1))"
        }
        return "{" + (members + ["\"dropped\": \(dropped)"]).joined(separator: ", ") + "}"
    }
}

/// `apply`'s table. Values from the command line are all known: the columns fit them. Values
/// from standard input go out a row per value as they come, in columns as wide as the formats'
/// placeholders (a formatted value is no wider), so that memory does not grow with the input
/// and a value typed at a terminal shows at once. Every column is at most `maximumWidth` wide:
/// a longer cell is cut and ends with `…` (`--json` shows every value whole).
struct ApplyTable {
    static let maximumWidth = 48

    private var held: [[String]] = []
    private var widths: [Int]?
    private var headerWritten = false
    private let header: [String]
    /// What is known before any value: every status, and the formats and placeholders to show.
    private let known: [String]

    init(
        withNormalized: Bool, withTemplate: Bool, formats: [String], placeholders: [String], streaming: Bool
    ) {
        header = ApplyRow.header + (withNormalized ? ["normalized"] : []) + (withTemplate ? ["template"] : [])
        var known = Array(repeating: "", count: header.count)
        known[3] = CellStatus.incomplete.rawValue
        known[4] = formats.max { $0.count < $1.count } ?? ""
        let placeholder = placeholders.max { $0.count < $1.count } ?? ""
        known[5] = placeholder
        if streaming {
            for index in [0, 1, 2, 6] + (withTemplate ? [header.count - 1] : []) {
                known[index] = placeholder
            }
            // A normalized value may be longer than the format's placeholder: an ISBN-13 from an
            // ISBN-10 without hyphens, an ISO date from a two-digit year.
            if withNormalized { known[7] = placeholder.count >= 13 ? placeholder : "0000000000000" }
        }
        self.known = known.map { visible($0) }
        if streaming { widths = fitted([header]) }
    }

    /// `apply --kind phone`'s table: streamed values get columns as wide as an international
    /// number with an extension.
    init(phoneStreaming streaming: Bool) {
        header = ApplyPhoneRow.header
        let number = "+44 20 7946 0958 ext. 1234"
        known =
            streaming
            ? [number, number, "+442079460958", "incomplete", "001", ""] : ["", "", "", "", "", ""]
        if streaming { widths = fitted([header]) }
    }

    mutating func add(_ row: ApplyRow, to out: inout StandardOutput) throws(MaskCleanError) {
        try add(cells: row.cells, to: &out)
    }

    mutating func add(cells row: [String], to out: inout StandardOutput) throws(MaskCleanError) {
        let cells = row.map { visible($0) }
        guard let widths else {
            held.append(cells)
            return
        }
        if !headerWritten {
            try out.write(line(header, widths))
            headerWritten = true
        }
        try out.write(line(cells, widths))
    }

    mutating func finish(to out: inout StandardOutput) throws(MaskCleanError) {
        if let widths {
            if !headerWritten { try out.write(line(header, widths)) }
            return
        }
        let widths = fitted([header] + held)
        for cells in [header] + held { try out.write(line(cells, widths)) }
    }

    private func fitted(_ rows: [[String]]) -> [Int] {
        header.indices.map { index in
            min(Self.maximumWidth, max(known[index].count, rows.map { $0[index].count }.max() ?? 0))
        }
    }

    private func line(_ cells: [String], _ widths: [Int]) -> String {
        var text = zip(cells, widths).map { cell, width in
            let shown = cell.count > width ? String(cell.prefix(width - 1)) + "…" : cell
            return shown + String(repeating: " ", count: width - shown.count)
        }.joined(separator: "  ")
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }
}

/// A JSON string literal, escaped as the library's writers escape one: quotes, backslashes and
/// control characters (`\n`, `\r`, `\t`, other controls `\u00XX`); all else as it is.
private func jsonQuoted(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": quoted += "\\\""
        case "\\": quoted += "\\\\"
        case "\n": quoted += "\\n"
        case "\r": quoted += "\\r"
        case "\t": quoted += "\\t"
        case "\u{0}"..<"\u{20}":
            let digits = String(scalar.value, radix: 16)
            quoted += "\\u00" + (digits.count < 2 ? "0" : "") + digits
        default: quoted.unicodeScalars.append(scalar)
        }
    }
    return quoted + "\""
}
