import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The JUnit XML read back by an XML parser and checked against the JUnit schema, and the
/// formats of one run compared with each other.
@Suite("CI reports, end to end")
struct CIReportEndToEndTests {
    static let schema = Maskclean.fixture("junit/junit-10.xsd")
    static let xmllint = "/usr/bin/xmllint"

    /// The JUnit files the fixture cases expect.
    static var expectedJUnitFiles: [String] {
        let cases = Maskclean.fixtures.appendingPathComponent("cases")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cases.path)) ?? []
        return names.sorted().map {
            cases.appendingPathComponent($0).appendingPathComponent("expected.junit.xml").path
        }
        .filter { FileManager.default.fileExists(atPath: $0) }
    }

    // Not skipped when xmllint is missing: a check that does not run proves nothing. `make test`
    // installs it.
    @Test("every expected JUnit file is valid against the junit-10 schema (xmllint --schema)")
    func schemaValid() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.xmllint),
            "xmllint is not installed: `make test` (or `make test-deps`) installs it")
        let files = Self.expectedJUnitFiles
        #expect(files.count >= 4)
        for file in files {
            let lint = Process()
            lint.executableURL = URL(fileURLWithPath: Self.xmllint)
            lint.arguments = ["--noout", "--schema", Self.schema, file]
            let errors = Pipe()
            lint.standardError = errors
            try lint.run()
            let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            lint.waitUntilExit()
            #expect(lint.terminationStatus == 0, "\(file): \(messages)")
        }
    }

    /// The test cases of a JUnit file as an XML parser reads them.
    final class JUnitReader: NSObject, XMLParserDelegate {
        struct TestCase {
            var classname = ""
            var name = ""
            var failureMessage: String?
            var failureText = ""
            var output = ""
        }

        var cases: [TestCase] = []
        var suites: [[String: String]] = []
        private var element = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            element = name
            switch name {
            case "testsuite": suites.append(attributes)
            case "testcase":
                cases.append(
                    TestCase(classname: attributes["classname"] ?? "", name: attributes["name"] ?? ""))
            case "failure": cases[cases.count - 1].failureMessage = attributes["message"] ?? ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !cases.isEmpty else { return }
            if element == "failure" { cases[cases.count - 1].failureText += string }
            if element == "system-out" { cases[cases.count - 1].output += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
        ) {
            element = ""
        }

        static func read(_ data: Data) -> JUnitReader? {
            let reader = JUnitReader()
            let parser = XMLParser(data: data)
            parser.delegate = reader
            return parser.parse() ? reader : nil
        }
    }

    @Test("hostile cell values come back from an XML parser exactly, control characters as visible escapes")
    func hostileValuesRoundTrip() throws {
        let folder = Maskclean.fixtures.appendingPathComponent("cases/hostile-values-in-reports")
        let junit = try #require(
            JUnitReader.read(try Data(contentsOf: folder.appendingPathComponent("expected.junit.xml"))))
        #expect(junit.cases.map(\.name) == ["ph|one, <b>:x%", "rejected records"])
        let failure = junit.cases[0].failureText
        #expect(junit.cases[0].failureMessage == "complete 0.00% < minComplete 50.00%")
        for value in [
            "<script>alert(1)</script>", #"a & b "q" 'x'"#, "line1\nline2", #"ctl\u0001\u001B"#, "cr\rinside",
            "]]> <!-- -->", "`code` *em* _u_ [l](u) ~s~ $x$ | pipe",
        ] {
            #expect(failure.contains(value), "\(value.debugDescription) not in \(failure.debugDescription)")
        }
    }

    @Test(
        "the demo's counts agree across the JSON report, the JUnit XML, the Markdown summary and the HTML page"
    )
    func countsAgree() throws {
        let scratch = try TemporaryFolder()
        let demo = Maskclean.fixtures.appendingPathComponent("demo")
        let outcome = try Maskclean.run(
            [
                "check", "spec.json", "customers.csv", "--samples", "raw", "--report",
                scratch.path("report.json"),
                "--junit",
                scratch.path("junit.xml"), "--markdown", scratch.path("summary.md"), "--annotations",
                "github", "--html", scratch.path("report.html"),
            ], in: demo)
        #expect(outcome.status == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: scratch.url.appendingPathComponent("report.json")))
                as? [String: Any])
        let columns = try #require(report["columns"] as? [[String: Any]])
        let junit = try #require(
            JUnitReader.read(try Data(contentsOf: scratch.url.appendingPathComponent("junit.xml"))))
        let markdown = try String(
            contentsOf: scratch.url.appendingPathComponent("summary.md"), encoding: .utf8)
        let rows = try #require(report["rows"] as? Int)
        // The page's count tables, column after column: complete, lossy, incomplete, invalid, empty,
        // rejected.
        let page = try String(contentsOf: scratch.url.appendingPathComponent("report.html"), encoding: .utf8)
        // The page's cards, failing columns first: each column's counts are found by its card.
        var pageCounts: [String: [Int]] = [:]
        for card in page.components(separatedBy: "<article ").dropFirst() {
            let name = try #require(card.firstMatch(of: #/<span class="name">([^<]*)</span>/#)).output.1
            pageCounts[String(name)] = card.matches(
                of:
                    #/<tr class="(?:complete|lossy|incomplete|invalid|empty|rejected)"><td>.*?</td><td class="n">([0-9]+)</td>/#
            ).map { Int($0.output.1)! }
        }
        #expect(pageCounts.count == columns.count)

        #expect(junit.suites.count == 1 && junit.suites[0]["name"] == "customers.csv")
        #expect(junit.cases.count == columns.count + 1)
        let failedColumns = columns.filter { $0["passed"] as? Bool == false }.count
        #expect(Int(junit.suites[0]["failures"] ?? "") == failedColumns)
        #expect(outcome.stdoutText.split(separator: "\n").count { $0.hasPrefix("::error ") } == failedColumns)
        for (index, column) in columns.enumerated() {
            let name = try #require(column["name"] as? String)
            let counts = ["complete", "lossy", "incomplete", "empty", "rejected"].map {
                column[$0] as? Int ?? -1
            }
            let invalid = try #require(column["invalid"] as? Int)
            let shown = pageCounts[name] ?? []
            #expect(shown == Array(counts[0...2]) + [invalid] + counts[3...], "\(name) on the HTML page")
            let testCase = junit.cases[index]
            #expect(testCase.name == name && testCase.classname == "maskclean.customers.csv")
            let text = testCase.failureMessage == nil ? testCase.output : testCase.failureText
            #expect(
                text.contains(
                    "\(counts[0]) complete, \(counts[1]) lossy, \(counts[2]) incomplete, "
                        + (invalid > 0 ? "\(invalid) invalid, " : "")
                        + "\(counts[3]) empty, \(counts[4]) rejected of \(rows) rows"
                ), "\(name): \(text)")
            #expect((testCase.failureMessage == nil) == (column["passed"] as? Bool == true))
            // The Markdown table's row: name, complete %, lossy, incomplete, invalid, empty, threshold,
            // result.
            let row = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| \(name) |") })
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[2...5].map { Int($0) } == [counts[1], counts[2], invalid, counts[3]], "\(row)")
            #expect(cells[7] == (column["passed"] as? Bool == true ? "pass" : "**FAILED**"))
            let ratio = try #require(column["completeRatio"] as? Double)
            #expect(cells[1].hasPrefix(String(format: "%.2f", (ratio * 10000).rounded(.down) / 100)))
        }
    }

    @Test(
        "annotations: on under GITHUB_ACTIONS=true unless --annotations none; on stdout unless records go there"
    )
    func annotationsWhereAndWhen() throws {
        let scratch = try TemporaryFolder()
        let demo = Maskclean.fixtures.appendingPathComponent("demo")
        let actions = ["GITHUB_ACTIONS": "true"]
        let off = try Maskclean.run(
            ["check", "spec.json", "customers.csv", "--annotations", "none", "--quiet"], in: demo,
            environment: actions)
        #expect(off.status == 1 && off.stdout.isEmpty && off.stderr.isEmpty)
        let toFile = try Maskclean.run(
            ["run", "spec.json", "customers.csv", "-o", scratch.path("clean.csv"), "--quiet"], in: demo,
            environment: actions)
        #expect(toFile.stdoutText.hasPrefix("::error file=customers.csv,title=maskclean card::"))
        #expect(toFile.stderr.isEmpty)
        let reportOnStdout = try Maskclean.run(
            ["check", "spec.json", "customers.csv", "--report", "-", "--quiet"], in: demo,
            environment: actions)
        #expect(reportOnStdout.stdoutText.hasPrefix("{"))
        #expect(reportOnStdout.stderr.hasPrefix("::error "))
        let outsideActions = try Maskclean.run(["check", "spec.json", "customers.csv", "--quiet"], in: demo)
        #expect(outsideActions.stdout.isEmpty)
    }

    @Test("the step summary is appended, and kept under 1 MiB with what the file holds already")
    func stepSummaryLimit() throws {
        let scratch = try TemporaryFolder()
        let demo = Maskclean.fixtures.appendingPathComponent("demo")
        let summary = scratch.path("summary.md")
        let before = String(repeating: "x", count: (1 << 20) - 1200) + "\n"
        try before.write(toFile: summary, atomically: false, encoding: .utf8)
        let outcome = try Maskclean.run(
            ["check", "spec.json", "customers.csv", "--quiet", "--annotations", "none"], in: demo,
            environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(outcome.status == 1)
        let after = try Data(contentsOf: URL(fileURLWithPath: summary))
        #expect(after.count < 1 << 20)
        let appended = String(decoding: after.dropFirst(before.utf8.count), as: UTF8.self)
        #expect(appended.hasPrefix("## maskclean: customers.csv: FAILED"))
        #expect(appended.contains("| card | 92.39% |") && !appended.contains("### Samples of zip"))
        #expect(appended.contains("Samples left out"))
    }
}
