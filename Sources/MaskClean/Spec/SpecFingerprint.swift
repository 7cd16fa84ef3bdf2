import CLibMD
import MaskEngine

/// The fingerprint of a spec (docs/report.md): SHA-256 over a canonical text of what the spec
/// says once parsed, every default filled in. Two specs that mask, count and judge the same way
/// share it however they are written (key order, spacing, `0.980` or `0.98`, a default spelled
/// out or left out, JSON or YAML), so partial reports can prove they were made with one spec.
enum SpecFingerprint {
    /// Bumped when the canonical text changes, so that old and new fingerprints never meet.
    static let version = "maskclean-spec-1"

    static func of(_ spec: Spec) -> String {
        "sha256:" + sha256(Array(canonicalText(spec).utf8)).map { hexDigits(UInt32($0), count: 2) }.joined()
    }

    /// SHA-256 (FIPS 180-4) of `bytes`, by libmd, the BSD message digests.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var context = SHA2_CTX()
        SHA256Init(&context)
        bytes.withUnsafeBufferPointer { SHA256Update(&context, $0.baseAddress, $0.count) }
        var digest = [UInt8](repeating: 0, count: 32)
        SHA256Final(&digest, &context)
        return digest
    }

    /// One line per setting, in a fixed order; strings as JSON strings, so that no value can
    /// pass for another setting's.
    static func canonicalText(_ spec: Spec) -> String {
        var lines = [
            version, "maxRejected \(spec.maxRejected)", "minRows \(spec.minRows)", "samples \(spec.samples)",
        ]
        // Only when given: a spec without a key keeps the fingerprint it had before keys.
        if !spec.key.isEmpty { lines.append("key " + spec.key.map(quoted).joined(separator: " ")) }
        // The drift thresholds too: lines only a spec that gives them writes.
        if let change = spec.maxRowsChange { lines.append("maxRowsChange \(Ratio.decimal(change))") }
        let drops = spec.columns.map { $0.maxDrop.map { "\(Ratio.decimal($0))" } ?? "null" }
        if spec.columns.contains(where: { $0.maxDrop != nil }) {
            lines.append("maxDrop " + drops.joined(separator: " "))
        }
        for column in spec.columns {
            lines.append("column \(quoted(column.name))")
            if let phone = column.phone {
                lines += phoneLines(column, phone)
                continue
            }
            lines.append("  syntax \(column.syntax.rawValue)")
            lines.append("  format \(quoted(column.format))")
            for format in column.affineFormats { lines.append("  affineFormat \(quoted(format))") }
            lines.append("  affinityStrategy \(column.affinityStrategy.rawValue)")
            for notation in column.syntaxOptions.notations {
                lines.append(
                    "  notation \(quoted(String(notation.character))) \(quoted(notation.characterSet)) \(notation.isOptional)"
                )
            }
            lines.append("  template \(column.syntaxOptions.template.map(quoted) ?? "null")")
            lines.append("  symbols \(column.syntaxOptions.symbols.map(quoted) ?? "null")")
            lines.append("  placeholderCharacter \(quoted(String(column.placeholderCharacter)))")
            lines.append("  autocomplete \(column.autocomplete)")
            lines.append("  rightToLeft \(column.syntaxOptions.rightToLeft)")
            lines.append("  trim \(column.trim)")
            lines.append("  required \(column.required)")
            lines.append("  minComplete \(column.minComplete.map { "\(Ratio.decimal($0))" } ?? "null")")
            lines.append("  warnComplete \(column.warnComplete.map { "\(Ratio.decimal($0))" } ?? "null")")
            lines.append("  replace \(column.replace?.rawValue ?? "null")")
            // Lines a spec without the keys of checks, case and separators (docs/spec.md#checks)
            // does not write: its fingerprint stays what it was before they existed.
            if let check = column.check {
                lines.append("  check \(check.name.rawValue)")
                lines.append("  dateOrder \(check.dateOrder?.rawValue ?? "null")")
                lines.append("  luhnPrefix \(quoted(check.luhnPrefix))")
                lines.append("  normalizedColumn \(column.normalizedColumn.map(quoted) ?? "null")")
                lines.append("  maxInvalid \(column.maxInvalid.map { "\(Ratio.decimal($0))" } ?? "null")")
            }
            if column.letterCase != .keep { lines.append("  case \(column.letterCase.rawValue)") }
            if !column.ignore.isEmpty { lines.append("  ignore \(quoted(column.ignore))") }
            if !column.syntaxOptions.significant.isEmpty {
                lines.append("  significant \(quoted(column.syntaxOptions.significant))")
            }
            lines.append("  replaceIncomplete \(column.replaceIncomplete)")
            for (key, name) in [
                ("formattedColumn", column.formattedColumn), ("extractedColumn", column.extractedColumn),
                ("statusColumn", column.statusColumn), ("templateColumn", column.templateColumn),
            ] {
                lines.append("  \(key) \(name.map(quoted) ?? "null")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A phone column's lines (docs/spec.md#phone-columns): it has no formats, syntax, check or
    /// template, so none of their lines; a spec without phone columns keeps its fingerprint.
    private static func phoneLines(_ column: ColumnSpec, _ phone: PhoneRules) -> [String] {
        [
            "  kind phone",
            "  defaultRegion \(phone.defaultRegion.map(quoted) ?? "null")",
            "  regionColumn \(column.regionColumn.map(quoted) ?? "null")",
            "  phoneFormat \(phone.format.rawValue)",
            "  trim \(column.trim)",
            "  required \(column.required)",
            "  minComplete \(column.minComplete.map { "\(Ratio.decimal($0))" } ?? "null")",
            "  warnComplete \(column.warnComplete.map { "\(Ratio.decimal($0))" } ?? "null")",
            "  maxInvalid \(column.maxInvalid.map { "\(Ratio.decimal($0))" } ?? "null")",
            "  replace \(column.replace?.rawValue ?? "null")",
            "  replaceIncomplete \(column.replaceIncomplete)",
        ]
            + [
                ("formattedColumn", column.formattedColumn), ("extractedColumn", column.extractedColumn),
                ("statusColumn", column.statusColumn), ("countryColumn", column.countryColumn),
            ].map { "  \($0.0) \($0.1.map(quoted) ?? "null")" }
    }

    private static func quoted(_ text: String) -> String { JSONTextWriter.quoted(text) }
}
