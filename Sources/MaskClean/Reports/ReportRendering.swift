import FoundationEssentials

extension Report {
    /// The report as JSON, keys in the order of docs/report.md, two-space indented.
    public var json: String {
        var out = JSONTextWriter()
        out.beginObject()
        out.key("rows")
        out.raw(String(rows))
        out.key("passed")
        out.raw(passed ? "true" : "false")
        out.key("error")
        if let error {
            out.inlineObject([
                ("status", String(error.status)), ("message", JSONTextWriter.quoted(error.message)),
                ("file", error.file.map(JSONTextWriter.quoted) ?? "null"),
                ("line", error.line.map(String.init) ?? "null"),
            ])
        } else {
            out.raw("null")
        }
        // Where the report came from and when (docs/report.md#where-a-report-came-from).
        for (key, value) in [
            ("input", JSONTextWriter.quoted(input)),
            ("inputBytes", origin.inputBytes.map(String.init) ?? "null"),
            (
                "delimiter",
                origin.delimiter.map { JSONTextWriter.quoted(String(UnicodeScalar($0))) } ?? "null"
            ),
            ("delimiterDetected", origin.delimiterDetected ? "true" : "false"),
            ("encoding", origin.encoding.map { JSONTextWriter.quoted($0.name) } ?? "null"),
            ("spec", origin.spec.map(JSONTextWriter.quoted) ?? "null"),
            ("maskcleanVersion", JSONTextWriter.quoted(origin.version)),
            ("started", origin.started.map { JSONTextWriter.quoted(ReportTime.rfc3339($0)) } ?? "null"),
            ("durationSeconds", origin.duration.map(ReportTime.seconds) ?? "null"),
        ] {
            out.key(key)
            out.raw(value)
        }
        out.key("minRows")
        out.raw(String(minRows))
        out.key("samplesRedacted")
        out.raw(samplesRedacted ? "true" : "false")
        out.key("specFingerprint")
        out.raw(specFingerprint.isEmpty ? "null" : JSONTextWriter.quoted(specFingerprint))
        out.key("parts")
        out.inlineObjects(partitions) {
            [
                ("part", $0.part.map(JSONTextWriter.quoted) ?? "null"),
                ("firstRow", $0.firstRow.map(String.init) ?? "null"), ("rows", String($0.rows)),
            ]
        }
        out.key("rejected")
        out.beginObject()
        out.key("count")
        out.raw(String(rejectedCount))
        out.key("max")
        out.raw(String(maxRejected))
        out.key("passed")
        out.raw(rejectedPassed ? "true" : "false")
        out.key("samples")
        out.inlineObjects(rejected) {
            [("line", String($0.line)), ("reason", JSONTextWriter.quoted($0.reason))]
                + Self.partMember($0.part)
        }
        out.endObject()
        if blankLines > 0 {
            out.key("blankLines")
            out.beginObject()
            out.key("count")
            out.raw(String(blankLines))
            out.key("lines")
            out.raw("[" + blankLineNumbers.map(String.init).joined(separator: ", ") + "]")
            if blankLineParts.contains(where: { $0 != nil }) {
                out.key("parts")
                out.raw(
                    "["
                        + blankLineParts.map { $0.map(JSONTextWriter.quoted) ?? "null" }.joined(
                            separator: ", ") + "]")
            }
            out.endObject()
        }
        out.key("baseline")
        if let baseline {
            // From a baseline of no rows there is no share: `null`.
            let change = rowsChange.map {
                Self.jsonNumber(ChangeText.text($0, decimals: 4, limit: maxRowsChange.map(Ratio.decimal)))
            }
            out.inlineObject([
                ("report", JSONTextWriter.quoted(baseline.path)), ("rows", String(baseline.rows)),
                ("rowsChange", change ?? "null"),
                ("maxRowsChange", maxRowsChange.map { formatNumber($0) } ?? "null"),
                ("passed", rowsChangePassed ? "true" : "false"),
            ])
        } else {
            out.raw("null")
        }
        out.key("columns")
        out.beginArray()
        for column in columns {
            out.element()
            out.beginObject()
            let stats = column.stats
            out.key("name")
            out.raw(JSONTextWriter.quoted(column.spec.name))
            for (name, value) in [
                ("complete", stats.complete), ("lossy", stats.lossy), ("incomplete", stats.incomplete),
                ("invalid", stats.invalid), ("empty", stats.empty), ("rejected", column.rejected),
            ] {
                out.key(name)
                out.raw(String(value))
            }
            out.key("completeRatio")
            out.raw(column.completeRatio.text(decimals: 4, against: column.spec.minComplete))
            out.key("minComplete")
            out.raw(column.spec.minComplete.map { formatNumber($0) } ?? "null")
            out.key("invalidRatio")
            out.raw(column.invalidRatio.text(decimals: 4, atMost: column.spec.maxInvalid))
            out.key("maxInvalid")
            out.raw(column.spec.maxInvalid.map { formatNumber($0) } ?? "null")
            out.key("passed")
            out.raw(column.passed ? "true" : "false")
            out.key("failedThresholds")
            out.raw("[" + column.failedThresholds.map(JSONTextWriter.quoted).joined(separator: ", ") + "]")
            out.key("warnComplete")
            out.raw(column.spec.warnComplete.map { formatNumber($0) } ?? "null")
            out.key("warned")
            out.raw(column.warned ? "true" : "false")
            out.key("keyFound")
            out.raw(column.keyFound ? "true" : "false")
            out.key("baseline")
            if let base = column.baseline {
                let today = [
                    stats.complete, stats.lossy, stats.incomplete, stats.invalid, stats.empty,
                    column.rejected,
                ]
                let changes = zip(Baseline.statusNames, zip(today, base.statuses)).map {
                    "\(JSONTextWriter.quoted($0)): \($1.0 - $1.1)"
                }
                out.inlineObject([
                    ("completeRatio", base.completeRatio.truncated(4)),
                    ("completeChange", Self.jsonNumber(column.completeChangeText(decimals: 4))),
                    ("maxDrop", column.spec.maxDrop.map { formatNumber($0) } ?? "null"),
                    ("passed", column.dropPassed ? "true" : "false"),
                    ("changes", "{" + changes.joined(separator: ", ") + "}"),
                ])
            } else {
                out.raw("null")
            }
            out.key("droppedCharacters")
            out.raw(String(stats.droppedCharacters))
            out.key("formats")
            out.beginObject()
            for (format, count) in column.formatTotals {
                out.key(format)
                out.raw(String(count))
            }
            out.endObject()
            if column.spec.phone != nil {
                // A phone column's cells by detected region, most first (docs/report.md).
                out.key("countries")
                out.beginObject()
                for (region, count) in stats.countries {
                    out.key(region)
                    out.raw(String(count))
                }
                out.endObject()
            }
            out.key("samples")
            out.beginObject()
            for (name, samples) in stats.samplesByStatus {
                out.key(name)
                out.inlineObjects(samples) { sample in
                    var members = [("row", String(sample.row))]
                    if !keyColumns.isEmpty {
                        let pairs = zip(keyColumns, sample.key).map {
                            "\(JSONTextWriter.quoted($0)): \(JSONTextWriter.quoted($1))"
                        }
                        members.append(("key", "{" + pairs.joined(separator: ", ") + "}"))
                    }
                    members.append(("value", JSONTextWriter.quoted(sample.value)))
                    if let formatted = sample.formatted {
                        members.append(("formatted", JSONTextWriter.quoted(formatted)))
                    }
                    if let dropped = sample.dropped {
                        members.append(("dropped", JSONTextWriter.quoted(dropped)))
                    }
                    return members + Self.partMember(sample.part)
                }
            }
            out.endObject()
            out.key("shapes")
            out.beginObject()
            for (name, shapes) in stats.shapesByStatus {
                out.key(name)
                out.inlineObjects(shapes.top()) {
                    [("shape", JSONTextWriter.quoted($0.shape)), ("count", String($0.count))]
                }
            }
            out.endObject()
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text + "\n"
    }

    /// A signed decimal as a JSON number: without the `+` that shows a rise.
    private static func jsonNumber(_ text: String) -> String {
        text.hasPrefix("+") ? String(text.dropFirst()) : text
    }

    /// A sample's or a rejected record's partition, written only when it has one.
    private static func partMember(_ part: String?) -> [(String, String)] {
        part.map { [("part", JSONTextWriter.quoted($0))] } ?? []
    }

    /// The short table for stderr: per column, complete %, lossy, incomplete, invalid, empty,
    /// threshold and the verdict; then each column's invalid share against its `maxInvalid`, and
    /// the overall verdict.
    public var summary: String {
        let header = ["column", "complete", "lossy", "incomplete", "invalid", "empty", "threshold", "result"]
        var rowsOfText: [[String]] = [header]
        for column in columns {
            let stats = column.stats
            let minimum = column.spec.minComplete
            rowsOfText.append([
                visible(column.spec.name),
                column.completeRatio.text(decimals: 2, scale: 2, against: minimum) + "%",
                String(stats.lossy),
                String(stats.incomplete),
                String(stats.invalid),
                String(stats.empty),
                minimum.map(Self.percentage) ?? "-",
                column.verdict,
            ])
        }
        let widths = header.indices.map { index in rowsOfText.map { $0[index].count }.max() ?? 0 }
        var lines: [String] = []
        for row in rowsOfText {
            let cells = row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + padding : padding + cell
            }
            lines.append(cells.joined(separator: "  "))
        }
        for column in columns {
            guard let maximum = column.spec.maxInvalid else { continue }
            lines.append(
                "\(visible(column.spec.name)): \(column.invalidShare)% invalid (maxInvalid \(Self.percentage(maximum))): \(column.invalidPassed ? "passed" : "FAILED")"
            )
        }
        for column in columns where column.spec.phone != nil {
            lines.append("\(visible(column.spec.name)): countries \(column.topCountries)")
        }
        if let baseline {
            for column in columns {
                guard let line = column.baselineLine else { continue }
                lines.append("\(visible(column.spec.name)): \(line)")
            }
            let change =
                rowsChange.map {
                    ChangeText.text(
                        $0, decimals: 2, scale: 2, limit: maxRowsChange.map { Ratio.decimal($0) * 100 }) + "%"
                } ?? "from none"
            var line = "\(rows) row\(rows == 1 ? "" : "s"), \(baseline.rows) in the baseline (\(change)"
            if let maximum = maxRowsChange {
                line +=
                    "; maxRowsChange \(Self.percentage(maximum))): \(rowsChangePassed ? "passed" : "FAILED")"
            } else {
                line += ")"
            }
            lines.append(line)
        }
        // A delimiter other than the comma, found by looking: said, so that a wrong guess shows.
        if origin.delimiterDetected, let delimiter = origin.delimiter, delimiter != UInt8(ascii: ",") {
            lines.append("read with the delimiter \(DelimiterDetection.shown(delimiter)) (detected)")
        }
        if blankLines > 0 {
            // A partition's name (`--part`, a merged report's) is data, shown as a column's is.
            let shown = visible(blankLineNumbers.indices.map(blankLinePlace).joined(separator: ", "))
            let more = blankLines > blankLineNumbers.count ? ", …" : ""
            lines.append(
                "\(blankLines) blank line\(blankLines == 1 ? "" : "s") skipped (line\(blankLines == 1 ? "" : "s") \(shown)\(more))"
            )
        }
        if rejectedCount > 0 || !rejectedPassed {
            let records = rejectedCount == 1 ? "record" : "records"
            lines.append(
                "\(rejectedCount) \(records) rejected (maxRejected \(maxRejected)): \(rejectedPassed ? "passed" : "FAILED")"
            )
        }
        if !rowsPassed {
            lines.append("\(rows) row\(rows == 1 ? "" : "s") (minRows \(minRows)): FAILED")
        } else {
            var verdict = "\(rows) row\(rows == 1 ? "" : "s")"
            if rejectedCount > 0 { verdict += ", \(rejectedCount) rejected" }
            var reasons = columnReasons
            if !rejectedPassed { reasons.append("more records rejected than maxRejected") }
            if !rowsChangePassed { reasons.append("rows changed more than maxRowsChange") }
            verdict += reasons.isEmpty ? ": passed" : ": FAILED (" + reasons.joined(separator: ", ") + ")"
            if warnedColumns > 0 {
                verdict +=
                    "; WARN (\(warnedColumns) column\(warnedColumns == 1 ? "" : "s") below warnComplete)"
            }
            lines.append(verdict)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A threshold as a percentage, exactly as written in the spec: 0.95 is `95.00%`, 0.98765 is
    /// `98.765%`.
    static func percentage(_ ratio: Double) -> String {
        var text = "\(Ratio.decimal(ratio) * 100)"
        let decimals = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? -1
        if decimals < 0 { text += "." }
        text += String(repeating: "0", count: max(0, 2 - max(decimals, 0)))
        return text + "%"
    }

    /// Why columns failed, for the verdict: `1 column below threshold` (`minComplete`), `1 column
    /// above maxInvalid`. A column that missed both is counted in both.
    var columnReasons: [String] {
        let below = columns.count { !$0.completePassed }
        let above = columns.count { !$0.invalidPassed }
        var reasons: [String] = []
        if below > 0 { reasons.append("\(below) column\(below == 1 ? "" : "s") below threshold") }
        if above > 0 { reasons.append("\(above) column\(above == 1 ? "" : "s") above maxInvalid") }
        let fell = columns.count { !$0.dropPassed }
        if fell > 0 { reasons.append("\(fell) column\(fell == 1 ? "" : "s") fell more than maxDrop") }
        return reasons
    }

    private func formatNumber(_ value: Double) -> String {
        let text = String(value)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

extension Report.Column {
    /// How many countries the summaries name, most cells first.
    static let topCountriesShown = 5

    /// A phone column's most common regions: `GB 120, US 31, FR 2 (and 3 more)`, or `none`.
    var topCountries: String {
        let countries = stats.countries
        guard !countries.isEmpty else { return "none" }
        let shown = countries.prefix(Self.topCountriesShown).map { "\($0.region) \($0.count)" }
        let more = countries.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? " (and \(more) more)" : "")
    }

    /// `pass`, `WARN` (below `warnComplete`) or `FAIL` (below `minComplete`).
    public var verdict: String { !passed ? "FAIL" : warned ? "WARN" : "pass" }
    /// The invalid ratio as a percentage with two decimals, on the side of `maxInvalid` its
    /// verdict is.
    var invalidShare: String { invalidRatio.text(decimals: 2, scale: 2, atMost: spec.maxInvalid) }
    /// How many cells each format was chosen for, in spec order: identical format texts share one
    /// entry, and formats never chosen are left out.
    var formatTotals: [(format: String, count: Int)] {
        var totals: [(format: String, count: Int)] = []
        for (format, count) in zip(spec.formats, stats.formatCounts) where count > 0 {
            if let index = totals.firstIndex(where: { $0.format == format }) {
                totals[index].count += count
            } else {
                totals.append((format, count))
            }
        }
        return totals
    }
}

/// Writes indented JSON text by hand, so that keys keep the order the report gives them.
struct JSONTextWriter {
    private(set) var text = ""
    private var depth = 0
    private var firstInContainer = true

    /// An array of objects, one a line: `members` gives each one's keys and JSON values.
    mutating func inlineObjects<Item>(_ items: [Item], _ members: (Item) -> [(String, String)]) {
        beginArray()
        for item in items {
            element()
            inlineObject(members(item))
        }
        endArray()
    }

    mutating func beginObject() { begin("{") }
    mutating func endObject() { end("}") }
    mutating func beginArray() { begin("[") }
    mutating func endArray() { end("]") }

    private mutating func begin(_ opener: String) {
        text += opener
        depth += 1
        firstInContainer = true
    }

    /// An empty container closes on its line; a full one on a line of its own.
    private mutating func end(_ closer: String) {
        depth -= 1
        text += firstInContainer ? closer : "\n" + indent + closer
        firstInContainer = false
    }

    mutating func key(_ name: String) {
        element()
        text += Self.quoted(name) + ": "
    }

    /// Starts the next member or element on its own line.
    mutating func element() {
        text += (firstInContainer ? "" : ",") + "\n" + indent
        firstInContainer = false
    }

    mutating func raw(_ value: String) {
        text += value
    }

    /// A small object on one line: `{"row": 17, "value": "555"}`.
    mutating func inlineObject(_ members: [(String, String)]) {
        text += "{" + members.map { "\(Self.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    private var indent: String { String(repeating: "  ", count: depth) }

    /// A JSON string literal.
    static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        JSONStringEncoder.appendQuoted(Array(value.utf8)[...], to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
