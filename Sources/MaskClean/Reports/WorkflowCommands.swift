extension Report {
    /// GitHub Actions workflow commands, one a line: an `::error` or `::warning` for every
    /// finding (`Report.findings`), escaped as the Actions toolkit escapes them.
    ///
    ///     ::error file=exports/customers.csv,title=maskclean phone::complete 91.64% < minComplete 95.00% (53 lossy, 23 incomplete)
    public var workflowCommands: String {
        if let error {
            // The error at its place: GitHub shows it on that line of the file's diff.
            var properties: [(String, String)] = []
            if let file = error.file, file != "-", file != "stdin" { properties.append(("file", file)) }
            if let line = error.line { properties.append(("line", String(line))) }
            properties.append(("title", "maskclean \(Self.stoppedSubject)"))
            return WorkflowCommand.line("error", properties: properties, message: error.message) + "\n"
        }
        return findings.map { finding in
            var properties: [(String, String)] = []
            if input != "-" { properties.append(("file", input)) }
            properties.append(("title", "maskclean \(finding.subject)"))
            let message = finding.detail.isEmpty ? finding.message : "\(finding.message) (\(finding.detail))"
            return WorkflowCommand.line(finding.level.rawValue, properties: properties, message: message)
                + "\n"
        }.joined()
    }
}

/// One workflow command, `::name key=value,key=value::message`. The runner prints it in the job's
/// log, so the message and the properties are first shown as every message is (`visible`: a
/// column name cannot drive the terminal of whoever reads the log), then escaped exactly as
/// `@actions/core` does: `%`, CR and LF in the message; those and `:` and `,` in a property.
enum WorkflowCommand {
    static func line(_ name: String, properties: [(String, String)], message: String) -> String {
        let list = properties.map { "\($0.0)=\(escapedProperty(visible($0.1)))" }.joined(separator: ",")
        return "::\(name)\(list.isEmpty ? "" : " " + list)::\(escapedData(visible(message)))"
    }

    static func escapedData(_ text: String) -> String {
        escaped(text, also: [:])
    }

    static func escapedProperty(_ text: String) -> String {
        escaped(text, also: [":": "%3A", ",": "%2C"])
    }

    private static func escaped(_ text: String, also more: [Unicode.Scalar: String]) -> String {
        text.replacingScalars { scalar in
            switch scalar {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            default: more[scalar]
            }
        }
    }
}
