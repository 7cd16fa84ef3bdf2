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
    /// `--check`, `--date-order`, `--luhn-prefix`: the spec's `check`, `dateOrder`, `luhnPrefix`.
    var check: CheckName?
    var dateOrder: DateOrder?
    var luhnPrefix = ""
    /// `--case` and `--ignore`: the spec's `case` and `ignore` (`--significant` is in
    /// `syntaxOptions`, as the spec's `significant` is).
    var letterCase = LetterCase.keep
    var ignore = ""

    /// The column compiled: its formats, and its check ready to judge values.
    struct Compiled {
        var mask: AffineMask
        var check: ColumnCheck?
    }

    /// Compiles the column, or says what is wrong with it (exit 64: it came from the command line).
    func compile() throws(MaskCleanError) -> Compiled {
        let mask: AffineMask
        do {
            try Notation.checkDistinct(syntaxOptions.notations)
            mask = try AffineMask(
                syntax: syntax, format: format, affineFormats: affineFormats, options: syntaxOptions,
                strategy: strategy, autocomplete: autocomplete)
        } catch let error as AffineFormatError {
            throw .usage("\(describe(format: error.affineIndex.map { $0 + 1 } ?? 0)): \(error.error)")
        } catch {
            throw .usage("--notation: \(error)")
        }
        guard let check else { return Compiled(mask: mask, check: nil) }
        do {
            return Compiled(
                mask: mask,
                check: try ColumnCheck(check, dateOrder: dateOrder, luhnPrefix: luhnPrefix, mask: mask))
        } catch {
            // The spec loader's words, with the flags in place of the keys.
            throw .usage(
                "--check \(check.rawValue) cannot read \(describe(format: error.format)): \(error.reason)")
        }
    }

    /// A format by its index, as the command line gave it: 0 the primary, then `--affine`'s.
    private func describe(format index: Int) -> String {
        index == 0 ? "format" : "--affine \"\(affineFormats[index - 1])\""
    }

    /// With `bestStatus`, a value that fails the check under the chosen format takes the first
    /// other format under which it fits as well and passes, as `run` does (docs/cell-status.md).
    private func otherFormat(
        _ masked: String, _ mask: AffineMask, _ check: ColumnCheck,
        _ chosen: (chosen: Int, result: MaskResult)
    ) -> (chosen: Int, result: MaskResult)? {
        let fits = chosen.result.status
        func passes(_ result: MaskResult, _ format: Int) -> Bool {
            check.judge(
                formatted: letterCase.converted(result.formatted),
                extracted: letterCase.converted(result.extracted), format: format
            ).passes
        }
        guard fits == .complete || fits == .lossy, !passes(chosen.result, chosen.chosen) else { return nil }
        for format in mask.masks.indices where format != chosen.chosen {
            let result = mask.masks[format].apply(masked, autocomplete: mask.autocomplete)
            if result.status == fits && passes(result, format) { return (format, result) }
        }
        return nil
    }

    /// One value's outcome through the column compiled, in the order `run` takes a cell
    /// (docs/cell-status.md): ignored characters out, masked, letters put in the column's case,
    /// and a value that fits a format but fails the check is invalid.
    func row(_ column: Compiled, value: String) -> ApplyRow {
        let mask = column.mask
        let normalized = column.check.map { $0.name.hasNormalizedForm ? "" : nil } ?? nil
        guard !value.isEmpty else {
            return ApplyRow(
                value: value, formatted: "", extracted: "", status: .empty, format: "", placeholder: "",
                dropped: "", normalized: normalized, template: placeholder.map { _ in "" })
        }
        let masked = value.removingIgnored(ignore)
        var outcome = { (chosen: $0.chosen, result: $0.result) }(mask.apply(masked))
        if let check = column.check, strategy == .bestStatus, mask.masks.count > 1,
            let other = otherFormat(masked, mask, check, outcome)
        {
            outcome = other
        }
        let chosen = mask.masks[outcome.chosen]
        var row = ApplyRow(
            value: value, formatted: letterCase.converted(outcome.result.formatted),
            extracted: letterCase.converted(outcome.result.extracted), status: outcome.result.status,
            format: chosen.format, placeholder: chosen.placeholder, dropped: outcome.result.dropped,
            normalized: normalized, template: nil)
        if let placeholder {
            // The formatted value in the column's case, then the rest of the format, as `run`
            // writes the template cell.
            var text = masked
            let buffer = ApplyBuffer()
            let cell = text.withUTF8 { mask.apply(utf8: $0, format: outcome.chosen, into: buffer) }
            row.template = mask.template(formatted: row.formatted, outcome: cell, placeholder: placeholder)
        }
        if let check = column.check, row.status == .complete || row.status == .lossy {
            let judged = check.judge(
                formatted: row.formatted, extracted: row.extracted, format: outcome.chosen)
            if !judged.passes {
                row.status = .invalid
            } else if row.status == .complete, let form = judged.normalized {
                row.normalized = form
            }
        }
        return row
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
    /// The check's canonical form: nil when the column has no check with one (no column), empty
    /// unless the value is complete and passes.
    var normalized: String?
    var template: String?
}

/// `apply --kind phone`: a phone column's rules, and the reader its values go through, as a
/// run's cells do (trimmed only as a spec's `trim` would: not at all).
struct ApplyPhoneColumn {
    let reader: PhoneReader

    /// An unknown `--default-region` is a usage error (exit 64), with the spec loader's words.
    init(defaultRegion: String?, format: PhoneFormat) throws(MaskCleanError) {
        do {
            reader = PhoneReader(rules: try PhoneRules(defaultRegion: defaultRegion, format: format))
        } catch {
            switch error {
            case .unknownRegion(let region):
                throw .usage(
                    "--default-region: unknown region '\(region)': expected an ISO 3166-1 alpha-2 code that has telephone numbers, as GB or us"
                )
            }
        }
    }

    func row(_ value: String) -> ApplyPhoneRow {
        guard !value.isEmpty else {
            return ApplyPhoneRow(
                value: value, formatted: "", extracted: "", status: .empty, country: "", dropped: 0)
        }
        var value = value
        return value.withUTF8 { bytes in
            let reading = reader.read(bytes, region: nil)
            return ApplyPhoneRow(
                value: String(decoding: bytes, as: UTF8.self),
                formatted: String(decoding: reading.formatted, as: UTF8.self),
                extracted: String(decoding: reading.e164, as: UTF8.self), status: reading.status,
                country: String(decoding: reading.region, as: UTF8.self), dropped: reading.droppedCharacters)
        }
    }
}

/// One value read as a phone number, as `apply --kind phone` shows it.
struct ApplyPhoneRow {
    var value: String
    var formatted: String
    /// The E.164 form.
    var extracted: String
    var status: CellStatus
    /// The detected region (alpha-2), or empty.
    var country: String
    /// How many characters were dropped (a letter typed for a digit).
    var dropped: Int
}
