import Foundation
import TestSupport
import Testing

/// Issue 29, item 2: samples are redacted by default in every output a log or a page shows (the
/// JSON report, JUnit, Markdown, the step summary, the annotations, the HTML page), and shown as
/// they are only with `--samples raw` (docs/report.md#samples-redacted-by-default).
@Suite("Samples: redacted by default, raw only when asked")
struct SampleRedactionEndToEndTests {
    /// Cells of the demo that its reports take as samples: a lossy phone, incomplete cards.
    static let demoSamples = ["763661024l", "(965) 734-6354 ext. 31", "XXXX-XXXX-XXXX-4706", "declined"]
    /// The same cells as every redacted report shows them.
    static let demoShapes = ["999999999x", "(999) 999-9999 xxx. 99", "XXXX-XXXX-XXXX-9999", "xxxxxxxx"]

    static let files = ["report.json", "junit.xml", "summary.md", "report.html", "step-summary.md"]

    /// Every report of the demo, with `extra` flags, and what each says.
    static func reports(_ extra: [String]) throws -> (status: Int32, texts: [String: String]) {
        let scratch = try TemporaryFolder()
        let demo = Maskclean.fixtures.appendingPathComponent("demo")
        let outcome = try Maskclean.run(
            [
                "check", "spec.json", "customers.csv", "--report", scratch.path("report.json"), "--junit",
                scratch.path("junit.xml"), "--markdown", scratch.path("summary.md"), "--html",
                scratch.path("report.html"), "--annotations", "github", "--quiet",
            ] + extra, in: demo, environment: ["GITHUB_STEP_SUMMARY": scratch.path("step-summary.md")])
        var texts: [String: String] = ["annotations": outcome.stdoutText]
        for file in files { texts[file] = try scratch.text(file) }
        return (outcome.status, texts)
    }

    @Test("with no flag, and with --redact-samples, no report holds a sample's value: only its shape")
    func redactedByDefault() throws {
        for flags in [[], ["--redact-samples"], ["--samples", "redacted"]] {
            let (status, texts) = try Self.reports(flags)
            #expect(status == 1)
            for (file, text) in texts {
                for value in Self.demoSamples {
                    #expect(!text.contains(value), "\(flags) \(file) shows \(value)")
                }
            }
            for file in Self.files where file != "report.html" {
                let text = try #require(texts[file])
                #expect(Self.demoShapes.contains { text.contains($0) }, "\(flags) \(file) shows no shape")
            }
            #expect(texts["report.json"]?.contains(#""samplesRedacted": true,"#) == true)
            #expect(texts["summary.md"]?.contains("Sample values are redacted") == true)
        }
    }

    @Test("--samples raw shows the values in every report that shows samples")
    func rawWhenAsked() throws {
        let (status, texts) = try Self.reports(["--samples", "raw"])
        #expect(status == 1)
        for file in Self.files {
            let text = try #require(texts[file])
            let shown = file == "report.html" ? "(965) 734-6354 ext. 31" : "763661024l"
            #expect(text.contains(shown), "\(file) does not show \(shown)")
        }
        #expect(texts["report.json"]?.contains(#""samplesRedacted": false,"#) == true)
    }

    @Test("--redact-samples with --samples raw is a usage error (64), named by both flags")
    func contradiction() throws {
        let demo = Maskclean.fixtures.appendingPathComponent("demo")
        let outcome = try Maskclean.run(
            ["check", "spec.json", "customers.csv", "--redact-samples", "--samples", "raw"], in: demo)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--redact-samples and --samples raw say opposite things"))
    }
}

/// The reviews of issue 29's reports: what a stopped run's report may say, and what it may not
/// replace.
@Suite("A stopped run's report: redacted, and never over its baseline")
struct StoppedReportEndToEndTests {
    @Test("a headerless export read as if it had a header: the report's error shows its cells by their shape")
    func headerCellsRedacted() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("spec.json", #"{"columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#)
        _ = try folder.write("export.csv", "Alice Secret,alice@example.com,5551234999\n")
        let outcome = try Maskclean.run(
            [
                "check", "spec.json", "export.csv", "--report", "r.json", "--junit", "j.xml", "--annotations",
                "github",
            ],
            in: folder.url)
        #expect(outcome.status == 78)
        // Standard error keeps the names, to help; the reports, which many read, do not.
        #expect(outcome.stderr.contains("alice@example.com"))
        for text in [try folder.text("r.json"), try folder.text("j.xml"), outcome.stdoutText] {
            #expect(!text.contains("alice") && !text.contains("5551234999"), "\(text)")
            #expect(text.contains("xxxxx@xxxxxxx.xxx"), "\(text)")
        }
        let raw = try Maskclean.run(
            ["check", "spec.json", "export.csv", "--report", "r.json", "--samples", "raw"], in: folder.url)
        #expect(raw.status == 78)
        #expect(try folder.text("r.json").contains("alice@example.com"))
    }

    @Test("--baseline X --report X: a stopped run leaves X as it was, and the next night compares with it")
    func baselineKept() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "spec.json", #"{"maxDrop": 0.5, "columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#)
        _ = try folder.write("good.csv", "id,phone\n1,5551234\n2,5559876\n")
        _ = try folder.write("bad.csv", "id,phone\n1,5551234\n2,\"555\n")
        let first = try Maskclean.run(
            ["check", "spec.json", "good.csv", "--report", "last.json"], in: folder.url)
        #expect(first.status == 0)
        let kept = try folder.text("last.json")
        let stopped = try Maskclean.run(
            [
                "check", "spec.json", "bad.csv", "--baseline", "last.json", "--report", "last.json",
                "--junit", "j.xml",
            ],
            in: folder.url)
        #expect(stopped.status == 65)
        #expect(
            try folder.text("last.json") == kept, "the baseline is not replaced by a stopped run's report")
        #expect(try folder.text("j.xml").contains("<error message=\"bad.csv:3: unterminated quoted field\""))
        let next = try Maskclean.run(
            ["check", "spec.json", "good.csv", "--baseline", "last.json", "--report", "last.json"],
            in: folder.url)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try folder.text("last.json").contains(#""baseline": {"report": "last.json", "rows": 2,"#))
    }

    @Test("an error committing the reports writes no second report after the first")
    func commitErrorOnce() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("spec.json", #"{"columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#)
        _ = try folder.write("good.csv", "id,phone\n1,5551234\n")
        let outcome = try Maskclean.run(
            ["check", "spec.json", "good.csv", "--report", "-", "--junit", "/dev/full", "--quiet"],
            in: folder.url)
        #expect(outcome.status == 74)
        #expect(outcome.stdoutText.components(separatedBy: "\"rows\":").count <= 2, "\(outcome.stdoutText)")
        #expect(!outcome.stdoutText.contains("\"status\": 74"))
    }

    @Test("the HTML page names a row count that changed past maxRowsChange, and the baseline's rows")
    func rowsChangeOnThePage() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "spec.json", #"{"maxRowsChange": 0.1, "columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#)
        _ = try folder.write("two.csv", "id,phone\n1,5551234\n2,5559876\n")
        _ = try folder.write("three.csv", "id,phone\n1,5551234\n2,5559876\n3,5550000\n")
        _ = try Maskclean.run(["check", "spec.json", "two.csv", "--report", "base.json"], in: folder.url)
        let outcome = try Maskclean.run(
            ["check", "spec.json", "three.csv", "--baseline", "base.json", "--html", "t.html"], in: folder.url
        )
        #expect(outcome.status == 1)
        let page = try folder.text("t.html")
        #expect(page.contains(#"<dd id="result">FAILED (rows changed more than maxRowsChange)</dd>"#))
        #expect(page.contains(#"<dd id="rows">3 · baseline <b class="baseline">2</b></dd>"#))
    }
}
