// What `apply` works out: the column its flags describe, compiled into a mask, and each value's
// outcome as a row. Subcommands/Apply.swift reads the flags; ApplyOutput.swift shows the rows.

import MaskClean
import MaskEngine

/// A column's settings, as `apply` takes them from flags.
struct ApplyColumn {
    var syntax: Syntax = .inputMask
    var format: String
    var affineFormats: [String] = []
    var strategy: AffinityStrategy = .bestStatus
    var autocomplete = true
    /// `--notation`, `--rtl`, `--template`, `--symbols`: the options only one syntax has.
    var syntaxOptions = SyntaxOptions()
    /// Show the template column, with this placeholder for unfilled slots.
    var placeholder: Character?

    /// Compiles the column, or says what is wrong with it (exit 64: it came from the command line).
    func compile() throws(MaskCleanError) -> AffineMask {
        do {
            try Notation.checkDistinct(syntaxOptions.notations)
            return try AffineMask(
                syntax: syntax, format: format, affineFormats: affineFormats, options: syntaxOptions,
                strategy: strategy, autocomplete: autocomplete)
        } catch let error as AffineFormatError {
            let which = error.affineIndex.map { "--affine \"\(affineFormats[$0])\"" } ?? "format"
            throw .usage("\(which): \(error.error)")
        } catch {
            throw .usage("--notation: \(error)")
        }
    }

    /// One value's outcome through `mask`, the column compiled.
    func row(_ mask: AffineMask, value: String) -> ApplyRow {
        guard !value.isEmpty else {
            return ApplyRow(
                value: value, formatted: "", extracted: "", status: .empty, format: "", placeholder: "",
                dropped: "", template: placeholder.map { _ in "" })
        }
        let outcome = mask.apply(value)
        let chosen = mask.masks[outcome.chosen]
        return ApplyRow(
            value: value, formatted: outcome.result.formatted, extracted: outcome.result.extracted,
            status: outcome.result.status, format: chosen.format, placeholder: chosen.placeholder,
            dropped: outcome.result.dropped,
            template: placeholder.map { mask.template(value, placeholder: $0) })
    }
}

/// One value's outcome, as `apply` shows it.
struct ApplyRow {
    var value: String
    var formatted: String
    var extracted: String
    var status: CellStatus
    var format: String
    var placeholder: String
    var dropped: String
    var template: String?
}
