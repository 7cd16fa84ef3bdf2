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
