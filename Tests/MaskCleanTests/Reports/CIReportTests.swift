import Foundation
import MaskEngine
import Testing

@testable import MaskClean

/// The reports CI systems read (JUnit, workflow commands, Markdown), warnComplete, the spec's
/// samples and redaction, with hostile values.
@Suite("CI reports")
struct CIReportTests {
    // MARK: Escaping

    @Test("XML text escapes markup exactly and writes characters XML 1.0 forbids as visible escapes")
    func xmlEscaping() {
        #expect(
            XMLText.content(#"<a href="x">&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;")
        #expect(XMLText.content("]]> <!-- -->") == "]]&gt; &lt;!-- --&gt;")
        #expect(XMLText.content("a\u{1}b\u{1B}c\u{0}") == #"a\u0001b\u001Bc\u0000"#)
        #expect(XMLText.content("\u{FFFE}\u{FFFF}") == #"\uFFFE\uFFFF"#)
        // A tab and a line feed are kept in text; a CR becomes a reference, or a parser makes it LF.
        #expect(XMLText.content("a\tb\nc\rd") == "a\tb\nc&#13;d")
        // In an attribute every white space but the space is a reference, or a parser makes it a space.
        #expect(XMLText.attribute("a\tb\nc\rd e") == "a&#9;b&#10;c&#13;d e")
        // Everything else, emoji and right-to-left marks included, is kept as it is.
        #expect(XMLText.content("Ðorđe 😀 \u{202E}x") == "Ðorđe 😀 \u{202E}x")
    }

    @Test("workflow commands escape as @actions/core does: % CR LF in data, also : and , in properties")
    func workflowCommandEscaping() {
        #expect(WorkflowCommand.escapedData("100% a:b,c\r\nd") == "100%25 a:b,c%0D%0Ad")
        #expect(WorkflowCommand.escapedProperty("100% a:b,c\r\nd") == "100%25 a%3Ab%2Cc%0D%0Ad")
        // `%` first: an escape already in the text is not taken for one.
        #expect(WorkflowCommand.escapedData("%0A") == "%250A")
        #expect(
            WorkflowCommand.line(
                "error", properties: [("file", "a,b.csv"), ("title", "x::y")], message: "m::n")
                == "::error file=a%2Cb.csv,title=x%3A%3Ay::m::n")
        #expect(WorkflowCommand.line("warning", properties: [], message: "m") == "::warning::m")
    }

    @Test("workflow commands show the data as every message does before @actions/core's escaping")
    func workflowCommandVisibleText() {
        let line = WorkflowCommand.line(
            "error", properties: [("file", "in\u{1B}[2J.csv"), ("title", "maskclean a\u{202E},b\u{200B}")],
            message: "key \"\u{1B}]8;;https://x\u{07}k\u{9B}\" 100%\r\n")
        #expect(
            line
                == #"::error file=in\x1b[2J.csv,title=maskclean a\u{202e}%2Cb\u{200b}::key "\x1b]8;;https://x\x07k\u{009b}" 100%25\r\n"#
        )
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test(
        "Markdown text cannot become an autolink: a comment splits each URL, www. name and e-mail address",
        arguments: [
            ("https://evil.example/x", "https:<!-- -->//evil.example/x"),
            ("FTP://files.example", "FTP:<!-- -->//files.example"),
            ("see www.example.com", "see www<!-- -->.example.com"),
            ("WWW.EXAMPLE.COM", "WWW<!-- -->.EXAMPLE.COM"),
            ("ann@example.com", "ann<!-- -->@example.com"),
            ("mailto:ann@example.com", "mailto:ann<!-- -->@example.com"),
            ("x@y.z@w.v", "x<!-- -->@y.z<!-- -->@w.v"),
            ("12:30 a.m. / 1.5", "12:30 a.m. / 1.5"),
        ])
    func markdownAutolinks(value: String, escaped: String) {
        #expect(MarkdownText.escaped(value) == escaped)
    }

    @Test("Markdown text escapes inline markup, pipes and HTML, and shows line breaks as escapes")
    func markdownEscaping() {
        #expect(MarkdownText.escaped("<script>alert(1)</script>") == #"\<script\>alert(1)\</script\>"#)
        #expect(
            MarkdownText.escaped("a|b `c` *d* _e_ [f](g) ~h~ $i$ &amp;")
                == #"a\|b \`c\` \*d\* \_e\_ \[f\](g) \~h\~ \$i\$ \&amp;"#)
        #expect(MarkdownText.escaped("line1\nline2\r\u{1B}[2J") == #"line1\\nline2\\r\\x1b\[2J"#)
        #expect(MarkdownText.escaped(#"back\slash"#) == #"back\\slash"#)
        #expect(!MarkdownText.escaped("a\nb").contains("\n"))
        // A mark combining with `|` does not hide it from the table: Markdown reads bytes.
        #expect(MarkdownText.escaped("a|\u{301}b") == "a\\|\u{301}b")
        #expect(MarkdownText.escaped("a\u{200B}b") == #"a\\u{200b}b"#)
    }

    // MARK: Spec keys

    func column(_ extra: String) -> String {
        #"{"columns":[{"name":"phone","format":"[000]",\#(extra)}]}"#
    }

    @Test("warnComplete is a fraction, at least minComplete when both are given")
    func warnCompleteSpec() throws {
        #expect(try loadSpec(column(#""warnComplete":0.95"#)).columns[0].warnComplete == 0.95)
        #expect(try loadSpec(column(#""minComplete":0.9,"warnComplete":0.9"#)).columns[0].warnComplete == 0.9)
        #expect(
            specError(column(#""minComplete":0.95,"warnComplete":0.9"#))
                == #"spec.json: columns[0] "phone": warnComplete is a fraction from minComplete (0.95) to 1, got 0.9"#
        )
        #expect(
            specError(column(#""warnComplete":95"#))
                == #"spec.json: columns[0] "phone": warnComplete is a fraction from 0 to 1, got 95; did you mean 0.95?"#
        )
        #expect(
            specError(column(#""warnComplete":"0.9""#))
                == #"spec.json: columns[0] "phone": warnComplete: expected a number from 0 to 1, got the string "0.9""#
        )
    }

    @Test("samples is a whole number from 0 to 1000, 5 by default")
    func samplesSpec() throws {
        #expect(try loadSpec(column(#""minComplete":0.5"#)).samples == 5)
        let none = try loadSpec(#"{"samples":0,"columns":[{"name":"a","format":"[0]"}]}"#)
        #expect(none.samples == 0 && none.columns[0].samples == 0)
        #expect(try loadSpec(#"{"samples":1000,"columns":[{"name":"a","format":"[0]"}]}"#).samples == 1000)
        #expect(
            specError(#"{"samples":1001,"columns":[{"name":"a","format":"[0]"}]}"#)
                == "spec.json: samples: expected a whole number from 0 to 1000, got 1001")
        #expect(specError(#"{"samples":2.5,"columns":[{"name":"a","format":"[0]"}]}"#) != nil)
        #expect(specError(#"{"samples":-1,"columns":[{"name":"a","format":"[0]"}]}"#) != nil)
    }

    @Test("the spec's samples caps the samples kept, across merged chunks; 0 keeps none")
    func samplesKept() {
        for kept in [0, 1, 3] {
            var first = ColumnStats(formats: 1, samples: kept)
            var later = ColumnStats(formats: 1, samples: kept)
            for row in 1...4 {
                first.count(.lossy, format: 0, dropped: 1, row: row) { "a\(row)" }
                later.count(.incomplete, format: 0, dropped: 0, row: row) { "b\(row)" }
                later.count(.lossy, format: 0, dropped: 1, row: row) { "c\(row)" }
            }
            first.merge(later, rowOffset: 4)
            #expect(first.lossySamples.count == kept)
            #expect(first.incompleteSamples.map(\.row) == Array([5, 6, 7, 8].prefix(kept)))
            #expect(first.lossy == 8 && first.incomplete == 4)
        }
    }

    // MARK: Verdicts and redaction

    /// A report of one column with `complete` of 100 cells complete, the rest lossy.
    func report(_ columnKeys: String, complete: Int) throws -> Report {
        var report = Report(spec: try loadSpec(column(columnKeys)))
        report.input = "exports/customers.csv"
        report.rows = 100
        for row in 1...100 {
            report.columns[0].stats.count(
                row <= complete ? .complete : .lossy, format: 0, dropped: 1, row: row
            ) {
                "55\(row)x"
            }
        }
        return report
    }

    @Test("below warnComplete: WARN in every format, and the run still passes")
    func warned() throws {
        let report = try report(#""minComplete":0.9,"warnComplete":0.95"#, complete: 92)
        #expect(report.passed)
        #expect(report.columns[0].warned && report.columns[0].verdict == "WARN")
        #expect(report.json.contains(#""warnComplete": 0.95,"#) && report.json.contains(#""warned": true,"#))
        #expect(report.summary.contains("WARN (1 column below warnComplete)"))
        #expect(
            report.workflowCommands
                == "::warning file=exports/customers.csv,title=maskclean phone::complete 92.00%25 < warnComplete 95.00%25 (8 lossy, 0 incomplete)\n"
        )
        #expect(report.junit.contains("WARN: complete 92.00% &lt; warnComplete 95.00%"))
        #expect(!report.junit.contains("<failure"))
        #expect(report.markdown.contains("**WARN**"))
        // At or above warnComplete, or below minComplete, it is not a warning.
        #expect(!(try self.report(#""warnComplete":0.95"#, complete: 95)).columns[0].warned)
        let failing = try self.report(#""minComplete":0.9,"warnComplete":0.95"#, complete: 80)
        #expect(!failing.passed && !failing.columns[0].warned && failing.columns[0].verdict == "FAIL")
        #expect(failing.workflowCommands.hasPrefix("::error "))
    }

    @Test("redaction keeps a value's shape: letters x or X, digits 9, everything else")
    func redaction() throws {
        #expect(Sample.redact("Ab9 (555) é-Ü…") == "Xx9 (999) x-X…")
        #expect(Sample.redact("٣٤ 漢字 +1") == "99 xx +9")
        var report = try report(#""minComplete":0.9"#, complete: 50)
        report.redactSamples()
        #expect(report.samplesRedacted)
        #expect(report.columns[0].stats.lossySamples.first?.value == "9999x")
        #expect(report.json.contains(#""samplesRedacted": true"#))
        for text in [report.json, report.junit, report.markdown] { #expect(!text.contains("551x")) }
    }

    @Test(
        "redaction hides every letter and numeral of any script, with its marks: only the shape is left",
        arguments: [
            ("⑤⑤⑤-①②③④", "999-9999"), ("x² + ⅔ = Ⅻ", "x9 + 9 = 9"), ("５５５ 𝟓", "999 9"),
            ("e\u{301}-E\u{301}", "x-X"), ("ⒶⒷ ⓐ", "XX x"), ("ǅ ʰ ا", "X x x"),
            ("1\u{FE0F}\u{20E3} 🙂", "9 🙂"),
            ("\u{301}-", "x-"),
        ])
    func redactionOfAnyScript(_ value: String, _ shape: String) {
        #expect(Sample.redact(value) == shape)
    }

    @Test("the Markdown summary stays within its limit, leaving out samples first")
    func markdownLimit() throws {
        let report = try report(#""minComplete":0.9"#, complete: 50)
        let whole = report.markdown
        #expect(whole.contains("### Samples of phone"))
        let short = report.markdown(limit: whole.utf8.count - 1)
        #expect(short.utf8.count < whole.utf8.count && !short.contains("### Samples"))
        #expect(short.contains("Samples left out"))
        let tiny = report.markdown(limit: 40)
        #expect(tiny.utf8.count <= 40 && tiny.hasSuffix("…\n"))
    }

    @Test("Markdown cut short drops half a link break or half an escape, which would show as text")
    func markdownCut() {
        for half in ["<", "<!", "<!-- ", "<!-- --"] {
            #expect(MarkdownText.unbroken("| ann" + half) == "| ann")
            #expect(MarkdownText.unbroken(#"| a\\"# + half) == #"| a\\"#)
        }
        #expect(MarkdownText.unbroken("| ann<!-- -->") == "| ann<!-- -->")
        #expect(MarkdownText.unbroken(#"| a \<"#) == #"| a \<"#)
        #expect(MarkdownText.unbroken(#"| a \"#) == "| a ")
        #expect(MarkdownText.unbroken(#"| a \\"#) == #"| a \\"#)
    }

    @Test("JUnit test case names are unique, since GitLab keeps only the first of equal names")
    func uniqueNames() throws {
        let spec = try loadSpec(
            #"{"columns":[{"name":"rejected records","format":"[0]"},{"name":"rejected records","format":"[00]","formattedColumn":"f2","extractedColumn":"e2","statusColumn":"s2"}]}"#
        )
        let junit = Report(spec: spec).junit
        let names = junit.matches(of: #/<testcase classname="maskclean.stdin" name="([^"]*)"/#).map {
            String($0.output.1)
        }
        // Two columns, then the rows below minRows (an empty report), then the rejected records.
        #expect(names.count == 4 && names.contains("rows"))
        #expect(Set(names).count == names.count, "\(names)")
    }

    @Test("rejected records and minRows: a JUnit failure and an ::error when they fail the run")
    func runFindings() throws {
        var report = Report(spec: try loadSpec(#"{"columns":[{"name":"a","format":"[0]"}]}"#))
        report.reject(line: 3, reason: "unterminated quoted field")
        report.rows = 1
        #expect(report.runFindings.map(\.message) == ["1 record rejected > maxRejected 0"])
        #expect(
            report.workflowCommands
                == "::error title=maskclean rejected records::1 record rejected > maxRejected 0 (line 3: unterminated quoted field)\n"
        )
        #expect(
            report.junit.contains(
                #"<failure message="1 record rejected &gt; maxRejected 0" type="maskclean">1 record rejected &gt; maxRejected 0"#
                    + "\nline 3: unterminated quoted field</failure>"))
        report.maxRejected = 1
        #expect(report.workflowCommands.hasPrefix("::warning title=maskclean rejected records::"))
        #expect(!report.junit.contains("<failure"))
        report.minRows = 2
        #expect(report.runFindings.last?.message == "1 row < minRows 2")
        #expect(report.junit.contains(#"name="rows">"#) && report.junit.contains(#"failures="1""#))
        #expect(report.markdown.contains("- **FAILED** rows: 1 row < minRows 2"))
    }

    // MARK: Invalid cells

    /// Ten records of a card column checked with Luhn (at least 50% complete, at most 10% invalid):
    /// rows 1–7 complete, 8 incomplete, 9 and 10 invalid; and a phone column without a check.
    func invalidReport(complete: Int = 7, incomplete: Int = 1) throws -> Report {
        var report = Report(
            spec: try loadSpec(
                #"{"columns":[{"name":"card","format":"[0000]","check":"luhn","minComplete":0.5,"maxInvalid":0.1},"#
                    + #"{"name":"phone","format":"[0]"}]}"#))
        report.input = "cards.csv"
        report.rows = 10
        var stats = ColumnStats(formats: 1)
        let statuses =
            Array(repeating: CellStatus.complete, count: complete)
            + Array(repeating: .incomplete, count: incomplete)
            + [.invalid, .invalid]
        for (index, status) in statuses.enumerated() {
            stats.count(status, format: 0, dropped: 0, row: index + 1) { "41111111111111\(index)" }
        }
        report.columns[0].stats = stats
        report.columns[1].stats.complete = 10
        report.columns[1].stats.formatCounts = [10]
        return report
    }

    @Test("a column above maxInvalid is an error in JUnit, with its invalid count and samples")
    func invalidInJUnit() throws {
        let junit = try invalidReport().junit
        #expect(junit.contains(#"failures="1""#))
        #expect(
            junit.contains(
                #"<failure message="invalid 20.00% &gt; maxInvalid 10.00%" type="maskclean">"#
                    + "7 complete, 0 lossy, 1 incomplete, 2 invalid, 0 empty, 0 rejected of 10 rows\n"
                    + "incomplete row 8: 411111111111117\ninvalid row 9: 411111111111118\n"
                    + "invalid row 10: 411111111111119\nincomplete shapes: 999999999999999 ×1\n"
                    + "invalid shapes: 999999999999999 ×2</failure>"))
        // A column without a check has no invalid cells to count: its line stays as it was.
        #expect(
            junit.contains("<system-out>10 complete, 0 lossy, 0 incomplete, 0 empty, 0 rejected of 10 rows"))
        // Below minComplete too: one failure that gives both reasons.
        let both = try invalidReport(complete: 4, incomplete: 4).junit
        #expect(
            both.contains(
                #"<failure message="complete 40.00% &lt; minComplete 50.00%; invalid 20.00% &gt; maxInvalid 10.00%""#
            ))
        #expect(both.contains(#"failures="1""#))
    }

    @Test("a column above maxInvalid is a GitHub error annotation whose detail counts the invalid cells")
    func invalidAnnotations() throws {
        #expect(
            try invalidReport().workflowCommands
                == "::error file=cards.csv,title=maskclean card::invalid 20.00%25 > maxInvalid 10.00%25 (0 lossy, 1 incomplete, 2 invalid)\n"
        )
        let both = try invalidReport(complete: 4, incomplete: 4).findings
        #expect(
            both.map(\.message) == [
                "complete 40.00% < minComplete 50.00%", "invalid 20.00% > maxInvalid 10.00%",
            ])
        #expect(both.allSatisfy { $0.level == .error && $0.detail == "0 lossy, 4 incomplete, 2 invalid" })
        // Within maxInvalid, invalid cells alone are no finding.
        var within = try invalidReport()
        within.columns[0].spec.maxInvalid = 0.2
        #expect(within.findings.isEmpty && within.passed)
    }

    @Test(
        "the Markdown table counts invalid cells, the findings say maxInvalid, and invalid samples are listed"
    )
    func invalidInMarkdown() throws {
        let markdown = try invalidReport().markdown
        #expect(
            markdown.contains(
                "| column | complete | lossy | incomplete | invalid | empty | threshold | result |"))
        #expect(markdown.contains("| card | 70.00% | 0 | 1 | 2 | 0 | 50.00% | **FAILED** |"))
        #expect(markdown.contains("| phone | 100.00% | 0 | 0 | 0 | 0 | - | pass |"))
        #expect(markdown.contains("- **FAILED** card: invalid 20.00% > maxInvalid 10.00%\n"))
        #expect(markdown.contains("10 rows: FAILED (1 column above maxInvalid)"))
        #expect(
            markdown.contains(
                "| incomplete | 8 | 411111111111117 |  |  |\n| invalid | 9 | 411111111111118 |  |  |"))
        // The shapes of the cells short of complete, most common first.
        #expect(
            markdown.contains("- incomplete card: 999999999999999 ×1\n- invalid card: 999999999999999 ×2\n"))
    }
}
