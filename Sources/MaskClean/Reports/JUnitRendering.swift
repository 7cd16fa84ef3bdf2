extension Report {
    /// The report as JUnit XML in the subset GitLab, Jenkins and Azure DevOps read
    /// (docs/report.md): one `testsuite` for the input, one `testcase` per spec column, one for
    /// the rejected records against `maxRejected`, and one for `minRows` when it is not met.
    public var junit: String {
        if let error { return junit(stoppedBy: error) }
        var cases: [String] = []
        var names: Set<String> = []
        var failures = 0
        let rejectedFound = runFindings.contains { $0.subject == Self.rejectedSubject }
        // One case per column, per run finding, and one for the rejected records when no finding is.
        let time = junitTime(cases: columns.count + runFindings.count + (rejectedFound ? 0 : 1))
        /// A name no earlier test case has: GitLab keeps only the first of two equal names.
        func unique(_ name: String, place: String) -> String {
            var candidate = name
            var number = 2
            if names.contains(candidate) { candidate = "\(name) (\(place))" }
            while names.contains(candidate) {
                candidate = "\(name) (\(place)) \(number)"
                number += 1
            }
            names.insert(candidate)
            return candidate
        }
        func testCase(_ name: String, failure: (message: String, text: String)?, output: String) -> String {
            var text =
                "    <testcase classname=\"\(XMLText.attribute(junitClassName))\" name=\"\(XMLText.attribute(name))\"\(time.testCase)"
            if failure == nil && output.isEmpty { return text + "/>" }
            text += ">\n"
            if let failure {
                failures += 1
                text += "      <failure message=\"\(XMLText.attribute(failure.message))\" type=\"maskclean\">"
                text += XMLText.content(failure.text) + "</failure>\n"
            }
            if !output.isEmpty { text += "      <system-out>\(XMLText.content(output))</system-out>\n" }
            return text + "    </testcase>"
        }
        for column in columns {
            let name = unique(column.spec.name, place: column.spec.place)
            var lines = [counts(of: column)]
            let findings = findings(for: column)
            // A column that missed both thresholds fails once, with both findings in its message.
            let errors = findings.filter { $0.level == .error }.map(\.message)
            for warning in findings where warning.level == .warning {
                lines.insert("WARN: \(warning.message)", at: 0)
            }
            lines += sampleLines(column)
            let body = lines.joined(separator: "\n")
            if !errors.isEmpty {
                cases.append(testCase(name, failure: (errors.joined(separator: "; "), body), output: ""))
            } else {
                cases.append(testCase(name, failure: nil, output: body))
            }
        }
        for finding in runFindings {
            let name = unique(finding.subject, place: "maskclean")
            let body = ([finding.message] + rejected.map { "\($0.place): \($0.reason)" }).joined(
                separator: "\n")
            if finding.level == .error {
                cases.append(testCase(name, failure: (finding.message, body), output: ""))
            } else {
                cases.append(testCase(name, failure: nil, output: body))
            }
        }
        if !rejectedFound {
            let name = unique(Self.rejectedSubject, place: "maskclean")
            cases.append(
                testCase(name, failure: nil, output: "0 records rejected <= maxRejected \(maxRejected)"))
        }
        let suite =
            "name=\"\(XMLText.attribute(input))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="maskclean" tests="\(cases.count)" failures="\(failures)" errors="0"\(time.run)>
              <testsuite \(suite) skipped="0"\(time.run)\(junitTimestamp)>
            \(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>

            """
    }

    /// What JUnit readers group test cases by (`classname`): `maskclean.` and the input's file
    /// name, `maskclean.customers.csv` (`maskclean.stdin` for standard input).
    var junitClassName: String {
        let name = input == "-" ? "stdin" : input.split(separator: "/").last.map(String.init) ?? input
        return "maskclean." + name
    }

    /// The suite's `timestamp`: when the run started, UTC, without a zone as JUnit's schema has it.
    private var junitTimestamp: String {
        origin.started.map { " timestamp=\"\(ReportTime.junit($0))\"" } ?? ""
    }

    /// The `time` attributes, in seconds: the run's, on the suite, and on each test case its
    /// share of it. The columns are masked together in one pass, so the run's time is shared
    /// equally, and a reader that adds up the test cases' times (GitLab) shows the run's.
    private func junitTime(cases: Int) -> (run: String, testCase: String) {
        guard let duration = origin.duration else { return ("", "") }
        return (
            " time=\"\(ReportTime.seconds(duration))\"",
            " time=\"\(ReportTime.seconds(duration / max(cases, 1)))\""
        )
    }

    /// A run that stopped: one test case, named for the input, in error with the message; its
    /// text says how far the run got. The columns' counts, partial, are no verdict on the export.
    private func junit(stoppedBy error: RunError) -> String {
        let name = XMLText.attribute(input)
        // A spec that did not load read no record; a run that stopped counted some.
        let read =
            specFingerprint.isEmpty
            ? "no record read: the spec did not load (exit \(error.status))"
            : "\(rows) record\(rows == 1 ? "" : "s") read before it stopped (exit \(error.status))"
        let time = junitTime(cases: 1)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="maskclean" tests="1" failures="0" errors="1"\(time.run)>
              <testsuite name="\(name)" tests="1" failures="0" errors="1" skipped="0"\(time.run)\(junitTimestamp)>
                <testcase classname="\(XMLText.attribute(junitClassName))" name="\(name)"\(time.testCase)>
                  <error message="\(XMLText.attribute(error.message))" type="maskclean">\(XMLText.content(error.message + "\n" + read))</error>
                </testcase>
              </testsuite>
            </testsuites>

            """
    }

    /// A column's samples, one a line, then its most common shapes per status:
    /// `lossy row 17 (id 1042): 555123456789 → 555-1234, dropped 56789`, `invalid row 4:
    /// 02/30/2024`, `incomplete shapes: 999-9999 ×412, 99999 ×37`.
    func sampleLines(_ column: Column) -> [String] {
        column.stats.samplesByStatus.flatMap { status, samples in
            samples.map { "\(status) row \($0.row)\(keyText($0)): \(sampleText($0))" }
        }
            + column.stats.shapesByStatus.compactMap { status, shapes in
                shapes.shapes.isEmpty ? nil : "\(status) shapes: \(shapesText(shapes))"
            }
    }

    /// ` (id 1042)`, ` (id 1042, region GB)`, or nothing without a key.
    func keyText(_ sample: Sample) -> String {
        guard !keyColumns.isEmpty else { return "" }
        return " (" + zip(keyColumns, sample.key).map { "\($0) \($1)" }.joined(separator: ", ") + ")"
    }

    /// A sample's value, then what the column made of it and what was dropped:
    /// `555123456789 → 555-1234, dropped 56789`.
    func sampleText(_ sample: Sample) -> String {
        var text = sample.value
        if let formatted = sample.formatted, formatted != sample.value {
            text += " → \(formatted.isEmpty ? "(nothing)" : formatted)"
        }
        if let dropped = sample.dropped, !dropped.isEmpty { text += ", dropped \(dropped)" }
        return text
    }

    /// The most common shapes with their counts: `999-9999 ×412, 99999 ×37`.
    func shapesText(_ shapes: ShapeTally) -> String {
        shapes.top().map { "\($0.shape) ×\($0.count)" }.joined(separator: ", ")
    }
}

/// Text in XML 1.0, escaped exactly: the five markup characters as entities, and every character
/// XML 1.0 does not allow (control characters but tab, line feed and carriage return; U+FFFE and
/// U+FFFF) written as a visible escape, `\u0001`, since no XML parser would read them back.
enum XMLText {
    /// Text between tags. A carriage return is a character reference, so that a parser does not
    /// turn it into a line feed.
    static func content(_ text: String) -> String {
        escaped(text, inAttribute: false)
    }

    /// An attribute value in double quotes: white space other than a space is a character
    /// reference too, so that a parser does not turn it into a space.
    static func attribute(_ text: String) -> String {
        escaped(text, inAttribute: true)
    }

    private static func escaped(_ text: String, inAttribute: Bool) -> String {
        text.replacingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\r": "&#13;"
            case "\t" where inAttribute: "&#9;"
            case "\n" where inAttribute: "&#10;"
            case "\t", "\n": nil
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                "\\u" + hexDigits(scalar.value, count: 4).uppercased()
            default: nil
            }
        }
    }
}
