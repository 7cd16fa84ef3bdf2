import FoundationEssentials

/// The page `--html` writes (docs/report.md): one self-contained HTML file a person opens after a
/// run. Inline CSS and SVG only: no script, nothing fetched, no font to load. Every value from the
/// data or the spec goes through `HTMLReport.escaped`.
public enum HTMLReport {
    /// The statuses every record of a column falls in, in the order the bar stacks them.
    static let statuses = ["complete", "lossy", "incomplete", "invalid", "empty", "rejected"]

    /// The page, a pure function of the report (with where it came from and when: `Origin`):
    /// the same report gives the same bytes.
    public static func page(_ report: Report) -> String {
        let input = report.input
        let origin = report.origin
        let verdict = report.passed ? "passed" : "FAILED"
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>maskclean: \(escaped(input)) \(verdict)</title>
            <style>
            \(style)</style>
            </head>
            <body>
            <main>
            <header>
            <h1>maskclean report \(badge(report.passed))</h1>
            <dl class="run">

            """
        let rejected = "\(report.rejectedCount) (maxRejected \(report.maxRejected))"
        let size = origin.inputBytes.map { " (\($0) bytes)" } ?? ""
        let fingerprint =
            report.specFingerprint.isEmpty ? "" : "<br><code>\(escaped(report.specFingerprint))</code>"
        for (term, id, value) in [
            ("Input", "input", escaped(input) + size),
            ("Spec", "spec", escaped(origin.spec ?? "-") + fingerprint),
            ("Started", "started", origin.started.map(ReportTime.rfc3339) ?? "-"),
            (
                "Rows", "rows",
                (report.rowsPassed ? "\(report.rows)" : "\(report.rows) (minRows \(report.minRows))")
                    + (report.baseline.map { " · baseline <b class=\"baseline\">\($0.rows)</b>" } ?? "")
            ),
            ("Rejected", "rejected", rejected), ("Result", "result", escaped(verdictText(report))),
            ("Time", "elapsed", origin.duration.map(duration) ?? "-"),
            ("maskclean", "version", escaped(origin.version)),
        ] {
            page += "<div><dt>\(term)</dt><dd id=\"\(id)\">\(value)</dd></div>\n"
        }
        page += "</dl>\n"
        if let error = report.error {
            let read =
                report.columns.isEmpty
                ? "" : "<br>The counts below are of the \(report.rows) records read before it stopped."
            page += "<p class=\"stopped\" id=\"stopped\"><b>The run stopped (exit \(error.status)):</b> "
            page += "\(escaped(error.message))\(read)</p>\n"
        }
        page += "</header>\n<section class=\"columns\">\n"
        // Failing columns first, then warned ones, then the rest, each in spec order: what needs
        // fixing is at the top.
        let order = report.columns.indices.sorted { first, second in
            let rank = { (column: Report.Column) in column.passed ? (column.warned ? 1 : 2) : 0 }
            let (a, b) = (rank(report.columns[first]), rank(report.columns[second]))
            return a != b ? a < b : first < second
        }
        for index in order {
            page += columnCard(
                report.columns[index], number: index + 1, stopped: report.error != nil, report: report)
        }
        page += "</section>\n"
        page += rejectedSection(report)
        page += """
            <footer>Each bar is every record read, left to right: \(legendNames). The black line \
            marks where the complete part must reach to meet minComplete, the dashed orange one \
            warnComplete, the dotted blue one where the baseline's complete part reached.</footer>
            </main>
            </body>
            </html>

            """
        return page
    }

    /// Text from the data or the spec, safe in an element or an attribute: control characters
    /// and text-direction marks shown as escapes (as in the summary), then `& < > " '` as
    /// character references.
    public static func escaped(_ text: String) -> String {
        visible(text).map { characterReferences[$0] ?? String($0) }.joined()
    }

    private static let characterReferences: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ]

    private static var legendNames: String {
        statuses.map { "<span class=\"swatch \($0)\"></span>\($0)" }.joined(separator: ", ")
    }

    private static func badge(_ passed: Bool) -> String {
        passed ? "<span class=\"verdict pass\">passed</span>" : "<span class=\"verdict fail\">FAILED</span>"
    }

    /// The summary's last line, without the row count the page shows already.
    private static func verdictText(_ report: Report) -> String {
        if let error = report.error { return "FAILED (the run stopped: exit \(error.status))" }
        var reasons: [String] = []
        if !report.rowsPassed { reasons.append("fewer rows than minRows") }
        reasons += report.columnReasons
        if !report.rejectedPassed { reasons.append("more records rejected than maxRejected") }
        if !report.rowsChangePassed { reasons.append("rows changed more than maxRowsChange") }
        return reasons.isEmpty ? "passed" : "FAILED (" + reasons.joined(separator: ", ") + ")"
    }

    /// Milliseconds under a second, else seconds with two decimals (truncated).
    static func duration(_ elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        guard seconds >= 1 else { return "\(max(0, attoseconds / 1_000_000_000_000_000)) ms" }
        let hundredths = attoseconds / 10_000_000_000_000_000
        return "\(seconds).\(hundredths < 10 ? "0" : "")\(hundredths) s"
    }

    /// How many regions a phone column's card lists; the rest are summed in one row.
    static let countriesShown = 20

    private static func columnCard(_ column: Report.Column, number: Int, stopped: Bool, report: Report)
        -> String
    {
        let stats = column.stats
        let name = escaped(column.spec.name)
        let minimum = column.spec.minComplete
        // pass, WARN (below warnComplete, still passing) or FAIL, as every report says it; a
        // stopped run's counts are partial, no verdict.
        let verdict = stopped ? "partial" : column.verdict
        let warning = column.spec.warnComplete.map { " · warnComplete <b>\(Report.percentage($0))</b>" } ?? ""
        // The invalid share where the column can have invalid cells, against maxInvalid if it has one.
        let invalid =
            column.hasInvalidCells
            ? " · invalid <b>\(column.invalidShare)%</b>"
                + (column.spec.maxInvalid.map { " · maxInvalid <b>\(Report.percentage($0))</b>" } ?? "")
            : ""
        // Against a baseline: its complete ratio beside today's, the change, and maxDrop.
        var against = ""
        if let base = column.baseline {
            against =
                " · baseline <b class=\"baseline\">\(base.completeRatio.truncated(2, scale: 2))%</b> (\(column.completeChangeText(decimals: 2, scale: 2)) pts)"
            if let drop = column.spec.maxDrop { against += " · maxDrop <b>\(Report.points(drop)) pts</b>" }
        }
        var card = """
            <article class="column \(verdict.lowercased())" id="column-\(number)">
            <h2><span class="name">\(name)</span> <span class="verdict \(verdict.lowercased())">\(verdict)</span></h2>
            <p class="ratio">complete <b class="complete">\(column.completeRatio.text(decimals: 2, scale: 2, against: minimum))%</b>\
            \(minimum.map { " · minComplete <b>\(Report.percentage($0))</b>" } ?? " · no minComplete")\(warning)\(invalid)\(against)</p>

            """
        let counts = [
            stats.complete, stats.lossy, stats.incomplete, stats.invalid, stats.empty, column.rejected,
        ]
        let rows = column.rows
        // One unit of the view box per record: every width is a whole count, exact at any size.
        card += "<svg class=\"bar\" role=\"img\" aria-label=\"\(name): "
        card += zip(statuses, counts).map { "\($0) \($1)" }.joined(separator: ", ")
        card += "\" viewBox=\"0 0 \(max(rows, 1)) 20\" preserveAspectRatio=\"none\">\n"
        var start = 0
        for (status, count) in zip(statuses, counts) where count > 0 {
            card += "<rect class=\"\(status)\" x=\"\(start)\" y=\"0\" width=\"\(count)\" height=\"20\">"
            card += "<title>\(status) \(count)</title></rect>\n"
            start += count
        }
        let divisor = column.completeRatio.denominator
        // Where the complete part must reach: minComplete of the ratio's divisor; and, dashed,
        // where it must reach not to warn, and where the baseline's reached.
        for (value, name) in [(minimum, "minComplete"), (column.spec.warnComplete, "warnComplete")] {
            guard let value, rows > 0 else { continue }
            let mark = "\(Ratio.decimal(value) * Decimal(divisor))"
            let kind = name == "minComplete" ? "threshold" : "warn-level"
            card += "<line class=\"\(kind)\" x1=\"\(mark)\" x2=\"\(mark)\" y1=\"-4\" y2=\"24\" "
            card += "vector-effect=\"non-scaling-stroke\"><title>\(name)</title></line>\n"
        }
        if let base = column.baseline, rows > 0 {
            let mark = "\(base.completeRatio.exact * Decimal(divisor))"
            card += "<line class=\"baseline-level\" x1=\"\(mark)\" x2=\"\(mark)\" y1=\"-4\" y2=\"24\" "
            card += "vector-effect=\"non-scaling-stroke\"><title>baseline</title></line>\n"
        }
        card += "</svg>\n<table class=\"counts\">\n<tr><th>status</th><th class=\"n\">records</th>"
        card +=
            "<th class=\"n\">share</th>"
            + (column.baseline != nil ? "<th class=\"n\">since baseline</th>" : "")
        card += "</tr>\n"
        // Shares of the complete ratio's divisor, so that complete's is the ratio above: empty
        // cells, outside it unless the column is required, have none.
        let outside = column.spec.required ? [] : ["empty"]
        for (index, (status, count)) in zip(statuses, counts).enumerated() {
            let share =
                outside.contains(status)
                ? "–"
                : status == "complete"
                    ? column.completeRatio.text(decimals: 2, scale: 2, against: minimum) + "%"
                    : (divisor == 0 ? "0.00" : Ratio(count, of: divisor).truncated(2, scale: 2)) + "%"
            card += "<tr class=\"\(status)\"><td><span class=\"swatch \(status)\"></span>\(status)</td>"
            card += "<td class=\"n\">\(count)</td><td class=\"n\">\(share)</td>"
            if let base = column.baseline {
                let change = count - base.statuses[index]
                card += "<td class=\"n\">\(change > 0 ? "+" : "")\(change)</td>"
            }
            card += "</tr>\n"
        }
        card += "</table>\n<h3>Formats matched</h3>\n"
        let formats = column.formatTotals
        if formats.isEmpty {
            card += "<p class=\"none\">none (every cell empty)</p>\n"
        } else {
            card += "<table class=\"formats\">\n<tr><th>format</th><th class=\"n\">cells</th></tr>\n"
            for (format, count) in formats {
                card += "<tr><td><code>\(escaped(format))</code></td><td class=\"n\">\(count)</td></tr>\n"
            }
            card += "</table>\n"
        }
        if column.spec.phone != nil {
            // A phone column's cells by detected region, most first.
            card += "<h3>Countries</h3>\n"
            let countries = stats.countries
            if countries.isEmpty {
                card += "<p class=\"none\">none detected</p>\n"
            } else {
                card += "<table class=\"formats\">\n<tr><th>region</th><th class=\"n\">cells</th></tr>\n"
                for (region, count) in countries.prefix(Self.countriesShown) {
                    card += "<tr><td><code>\(region)</code></td><td class=\"n\">\(count)</td></tr>\n"
                }
                if countries.count > Self.countriesShown {
                    let rest = countries.dropFirst(Self.countriesShown).reduce(0) { $0 + $1.count }
                    card +=
                        "<tr><td>\(countries.count - Self.countriesShown) more</td><td class=\"n\">\(rest)</td></tr>\n"
                }
                card += "</table>\n"
            }
        }
        // The most common shapes of each status short of complete, with their counts.
        for (status, shapes) in stats.shapesByStatus where !shapes.shapes.isEmpty {
            card += "<h3>\(status.prefix(1).uppercased() + status.dropFirst()) shapes</h3>\n"
            card += "<table class=\"shapes\">\n<tr><th>shape</th><th class=\"n\">cells</th></tr>\n"
            for (shape, count) in shapes.top() {
                card += "<tr><td><code>\(escaped(shape))</code></td><td class=\"n\">\(count)</td></tr>\n"
            }
            card += "</table>\n"
        }
        // Invalid samples only where the column can have invalid cells: elsewhere always none.
        for (status, samples) in stats.samplesByStatus where status != "invalid" || column.hasInvalidCells {
            card += "<h3>\(status.prefix(1).uppercased() + status.dropFirst()) samples</h3>\n"
            card += sampleList(samples, report: report)
        }
        return card + "</article>\n"
    }

    /// A column's samples: each with its row and key, its value, what the column made of it, and
    /// what was dropped, each in an element of its own.
    private static func sampleList(_ samples: [Sample], report: Report) -> String {
        guard !samples.isEmpty else { return "<p class=\"none\">none</p>\n" }
        var list = "<ol class=\"samples\">\n"
        for sample in samples {
            list += "<li><span class=\"row\">\(escaped("row \(sample.row)" + report.keyText(sample)))</span>"
            list += "<span><code>\(escaped(sample.value))</code>"
            if let formatted = sample.formatted, formatted != sample.value {
                list += " → <code class=\"formatted\">\(escaped(formatted))</code>"
            }
            if let dropped = sample.dropped, !dropped.isEmpty {
                list += " dropped <code class=\"dropped\">\(escaped(dropped))</code>"
            }
            list += "</span></li>\n"
        }
        return list + "</ol>\n"
    }

    private static func samplesList(_ items: [(label: String, text: String)]) -> String {
        guard !items.isEmpty else { return "<p class=\"none\">none</p>\n" }
        var list = "<ol class=\"samples\">\n"
        for item in items {
            list +=
                "<li><span class=\"row\">\(escaped(item.label))</span><code>\(escaped(item.text))</code></li>\n"
        }
        return list + "</ol>\n"
    }

    private static func rejectedSection(_ report: Report) -> String {
        guard report.rejectedCount > 0 || report.blankLines > 0 else { return "" }
        var section = "<section class=\"rejections\">\n"
        if report.rejectedCount > 0 {
            section += "<h2>Rejected records \(badge(report.rejectedPassed))</h2>\n"
            section += "<p>\(report.rejectedCount) rejected, maxRejected \(report.maxRejected).</p>\n"
            section += samplesList(report.rejected.map { ($0.place, $0.reason) })
        }
        if report.blankLines > 0 {
            let lines = escaped(
                report.blankLineNumbers.indices.map(report.blankLinePlace).joined(separator: ", "))
            let more = report.blankLines > report.blankLineNumbers.count ? ", …" : ""
            section += "<p>\(report.blankLines) blank line\(report.blankLines == 1 ? "" : "s") skipped "
            section += "(line\(report.blankLines == 1 ? "" : "s") \(lines)\(more)).</p>\n"
        }
        return section + "</section>\n"
    }

    /// Laid out for 1280 px and for a phone: cards in as many columns as fit, none wider than the
    /// screen, long values wrapped instead of scrolled.
    private static let style = """
        :root{color-scheme:light;--complete:#2e7d32;--lossy:#f9a825;--incomplete:#e65100;\
        --invalid:#ad1457;--empty:#bdbdbd;--rejected:#6a1b9a;--pass:#2e7d32;--fail:#c62828;--warn:#e65100}
        *{box-sizing:border-box}
        body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;\
        background:#f3f4f6}
        main{max-width:80rem;margin:0 auto;padding:1rem}
        h1{font-size:1.5rem;margin:0 0 .75rem}
        h2{font-size:1.2rem;margin:0;overflow-wrap:anywhere}
        h3{font-size:.95rem;margin:.75rem 0 .25rem}
        .verdict{display:inline-block;padding:0 .5rem;border-radius:.25rem;color:#fff;font-size:.8em;\
        vertical-align:middle}
        .verdict.pass{background:var(--pass)}
        .verdict.fail{background:var(--fail)}
        .verdict.warn{background:var(--warn)}
        .run{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,11rem),1fr));\
        gap:.5rem 1rem;margin:0 0 1rem;padding:1rem;background:#fff;border-radius:.5rem}
        .run div{min-width:0}
        .run dt{font-size:.75rem;color:#555;text-transform:uppercase;letter-spacing:.04em}
        .run dd{margin:0;font-weight:600;overflow-wrap:anywhere}
        .columns{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,34rem),1fr));gap:1rem}
        .column,.rejections{background:#fff;border-radius:.5rem;padding:1rem;min-width:0;\
        border-top:4px solid var(--pass)}
        .column.fail{border-top-color:var(--fail)}
        .column.warn{border-top-color:var(--warn)}
        .column.partial{border-top-color:#777}
        .verdict.partial{background:#777}
        .stopped{margin:0 0 1rem;padding:1rem;background:#fdecea;border-left:4px solid var(--fail);\
        border-radius:.5rem;overflow-wrap:anywhere}
        .rejections{margin-top:1rem;border-top-color:var(--rejected)}
        .ratio{margin:.25rem 0}
        svg.bar{display:block;width:100%;height:1.75rem;margin:.75rem 0;background:#eee;overflow:visible}
        .threshold{stroke:#000;stroke-width:3}
        .warn-level{stroke:var(--warn);stroke-width:3;stroke-dasharray:4 3}
        .baseline-level{stroke:#1565c0;stroke-width:2;stroke-dasharray:2 2}
        b.baseline{color:#1565c0}
        rect.complete{fill:var(--complete)}
        rect.lossy{fill:var(--lossy)}
        rect.incomplete{fill:var(--incomplete)}
        rect.invalid{fill:var(--invalid)}
        rect.empty{fill:var(--empty)}
        rect.rejected{fill:var(--rejected)}
        .swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.4rem;\
        vertical-align:-.05rem}
        .swatch.complete{background:var(--complete)}
        .swatch.lossy{background:var(--lossy)}
        .swatch.incomplete{background:var(--incomplete)}
        .swatch.invalid{background:var(--invalid)}
        .swatch.empty{background:var(--empty)}
        .swatch.rejected{background:var(--rejected)}
        table{border-collapse:collapse;width:100%;margin:.25rem 0}
        th,td{text-align:left;padding:.15rem .5rem .15rem 0;border-bottom:1px solid #eee;vertical-align:top;\
        overflow-wrap:anywhere}
        th{font-size:.8rem;color:#555;font-weight:600}
        .n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;\
        overflow-wrap:anywhere;background:#f0f0f0;padding:0 .2rem;border-radius:.2rem}
        ol.samples{list-style:none;margin:0;padding:0}
        ol.samples li{display:flex;gap:.5rem;padding:.1rem 0;min-width:0}
        ol.samples code{min-width:0}
        .row{color:#555;white-space:nowrap;font-variant-numeric:tabular-nums;min-width:4.5rem}
        .none{color:#777;margin:0}
        footer{color:#555;font-size:.85rem;margin-top:1rem}

        """
}
