import Foundation

/// A report's text without what differs from run to run: when it started and how long it took
/// (docs/report.md#where-a-report-came-from), each replaced by `TIME`. Two runs over the same
/// records give equal texts.
public func untimed(_ report: String) -> String {
    let times: [Regex<Substring>] = [
        #/"started": "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"/#,
        #/"durationSeconds": [0-9]+\.[0-9]{3}/#, #/ time="[0-9]+\.[0-9]{3}"/#,
        #/ timestamp="[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"/#,
        #/<dd id="started">[^<]*</dd>/#, #/<dd id="elapsed">[^<]*</dd>/#,
    ]
    var text = report
    for pattern in times { text = text.replacing(pattern, with: "TIME") }
    return text
}

/// `untimed` for a report's bytes; nil for bytes that are not UTF-8 text (a compressed report).
public func untimed(_ report: Data) -> String? {
    String(data: report, encoding: .utf8).map(untimed)
}

/// A report's text without where it came from (`input`, `inputBytes`, `spec`, how it was read:
/// `delimiter`, `delimiterDetected`, `encoding`) and when (`untimed`): two runs over the same
/// records under different names, or in other formats, give equal texts.
public func countsOnly(_ report: String) -> String {
    untimed(report).replacing(
        #/\n  "(input|inputBytes|spec|delimiter|delimiterDetected|encoding)": [^\n]*/#, with: "")
}

/// `countsOnly` for a report's bytes.
public func countsOnly(_ report: [UInt8]) -> String {
    countsOnly(String(decoding: report, as: UTF8.self))
}
