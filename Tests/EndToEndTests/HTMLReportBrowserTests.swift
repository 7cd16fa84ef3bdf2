import Foundation
import TestSupport
import Testing

/// `--html` as a browser shows it: the demo's page and a page of hostile values, rendered by
/// headless Chromium (Debian's `chromium`, which `make test` installs). The DOM it dumps after
/// loading the page is checked, and screenshots at a desktop's and a phone's width must not be
/// blank.
@Suite("The HTML report in a real browser")
struct HTMLReportBrowserTests {
    /// Chromium, where Debian puts it or on the PATH.
    static let chromium: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = ["/usr/bin"] + path.split(separator: ":").map(String.init)
        for directory in directories {
            for name in ["chromium", "chromium-browser"] {
                let candidate = directory + "/" + name
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Runs headless Chromium on `page` with `arguments` added, and returns its standard output.
    /// Each run has a profile of its own, so that tests running at once do not share one.
    static func chromium(_ arguments: [String], page: String, in folder: TemporaryFolder) throws -> Data {
        guard let chromium else {
            throw BrowserError("chromium not found: `make test` (or `make test-deps`) installs it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--user-data-dir=" + folder.path("profile-\(UUID().uuidString)"),
            ] + arguments + [URL(fileURLWithPath: page).absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        let reader = BackgroundReader { handle.readDataToEndOfFile() }
        // It takes about a second; a page that runs a script's alert() keeps it waiting forever.
        guard reader.finished(within: 30) else {
            process.terminate()
            throw BrowserError("chromium did not finish within 30 s (a script waiting on an alert?)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BrowserError("chromium exited \(process.terminationStatus)")
        }
        return reader.data
    }

    static func dom(_ page: String, in folder: TemporaryFolder, _ flags: [String] = []) throws -> String {
        String(decoding: try chromium(flags + ["--dump-dom"], page: page, in: folder), as: UTF8.self)
    }

    /// The DOM without its attribute values (Chromium writes every one in double quotes), to
    /// look for elements only.
    static func elementsOnly(_ dom: String) -> String {
        dom.replacing(#/="[^"]*"/#, with: "")
    }

    @Test("the demo's page: one bar per column, with the report's counts")
    func demoPage() throws {
        let folder = try TemporaryFolder()
        let outcome = try Maskclean.run([
            "check", Maskclean.fixture("demo/spec.json"), Maskclean.fixture("demo/customers.csv"),
            "--html", folder.path("report.html"), "--report", folder.path("report.json"), "--quiet",
        ])
        #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(folder.read("report.json"))) as? [String: Any])
        let columns = try #require(report["columns"] as? [[String: Any]])
        let dom = try Self.dom(folder.path("report.html"), in: folder)

        #expect(dom.contains("<dd id=\"rows\">\(report["rows"] as? Int ?? -1)</dd>"))
        let cards = dom.components(separatedBy: "<article ").dropFirst()
        #expect(cards.count == columns.count)
        #expect(dom.components(separatedBy: "<svg class=\"bar\"").count - 1 == columns.count)
        // Failing columns first, then the rest, each in spec order (docs/report.md#the-html-page).
        let order = columns.indices.sorted {
            let failed = { (index: Int) in columns[index]["passed"] as? Bool == false ? 0 : 1 }
            return failed($0) != failed($1) ? failed($0) < failed($1) : $0 < $1
        }
        for (card, column) in zip(cards, order.map { columns[$0] }) {
            let name = try #require(column["name"] as? String)
            #expect(card.contains("<span class=\"name\">\(name)</span>"))
            #expect(card.components(separatedBy: "<svg class=\"bar\"").count == 2, "one bar in \(name)")
            var start = 0
            for status in ["complete", "lossy", "incomplete", "invalid", "empty", "rejected"] {
                let count = try #require(column[status] as? Int)
                #expect(
                    card.contains(
                        "<tr class=\"\(status)\"><td><span class=\"swatch \(status)\"></span>\(status)</td><td class=\"n\">\(count)</td>"
                    ),
                    "\(name): \(status) \(count)")
                if count > 0 {
                    #expect(
                        card.contains("<rect class=\"\(status)\" x=\"\(start)\" y=\"0\" width=\"\(count)\""))
                }
                start += count
            }
            #expect(card.contains("<line class=\"threshold\"") == (column["minComplete"] is Double))
        }
        #expect(!Self.elementsOnly(dom).contains("<script"))
    }

    @Test(
        "against a baseline: failing columns first, one complete figure, the warn level, the baseline, the shapes"
    )
    func baselinePage() throws {
        let folder = try TemporaryFolder()
        let nightly = Maskclean.fixtures.appendingPathComponent("cases/baseline-nightly")
        let outcome = try Maskclean.run(
            [
                "check", "spec.json", "tonight.csv", "--baseline", "last-night.json.gz", "--html",
                folder.path("report.html"), "--quiet",
            ], in: nightly)
        #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
        let dom = try Self.dom(folder.path("report.html"), in: folder)
        let cards = dom.components(separatedBy: "<article ").dropFirst().map { $0 }
        try #require(cards.count == 2)
        // phone fell past its maxDrop: the failing card comes first.
        #expect(
            cards[0].contains("<span class=\"name\">phone</span> <span class=\"verdict fail\">FAIL</span>"))
        #expect(cards[1].contains("<span class=\"name\">zip</span> <span class=\"verdict pass\">pass</span>"))
        // One complete figure: the headline's ratio is the complete row's share.
        #expect(cards[0].contains("complete <b class=\"complete\">60.00%</b>"))
        #expect(cards[0].contains("<td class=\"n\">6</td><td class=\"n\">60.00%</td>"))
        // The warn level and the baseline drawn on the bar, the baseline's ratio beside today's.
        #expect(cards[0].contains("<line class=\"warn-level\" x1=\"7\""))
        #expect(cards[0].contains("<line class=\"baseline-level\""))
        #expect(
            cards[0].contains(
                "baseline <b class=\"baseline\">87.50%</b> (-27.50 pts) · maxDrop <b>5.00 pts</b>"))
        #expect(cards[0].contains("<th class=\"n\">since baseline</th>"))
        // The shapes with their counts, and the samples with key, formatted value and what was dropped.
        #expect(cards[0].contains("<h3>Incomplete shapes</h3>"))
        #expect(cards[0].contains("<tr><td><code>999999</code></td><td class=\"n\">2</td></tr>"))
        #expect(cards[0].contains("row 5 (customer_id C-5)"))
        #expect(dom.contains("<dd id=\"started\">"))
        #expect(!Self.elementsOnly(dom).contains("<script"))
    }

    @Test("a hostile column name and cell show as text, never as elements")
    func hostileValues() throws {
        let folder = try TemporaryFolder()
        let script = "<script>alert(1)</script>"
        try folder.write(
            "spec.json",
            """
            {"maxRejected": 5, "columns": [{"name": "<script>alert(1)</script>", "format": "[000]-[0000]"},
             {"name": "b\\"'><img src=x onerror=alert(2)>", "format": "[00]", "minComplete": 0.5}]}
            """)
        try folder.write(
            "in.csv",
            """
            \(script),"b""'><img src=x onerror=alert(2)>"
            \(script),"<img src=x onerror=alert(3)>"
            555-1234,12
            "unterminated,1

            """)
        let outcome = try Maskclean.run([
            "check", folder.path("spec.json"), folder.path("in.csv"), "--html", folder.path("report.html"),
            "--on-error", "skip", "--samples", "raw", "--quiet",
        ])
        #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
        let dom = try Self.dom(folder.path("report.html"), in: folder)
        let shownScript = "&lt;script&gt;alert(1)&lt;/script&gt;"
        #expect(dom.contains("<span class=\"name\">\(shownScript)</span>"))
        #expect(dom.contains("<code>\(shownScript)</code>"))
        #expect(dom.contains("<span class=\"name\">b\"'&gt;&lt;img src=x onerror=alert(2)&gt;</span>"))
        #expect(dom.contains("<code>&lt;img src=x onerror=alert(3)&gt;</code>"))
        #expect(dom.contains("<code>unterminated quoted field</code>"))
        let elements = Self.elementsOnly(dom)
        #expect(!elements.contains("<script"))
        #expect(!elements.contains("<img"))
        #expect(elements.components(separatedBy: "<svg class").count - 1 == 2)
    }

    @Test(
        "screenshots at 1280 px and at a phone's 390 px are not blank",
        arguments: [(1280, 1600), (390, 1600)])
    func screenshot(width: Int, height: Int) throws {
        let folder = try TemporaryFolder()
        let outcome = try Maskclean.run([
            "check", Maskclean.fixture("demo/spec.json"), Maskclean.fixture("demo/customers.csv"),
            "--html", folder.path("report.html"), "--quiet",
        ])
        #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
        try folder.write("blank.html", "<!DOCTYPE html><html><body></body></html>\n")
        let size = "--window-size=\(width),\(height)"
        _ = try Self.chromium(
            ["--screenshot=" + folder.path("page.png"), size], page: folder.path("report.html"), in: folder)
        _ = try Self.chromium(
            ["--screenshot=" + folder.path("blank.png"), size], page: folder.path("blank.html"), in: folder)
        let page = try folder.read("page.png")
        let blank = try folder.read("blank.png")
        for png in [page, blank] {
            #expect(PNGHeader(png)?.width == width)
            #expect(PNGHeader(png)?.height == height)
        }
        // A page of one colour compresses to almost nothing; the report's bars, tables and text
        // do not.
        #expect(page.count > 5 * blank.count, "page \(page.count) bytes, blank \(blank.count) bytes")
    }
}

extension HTMLReportBrowserTests {
    /// How wide each page's content is against its viewport, at each width: every page is shown
    /// in a frame of every width by one page of the test's own, whose script writes the figures
    /// into its DOM once all have loaded (the report has no script; a frame's document can only be
    /// read across file URLs with --allow-file-access-from-files). One browser for them all.
    static func widths(of pages: [String], at widths: [Int], in folder: TemporaryFolder) throws -> [(
        page: String, width: Int, content: Int, view: Int
    )] {
        let frames = pages.flatMap { page in widths.map { (page, $0) } }
        let tags = frames.map { page, width in
            "<iframe src=\"\(URL(fileURLWithPath: page).absoluteString)\" style=\"width:\(width)px;height:600px\"></iframe>"
        }
        let holder = try folder.write(
            "frames.html",
            """
            <!DOCTYPE html><html><body>
            \(tags.joined(separator: "\n"))
            <script>
            window.onload = function () {
              var frames = document.getElementsByTagName("iframe"), out = [];
              for (var i = 0; i < frames.length; i++) {
                var root = frames[i].contentDocument.documentElement;
                out.push(root.scrollWidth + " " + root.clientWidth);
              }
              document.body.setAttribute("data-widths", out.join(","));
            };
            </script>
            </body></html>
            """)
        let dom = try dom(holder, in: folder, ["--allow-file-access-from-files"])
        let found = try #require(dom.firstMatch(of: #/data-widths="([0-9 ,]+)"/#), "no widths in \(dom)")
        let figures = found.1.split(separator: ",").map { $0.split(separator: " ").compactMap { Int($0) } }
        try #require(figures.count == frames.count && figures.allSatisfy { $0.count == 2 }, "\(found.1)")
        return zip(frames, figures).map { ($0.0, $0.1, $1[0], $1[1]) }
    }

    @Test("no horizontal scrolling at 1280, 390 or 320 px, long unbreakable values included")
    func fitsTheWidth() throws {
        let folder = try TemporaryFolder()
        var outcome = try Maskclean.run([
            "check", Maskclean.fixture("demo/spec.json"), Maskclean.fixture("demo/customers.csv"),
            "--html", folder.path("demo.html"), "--quiet",
        ])
        #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
        // Values with nowhere to break: a long column name, format, cell and path.
        let name = String(repeating: "n", count: 120)
        try folder.write(
            "spec.json",
            #"{"columns": [{"name": "\#(name)", "format": "\#(String(repeating: "[0]", count: 60))"}]}"#)
        try folder.write(
            String(repeating: "p", count: 100) + ".csv",
            name + "\n" + String(repeating: "9x", count: 150) + "\n")
        outcome = try Maskclean.run([
            "check", folder.path("spec.json"), folder.path(String(repeating: "p", count: 100) + ".csv"),
            "--html", folder.path("long.html"), "--quiet",
        ])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let pages = [folder.path("demo.html"), folder.path("long.html")]
        for frame in try Self.widths(of: pages, at: [1280, 390, 320], in: folder) {
            #expect(frame.view > 0 && frame.content <= frame.view, "\(frame)")
        }
    }
}

/// A PNG's signature and image header: its size in pixels.
struct PNGHeader {
    var width: Int
    var height: Int

    init?(_ bytes: [UInt8]) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = number(16)
        height = number(20)
    }
}

struct BrowserError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
