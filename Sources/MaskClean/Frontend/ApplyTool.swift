import Foundation
import MaskEngine

/// `maskclean apply`: try a column's formats on values from the terminal, and see what a run
/// would write for each.
public enum ApplyTool {
    /// A column's settings, as `apply` takes them from flags.
    public struct Column: Sendable {
        public var syntax: Syntax = .inputMask
        public var format: String
        public var affineFormats: [String] = []
        public var strategy: AffinityStrategy = .bestStatus
        public var notations: [Notation] = []
        public var autocomplete = true
        public var rightToLeft = false
        public var syntaxOptions = SyntaxOptions()
        /// Show the template column, with this placeholder for unfilled slots.
        public var placeholder: Character?

        public init(format: String) {
            self.format = format
        }
    }

    /// Compiles the column, or says what is wrong with it (exit 64: it came from the command line).
    public static func compile(_ column: Column) throws(MaskCleanError) -> AffineMask {
        do {
            try Notation.checkDistinct(column.notations)
            return try AffineMask(
                syntax: column.syntax, format: column.format, affineFormats: column.affineFormats,
                notations: column.notations, syntaxOptions: column.syntaxOptions, strategy: column.strategy,
                autocomplete: column.autocomplete, rightToLeft: column.rightToLeft)
        } catch let error as AffineFormatError {
            let which = error.affineIndex.map { "--affine \"\(column.affineFormats[$0])\"" } ?? "format"
            throw .usage("\(which): \(error.error)")
        } catch {
            throw .usage("--notation: \(error)")
        }
    }

    /// One value's outcome, as `apply` shows it.
    public struct Row: Sendable {
        public var value: String
        public var formatted: String
        public var extracted: String
        public var status: CellStatus
        public var format: String
        public var placeholder: String
        public var dropped: String
        public var template: String?
    }

    /// One value's outcome.
    public static func row(_ mask: AffineMask, _ column: Column, value: String) -> Row {
        guard !value.isEmpty else {
            return Row(
                value: value, formatted: "", extracted: "", status: .empty, format: "", placeholder: "",
                dropped: "", template: column.placeholder.map { _ in "" })
        }
        let outcome = mask.apply(value)
        let chosen = mask.masks[outcome.chosen]
        return Row(
            value: value, formatted: outcome.result.formatted, extracted: outcome.result.extracted,
            status: outcome.result.status, format: chosen.format, placeholder: chosen.placeholder,
            dropped: outcome.result.dropped,
            template: column.placeholder.map { mask.template(value, placeholder: $0) })
    }

    /// A row's cells in the table's column order, the template last when there is one.
    public static func cells(_ row: Row) -> [String] {
        var cells = [
            row.value, row.formatted, row.extracted, row.status.rawValue, row.format, row.placeholder,
            row.dropped,
        ]
        if let template = row.template { cells.append(template) }
        return cells
    }

    public static let header = [
        "value", "formatted", "extracted", "status", "format", "placeholder", "dropped",
    ]

    /// A row as one line of JSON.
    public static func jsonLine(_ row: Row) -> String {
        var members = [
            ("value", row.value), ("formatted", row.formatted), ("extracted", row.extracted),
            ("status", row.status.rawValue), ("format", row.format), ("placeholder", row.placeholder),
            ("dropped", row.dropped),
        ]
        if let template = row.template { members.append(("template", template)) }
        return "{"
            + members.map { "\(JSONTextWriter.quoted($0.0)): \(JSONTextWriter.quoted($0.1))" }
            .joined(separator: ", ") + "}"
    }
}
