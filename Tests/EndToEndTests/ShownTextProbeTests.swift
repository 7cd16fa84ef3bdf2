import Foundation
import TestSupport
import Testing

/// Text from the data on its way to a terminal or a log: the annotations printed it raw while
/// every other output escaped it, and invisible characters showed as nothing in every message.
/// Each test reproduces what main printed before the fix.
@Suite("Hostile probes: text shown to a person")
struct ShownTextProbeTests {
    /// A column name that clears the screen, hides a hyperlink (OSC 8), rings the bell, sends a
    /// C1 CSI, reverses the text after it and ends in a zero-width space.
    static let hostileName =
        "ph\u{1B}[2J\u{1B}]8;;https://evil.example\u{07}one\u{1B}]8;;\u{07}\u{9B}31m\u{202E}\u{200B}"
    static let shownName =
        #"ph\x1b[2J\x1b]8;;https://evil.example\x07one\x1b]8;;\x07\u{009b}31m\u{202e}\u{200b}"#
    /// Every scalar of `hostileName` that must not reach a terminal as it is.
    static let raw: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}", "\u{200B}"]

    static func json(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    static func rawScalars(_ text: String) -> [String] {
        raw.filter { text.unicodeScalars.contains($0) }.map { String(format: "U+%04X", $0.value) }
    }

    /// Regression: `::error file=…,title=maskclean ph␛[2J…` went to the job's log as it was, the
    /// column's name in the title and a JSON key in a rejected record's reason in the message.
    @Test("annotations, the summary and the step summary show hostile names and reasons escaped")
    func annotationsAndSummaries() throws {
        let scratch = try TemporaryFolder()
        let name = try Self.json(Self.hostileName)
        _ = try scratch.write(
            "spec.json", #"{"columns": [{"name": \#(name), "format": "[000]", "minComplete": 1}]}"#)
        // The second record's value is an object: rejected, with the key in its reason.
        let input = "in\u{1B}]0;title\u{07}\u{202E}.ndjson"
        _ = try scratch.write(input, "{\(name): \"12\"}\n{\(name): {\"x\": 1}}\n{\(name): \"1\u{200B}\"}\n")
        let outcome = try Maskclean.run(
            [
                "check", "spec.json", input, "--annotations", "github", "--on-error", "skip", "--samples",
                "raw",
            ],
            in: scratch.url,
            environment: ["GITHUB_STEP_SUMMARY": scratch.path("step.md")])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let annotations = outcome.stdoutText
        let stepSummary = try scratch.text("step.md")
        for (output, text) in [
            ("annotations", annotations), ("summary", outcome.stderr), ("step summary", stepSummary),
        ] {
            #expect(Self.rawScalars(text).isEmpty, "\(output): \(text.debugDescription)")
        }
        // In a property `:` is `%3A`, as @actions/core writes it.
        let title = "maskclean " + Self.shownName.replacingOccurrences(of: ":", with: "%3A")
        #expect(
            annotations.contains(
                #"::error file=in\x1b]0;title\x07\u{202e}.ndjson,title=\#(title)::complete "#),
            "\(annotations)")
        #expect(
            annotations.contains(#"line 2: key "\#(Self.shownName)" holds an object"#), "\(annotations)")
        #expect(outcome.stderr.contains("\n" + Self.shownName + " "), "\(outcome.stderr)")
        #expect(stepSummary.contains(#"ph\\x1b\[2J\\x1b\]8;;"#), "\(stepSummary)")
        #expect(stepSummary.contains(#"| 1\\u{200b} |"#), "\(stepSummary)")
    }

    /// Regression: `1 blank line skipped (line 3 of part p‮x)` reversed the rest of the line.
    @Test("the summary shows a partition's name escaped")
    func partitionName() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", #"{"columns": [{"name": "phone", "format": "[000]"}]}"#)
        _ = try scratch.write("in.csv", "id,phone\n1,123\n\n2,456\n")
        let outcome = try Maskclean.run(
            ["check", "spec.json", "in.csv", "--part", "p\u{202E}\u{200B}\u{A0}x"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(#"1 blank line skipped (line 3 of part p\u{202e}\u{200b}\u{00a0}x)"#),
            "\(outcome.stderr)")
        #expect(Self.rawScalars(outcome.stderr).isEmpty)
    }

    /// Regression: `unknown key "minComplete​" (did you mean "minComplete"?)` named two keys that
    /// looked the same.
    @Test(
        "a message shows invisible characters and spaces that are not the ASCII space as escapes",
        arguments: [("\u{200B}", #"\u{200b}"#), ("\u{A0}", #"\u{00a0}"#), ("\u{2060}", #"\u{2060}"#)])
    func invisibleInMessages(character: String, shown: String) throws {
        let scratch = try TemporaryFolder()
        let key = try Self.json("minComplete" + character)
        _ = try scratch.write(
            "spec.json", #"{"columns": [{"name": "phone", "format": "[000]", \#(key): 1}]}"#)
        _ = try scratch.write("in.csv", "phone\n123\n")
        let outcome = try Maskclean.run(["check", "spec.json", "in.csv"], in: scratch.url)
        #expect(outcome.status == 78)
        #expect(
            outcome.stderr.contains(#"unknown key "minComplete\#(shown)" (did you mean "minComplete"?)"#),
            "\(outcome.stderr.debugDescription)")
        #expect(!outcome.stderr.contains(character))
    }

    /// Regression: describe's line on stderr and apply's table showed invisible characters raw.
    @Test("describe's line and apply's table show invisible characters as escapes")
    func describeAndApply() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write(
            "in.csv", "id,phone\u{200B},zip\u{A0}\n1,555-123-4567,12345\n2,555-987-6543,54321\n")
        let describe = try Maskclean.run(["describe", "in.csv", "-o", "spec.yaml"], in: scratch.url)
        #expect(describe.status == 0, "\(describe.stderr)")
        #expect(describe.stderr.contains(#"phone\u{200b}"#), "\(describe.stderr.debugDescription)")
        #expect(!describe.stderr.contains("\u{200B}") && !describe.stderr.contains("\u{A0}"))
        let apply = try Maskclean.run(
            ["apply", "[000]", "12\u{200B}3", "\u{1B}[2J\u{FEFF}"], in: scratch.url)
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(apply.stdoutText.contains(#"12\u{200b}3"#), "\(apply.stdoutText.debugDescription)")
        #expect(apply.stdoutText.contains(#"\x1b[2J\u{feff}"#), "\(apply.stdoutText.debugDescription)")
        #expect(Self.rawScalars(apply.stdoutText).isEmpty && !apply.stdoutText.contains("\u{FEFF}"))
    }
}
