import FoundationEssentials

/// The proposed spec as text (docs/command-line.md, `describe`): YAML with a comment for every
/// column, or plain JSON. Both say the same; every string is quoted, so that no YAML reader takes
/// a format such as `0000` for a number.
extension SpecProposal {
    /// Where the YAML's first line points editors for the spec's JSON Schema: a file beside the
    /// spec, which `maskclean schema > spec.schema.json` writes (docs/spec.schema.json). Written
    /// only when that file is there: a line that points at nothing makes editors report an error.
    public static let schemaLine = "# yaml-language-server: $schema=spec.schema.json"
    /// The schema file's name, beside the spec.
    public static let schemaFile = "spec.schema.json"
    /// What the YAML says instead when there is no schema beside it: how to have one.
    static let schemaHint = [
        "# For an editor to check it: maskclean schema > spec.schema.json beside it, then make this its",
        "# first line: \(schemaLine)",
    ]

    /// The strategy proposed for every column: a cell is lossy or incomplete only when no format
    /// takes it whole, which is what batch work wants (docs/mask-syntax.md).
    static let strategy = "bestStatus"

    /// The spec as JSON.
    public var json: String { Self.json(proposed) }

    static func json(_ columns: [ColumnProposal]) -> String {
        var writer = JSONTextWriter()
        writer.beginObject()
        writer.key("columns")
        writer.beginArray()
        for column in columns {
            writer.element()
            writer.beginObject()
            for (key, value) in members(column) {
                writer.key(key)
                switch value {
                case .list(let list):
                    writer.beginArray()
                    for item in list {
                        writer.element()
                        writer.raw(JSONTextWriter.quoted(item))
                    }
                    writer.endArray()
                case .text(let text): writer.raw(JSONTextWriter.quoted(text))
                case .number(let number): writer.raw(number)
                case .null: writer.raw("null")
                }
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.text + "\n"
    }

    /// The spec as YAML, each column with a comment of its figures, and a comment for each column
    /// left out saying why. `schemaBeside`: whether `spec.schema.json` is where the spec goes,
    /// for the first line to point at (`schemaLine`); without it the YAML says how to have it.
    public func yaml(schemaBeside: Bool) -> String {
        var lines = schemaBeside ? [Self.schemaLine] : []
        lines += source
        lines.append("# Edit it, then try it on the data: maskclean check SPEC INPUT")
        if !schemaBeside { lines += Self.schemaHint }
        lines.append("columns:")
        for column in columns {
            let name = Self.quoted(column.name)
            if let reason = column.leftOut {
                lines.append("  # \(name) left out: \(reason).")
                continue
            }
            var figures = "  # \(name): \(SpecProposer.plural(column.values, "value"))"
            figures += column.sampledValues == nil ? " sampled" : ""
            if column.empty > 0 { figures += " (and \(column.empty) empty)" }
            // The kind and shapes are the sample's, when it is not every record read.
            let judged = column.sampledValues ?? column.values
            figures += column.sampledValues.map { "; of the \($0) sampled," } ?? ","
            if let kind = column.kind {
                figures += " \(SpecProposer.percent(column.covered, of: judged)) \(kind)"
            } else {
                figures += " \(SpecProposer.percent(column.covered, of: judged)) in these formats' shapes"
            }
            lines.append(
                figures + (column.notes.isEmpty ? "" : "; " + column.notes.joined(separator: "; ")) + ".")
            var outcome = "  #   \(SpecProposer.percent(column.complete, of: column.values)) complete"
            if !column.uncovered.isEmpty {
                outcome +=
                    "; not complete, by shape: "
                    + column.uncovered.map { "\(Self.quoted(Self.shortened($0.shape))) \($0.count)" }.joined(
                        separator: ", ")
            }
            lines.append(outcome + ".")
            if !column.omittedOutputs.isEmpty {
                lines.append(
                    "  #   "
                        + column.omittedOutputs.joined(separator: ", ")
                        + ": null, as the input has a column of the default name.")
            }
            for (index, (key, value)) in Self.members(column).enumerated() {
                let lead = index == 0 ? "  - " : "    "
                switch value {
                case .list(let list):
                    lines.append(lead + key + ":")
                    lines += list.map { "      - " + Self.quoted($0) }
                case .text(let text): lines.append(lead + key + ": " + Self.quoted(text))
                case .number(let number): lines.append(lead + key + ": " + number)
                case .null: lines.append(lead + key + ": null")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the spec was proposed from: every record read, or a sample spread over them, whose
    /// shares of a kind or of shapes are the only figures not of every record.
    private var source: [String] {
        guard let sampledRecords else {
            return [
                "# Proposed by maskclean describe from \(SpecProposer.plural(records, "record")) of \(Self.quoted(file))."
            ]
        }
        return [
            "# Proposed by maskclean describe from a sample of \(sampledRecords) of the \(records) records of \(Self.quoted(file)),",
            "# spread over them all; the shares of a kind or of shapes are the sample's, the other figures of all \(records).",
        ]
    }

    /// A column's keys in the order both forms write them: strings, lists of strings, and
    /// `minComplete` as its number's text.
    private static func members(_ column: ColumnProposal) -> [(String, Member)] {
        if let phone = column.phone {
            var members: [(String, Member)] = [("name", .text(column.name)), ("kind", .text("phone"))]
            if let region = phone.defaultRegion { members.append(("defaultRegion", .text(region))) }
            members.append(("minComplete", .number(minComplete(column.minCompleteHundredths))))
            return members + column.omittedOutputs.map { ($0, .null) }
        }
        var members: [(String, Member)] = [
            ("name", .text(column.name)), ("format", .text(column.formats[0])),
        ]
        if column.formats.count > 1 {
            members.append(("affineFormats", .list(Array(column.formats.dropFirst()))))
        }
        members.append(("affinityStrategy", .text(strategy)))
        if let check = column.check { members.append(("check", .text(check.rawValue))) }
        if let order = column.dateOrder { members.append(("dateOrder", .text(order.rawValue))) }
        if !column.significant.isEmpty { members.append(("significant", .text(column.significant))) }
        if let letterCase = column.letterCase { members.append(("case", .text(letterCase))) }
        members.append(("minComplete", .number(minComplete(column.minCompleteHundredths))))
        members += column.omittedOutputs.map { ($0, .null) }
        return members
    }

    /// A shape as a comment shows it: whole, or its first 60 characters and `…`, so that the
    /// shape of a long note does not make a comment of a page.
    static func shortened(_ shape: String) -> String {
        shape.count > 60 ? shape.prefix(60) + "…" : shape
    }

    /// Hundredths as the shortest decimal: `0.9`, `0.93`, `1`, `0`.
    static func minComplete(_ hundredths: Int) -> String {
        switch hundredths {
        case 100: return "1"
        case 0: return "0"
        case let tenths where tenths % 10 == 0: return "0.\(tenths / 10)"
        default: return hundredths < 10 ? "0.0\(hundredths)" : "0.\(hundredths)"
        }
    }

    /// A YAML double-quoted string: `"` and `\` escaped, and every control or formatting
    /// character (a line break, a mark that reorders text) written as an escape, so that a
    /// string, and a comment quoting one, stays on its line and reads as it is.
    static func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map(escaped).joined() + "\""
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        if scalar == "\"" || scalar == "\\" { return "\\" + String(scalar) }
        let invisible: Set<Unicode.GeneralCategory> = [
            .control, .format, .lineSeparator, .paragraphSeparator,
        ]
        guard invisible.contains(scalar.properties.generalCategory) else { return String(scalar) }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let width = scalar.value > 0xFFFF ? 8 : 4
        return (width == 8 ? "\\U" : "\\u") + String(repeating: "0", count: width - hex.count) + hex
    }

    /// Writes the spec to `path`: JSON for `.json`, YAML for `.yaml` or `.yml`, through a
    /// temporary file renamed into place, so that a failure leaves nothing half-written.
    public func write(to path: String) throws(MaskCleanError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let schema = (directory == "/" ? "" : directory) + "/" + Self.schemaFile
        let text =
            try Self.isJSON(path) ? json : yaml(schemaBeside: FileManager.default.fileExists(atPath: schema))
        let output = try OutputFile(path: path)
        do throws(MaskCleanError) {
            try output.write(Array(text.utf8))
            try output.commit()
        } catch {
            output.discard()
            throw error
        }
    }

    /// Whether a spec written to `path` is JSON (`.json`) rather than YAML (`.yaml`, `.yml`);
    /// any other extension is a usage error.
    public static func isJSON(_ path: String) throws(MaskCleanError) -> Bool {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".json") { return true }
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return false }
        throw .usage("-o \(path): a spec is written as .yaml, .yml or .json")
    }
}

/// A value of a column's member, as both forms write it.
private enum Member {
    case text(String)
    case list([String])
    /// A number's text, written unquoted.
    case number(String)
    case null
}
