extension Report {
    /// The Markdown summary (`--markdown`, GitHub's step summary): the terminal summary's table
    /// with WARN and FAILED marked, the run's findings, then each column's samples. Every value
    /// from the data is escaped (`MarkdownText`).
    public var markdown: String { markdown(limit: Int.max) }

    /// The summary in at most `limit` bytes of UTF-8: samples are left out, last column first,
    /// until it fits (GitHub takes at most 1 MiB of step summary).
    public func markdown(limit: Int) -> String {
        let head = markdownHead
        var sections = columns.compactMap(markdownSamples)
        let note = "\n_Samples left out: the summary would be too long._\n"
        var text = head + sections.joined()
        while text.utf8.count > limit && !sections.isEmpty {
            sections.removeLast()
            text = head + sections.joined() + note
        }
        guard text.utf8.count > limit else { return text }
        // The table alone is too long: cut it between characters, leaving room for `…\n`.
        var cut = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            if bytes > limit - 4 { break }
            cut.append(character)
        }
        return MarkdownText.unbroken(cut) + "…\n"
    }

    private var markdownHead: String {
        let verdict = passed ? (warnedColumns > 0 ? "WARN" : "passed") : "FAILED"
        var lines = ["## maskclean: \(MarkdownText.escaped(input)): \(verdict)", ""]
        if let error {
            lines += [
                "**FAILED**: the run stopped (exit \(error.status)): \(MarkdownText.escaped(error.message))",
                "",
            ]
            // A spec that did not load has no columns; a run that stopped counted some records.
            guard !columns.isEmpty else { return lines.joined(separator: "\n") + "\n" }
            lines += [
                "The counts are of the \(rows) record\(rows == 1 ? "" : "s") read before it stopped.", "",
            ]
        }
        lines += [
            // Against a baseline, the baseline's complete ratio and the change since it.
            "| column | complete |" + (baseline != nil ? " baseline | change |" : "")
                + " lossy | incomplete | invalid | empty | threshold | result |",
            "| --- | ---: |" + (baseline != nil ? " ---: | ---: |" : "")
                + " ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for column in columns {
            let stats = column.stats
            let minimum = column.spec.minComplete
            // A stopped run's counts are partial: no verdict on a column.
            let result =
                error != nil ? "-" : column.passed ? (column.warned ? "**WARN**" : "pass") : "**FAILED**"
            var cells = [
                MarkdownText.escaped(column.spec.name),
                column.completeRatio.text(decimals: 2, scale: 2, against: minimum) + "%",
            ]
            if let base = column.baseline {
                cells += [
                    base.completeRatio.truncated(2, scale: 2) + "%",
                    column.completeChangeText(decimals: 2, scale: 2) + " pts",
                ]
            }
            cells += [
                String(stats.lossy), String(stats.incomplete), String(stats.invalid), String(stats.empty),
                minimum.map(Self.percentage) ?? "-", result,
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        let phoneColumns = columns.filter { $0.spec.phone != nil }
        for column in phoneColumns {
            lines.append("- \(MarkdownText.escaped(column.spec.name)): countries \(column.topCountries)")
        }
        if !phoneColumns.isEmpty { lines.append("") }
        for finding in error == nil ? findings : [] {
            let mark = finding.level == .error ? "**FAILED**" : "**WARN**"
            lines.append("- \(mark) \(MarkdownText.escaped(finding.subject)): \(finding.message)")
        }
        if !findings.isEmpty { lines.append("") }
        if error == nil {
            lines.append(summary.split(separator: "\n").last.map(String.init) ?? "")
        } else {
            while lines.last == "" { lines.removeLast() }
        }
        if samplesRedacted {
            lines += [
                "",
                "Sample values are redacted: letters show as x or X, digits and other numerals as 9 (`--samples raw` shows them).",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A column's most common shapes per status, then its samples as a table (with the key,
    /// the formatted value and what was dropped), or nil when it has none.
    private func markdownSamples(_ column: Column) -> String? {
        let samples = column.stats.samplesByStatus
        let shapes = column.stats.shapesByStatus.filter { !$0.shapes.shapes.isEmpty }
        guard samples.contains(where: { !$0.1.isEmpty }) || !shapes.isEmpty else { return nil }
        var lines = ["", "### Samples of \(MarkdownText.escaped(column.spec.name))", ""]
        for (status, tally) in shapes {
            let shown = tally.top().map { "\(MarkdownText.escaped($0.shape)) ×\($0.count)" }
            lines.append(
                "- \(status) \(MarkdownText.escaped(column.spec.name)): " + shown.joined(separator: ", "))
        }
        guard samples.contains(where: { !$0.1.isEmpty }) else { return lines.joined(separator: "\n") + "\n" }
        if !shapes.isEmpty { lines.append("") }
        let keyed = !keyColumns.isEmpty
        let key = keyColumns.map(MarkdownText.escaped).joined(separator: ", ")
        lines.append("| status | row |" + (keyed ? " \(key) |" : "") + " value | formatted | dropped |")
        lines.append("| --- | ---: |" + (keyed ? " --- |" : "") + " --- | --- | --- |")
        for (status, kept) in samples {
            for sample in kept {
                var cells = [status, String(sample.row)]
                if keyed { cells.append(sample.key.map(MarkdownText.escaped).joined(separator: ", ")) }
                cells += [
                    MarkdownText.escaped(sample.value), sample.formatted.map(MarkdownText.escaped) ?? "",
                    sample.dropped.map(MarkdownText.escaped) ?? "",
                ]
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Text from the data inside Markdown (a table cell included), shown as it is: control
/// characters, line breaks and invisible characters as visible escapes (`\n`, `visible`), every
/// character that could start inline markup (emphasis, code, links, HTML, a table's `|`, an
/// entity's `&`, GitHub's `$` math) escaped with a backslash, and an empty HTML comment where
/// GitHub's autolinking would otherwise turn a URL, a `www.` name or an e-mail address into a
/// link. Inside a table cell nothing starts a block, so `#`, `-` or `1.` need no escape.
enum MarkdownText {
    static let markup: Set<Unicode.Scalar> = ["\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&", "$"]

    /// Shows as nothing, and splits the text around it in two: GFM's autolink extension reads a
    /// URL or an address only within one run of text. A backslash escape or a character reference
    /// does not split it (`a\@b.c` is still linked), and a zero-width character would be copied
    /// with the value.
    static let linkBreak = "<!-- -->"

    static func escaped(_ text: String) -> String {
        let shown = Array(visible(text).unicodeScalars)
        var out = ""
        for (index, scalar) in shown.enumerated() {
            if breaksAutolink(shown, at: index) { out += linkBreak }
            if markup.contains(scalar) { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// Markdown cut short, without the half of a link break or of a backslash escape it may end
    /// in: either half would show as text (`<!--`, `\`).
    static func unbroken(_ cut: String) -> String {
        var cut = Substring(cut)
        if let open = cut.lastIndex(of: "<"), cut[open...] != linkBreak, linkBreak.hasPrefix(cut[open...]),
            cut[..<open].reversed().prefix(while: { $0 == "\\" }).count.isMultiple(of: 2)
        {
            cut = cut[..<open]
        }
        if !cut.reversed().prefix(while: { $0 == "\\" }).count.isMultiple(of: 2) { cut = cut.dropLast() }
        return String(cut)
    }

    /// Whether the link break goes before `shown[index]`: each place GFM's autolink extension
    /// starts from. The `@` of an e-mail address (`mailto:` and `xmpp:` ones need it too), the
    /// `//` after a scheme's colon (`https://`, `ftp://`), the dot after `www` (in any case, as
    /// some renderers read it).
    private static func breaksAutolink(_ shown: [Unicode.Scalar], at index: Int) -> Bool {
        switch shown[index] {
        case "@":
            return true
        case "/":
            return index > 0 && shown[index - 1] == ":" && index + 1 < shown.count && shown[index + 1] == "/"
        case ".":
            return index >= 3 && shown[(index - 3)..<index].allSatisfy { $0 == "w" || $0 == "W" }
        default:
            return false
        }
    }
}
