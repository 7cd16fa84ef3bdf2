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

    @Test(
        "every expected JUnit file is valid against the junit-10 schema (xmllint --schema)",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: xmllint), "xmllint is not installed (make deps)")
    )
    func schemaValid() throws {
        let files = Self.expectedJUnitFiles
        #expect(files.count >= 2)
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

    @Test("the demo's counts agree across the JSON report, the JUnit XML and the Markdown summary")
    func countsAgree() throws {
        let scratch = try TemporaryFolder()
        let demo = Maskclean.fixtures.appendingPathComponent("demo")
        let outcome = try Maskclean.run(
            [
                "check", "spec.json", "customers.csv", "--report", scratch.path("report.json"), "--junit",
                scratch.path("junit.xml"), "--markdown", scratch.path("summary.md"),
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

        #expect(junit.suites.count == 1 && junit.suites[0]["name"] == "customers.csv")
        #expect(junit.cases.count == columns.count + 1)
        let failedColumns = columns.filter { $0["passed"] as? Bool == false }.count
        #expect(Int(junit.suites[0]["failures"] ?? "") == failedColumns)
        for (index, column) in columns.enumerated() {
            let name = try #require(column["name"] as? String)
            let counts = ["complete", "lossy", "incomplete", "empty", "rejected"].map {
                column[$0] as? Int ?? -1
            }
            let testCase = junit.cases[index]
            #expect(testCase.name == name && testCase.classname == "customers.csv")
            let text = testCase.failureMessage == nil ? testCase.output : testCase.failureText
            #expect(
                text.contains(
                    "\(counts[0]) complete, \(counts[1]) lossy, \(counts[2]) incomplete, \(counts[3]) empty, \(counts[4]) rejected of \(rows) rows"
                ), "\(name): \(text)")
            #expect((testCase.failureMessage == nil) == (column["passed"] as? Bool == true))
            // The Markdown table's row: name, complete %, lossy, incomplete, empty, threshold, result.
            let row = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| \(name) |") })
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[2...4].map { Int($0) } == [counts[1], counts[2], counts[3]], "\(row)")
            #expect(cells[6] == (column["passed"] as? Bool == true ? "pass" : "**FAILED**"))
            let ratio = try #require(column["completeRatio"] as? Double)
            #expect(cells[1].hasPrefix(String(format: "%.2f", (ratio * 10000).rounded(.down) / 100)))
        }
    }
}
