import Foundation
import TestSupport
import Testing

/// The Markdown summary rendered as GitHub renders it: by cmark-gfm with its extensions (table,
/// autolink), from PyPI's cmarkgfm in the virtual environment `make test-deps` makes.
@Suite("Markdown summary, rendered by cmark-gfm")
struct MarkdownRenderingTests {
    static let python = Maskclean.fixtures.deletingLastPathComponent()
        .appendingPathComponent(".build/gfm-venv/bin/python").path

    /// Renders a Markdown file with GitHub's extensions (raw HTML kept, as GitHub keeps it before
    /// its sanitizer) and prints the HTML and the text of each table cell, heading and list item,
    /// character references decoded and comments left out, as JSON.
    static let render = #"""
        import json, sys
        from html.parser import HTMLParser
        import cmarkgfm
        from cmarkgfm.cmark import Options
        html = cmarkgfm.github_flavored_markdown_to_html(
            open(sys.argv[1], encoding="utf-8").read(), options=Options.CMARK_OPT_UNSAFE)
        class Texts(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.texts, self.open = [], None
            def handle_starttag(self, tag, attrs):
                if tag in ("td", "th", "h2", "h3", "li"):
                    self.open = ""
            def handle_endtag(self, tag):
                if tag in ("td", "th", "h2", "h3", "li") and self.open is not None:
                    self.texts.append(self.open)
                    self.open = None
            def handle_data(self, data):
                if self.open is not None:
                    self.open += data
        texts = Texts()
        texts.feed(html)
        print(json.dumps({"html": html, "texts": texts.texts}))
        """#

    struct Rendered: Decodable {
        var html: String
        var texts: [String]
    }

    static func rendered(_ path: String) throws -> Rendered {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", render, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode(Rendered.self, from: data)
    }

    /// Values GitHub's autolinking turns into links: URLs with a scheme, `www.` names, e-mail
    /// addresses with and without `mailto:` or `xmpp:`.
    static let linkLike =
        [
            "https://evil.example/login", "http://a.example", "ftp://files.example.org/x",
            "HTTPS://EXAMPLE.COM/P",
        ]
        + [
            "www.example.com", "see www.example.com now", "(www.example.com)", "*www.example.com*",
            "WWW.EXAMPLE.COM",
        ]
        + [
            "ann@example.com", "first.last+tag@sub.example.co", "mailto:ann@example.com",
            "xmpp:ann@example.com/x",
        ]
        + ["x@y.z@w.v", "https://www.example.com/a@b.c"]

    /// Regression: every one of these values, the column names and the input's name were links
    /// in the step summary and `--markdown`. Not skipped when cmarkgfm is missing: a check that
    /// does not run proves nothing.
    @Test("no URL, www. name or e-mail address becomes a link, and each shows as it is")
    func noAutolinks() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.python),
            "cmarkgfm is not installed: `make test-deps` (or `make test`) installs it into .build/gfm-venv")
        let scratch = try TemporaryFolder()
        let names = ["www.names.example", "owner@example.com"]
        _ = try scratch.write(
            "spec.json",
            #"{"samples": 20, "columns": [{"name": "\#(names[0])", "format": "[000]", "minComplete": 1},"#
                + #" {"name": "\#(names[1])", "format": "[000]"}]}"#)
        let input = "www.exports.example.csv"
        let rows = zip(Self.linkLike, Self.linkLike.reversed()).map { "\($0),\($1)\n" }
        _ = try scratch.write(input, names.joined(separator: ",") + "\n" + rows.joined())
        let outcome = try Maskclean.run(
            ["check", "spec.json", input, "--markdown", "summary.md", "--samples", "raw", "--quiet"],
            in: scratch.url,
            environment: ["GITHUB_STEP_SUMMARY": scratch.path("step.md")])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        for file in ["summary.md", "step.md"] {
            let rendered = try Self.rendered(scratch.path(file))
            #expect(!rendered.html.contains("<a "), "\(file): \(rendered.html)")
            let texts = Set(rendered.texts)
            #expect(texts.contains("maskclean: \(input): FAILED"), "\(file): \(rendered.texts)")
            for name in names {
                #expect(texts.contains(name) && texts.contains("Samples of \(name)"), "\(file): \(name)")
            }
            #expect(texts.contains { $0.hasPrefix("FAILED \(names[0]): complete") }, "\(file)")
            for value in Self.linkLike {
                #expect(texts.contains(value), "\(file): \(value) not shown as it is in \(rendered.texts)")
            }
        }
    }
}
