/// Reads back a report that `run`, `check` or `merge` wrote (docs/report.md), for `merge`. Only
/// what the counts are made of is read: the ratios, verdicts and thresholds are worked out again
/// from the spec. A file that is not such a report, or whose numbers do not add up, is malformed
/// input (65) named by its line; a report made with another spec is a spec error (78).
public enum ReportReader {
    /// A report keeps at most `Spec.maximumSamples` cells of 256 bytes per status and column: a
    /// larger file is not one.
    public static let maximumBytes = 1 << 30

    public static func load(path: String, spec: Spec) throws(MaskCleanError) -> Report {
        let bytes = try InputFile.readAll(path: path, limit: maximumBytes) { () throws(MaskCleanError) in
            throw .data(path, line: nil, "larger than \(byteCount(maximumBytes)): not a maskclean report")
        }
        return try parse(bytes, file: path, spec: spec)
    }

    public static func parse(_ bytes: [UInt8], file: String, spec: Spec) throws(MaskCleanError) -> Report {
        let root: JSONNode
        do {
            root = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                try JSONNode.parse(buffer)
            }
        } catch {
            throw ReportParser(file: file, bytes: bytes, spec: spec).failure(
                at: error.offset, "not a maskclean report: \(error.message)")
        }
        return try ReportParser(file: file, bytes: bytes, spec: spec).report(root)
    }
}

/// Walks a parsed report, checking each value's type and that the counts agree with each other.
private struct ReportParser {
    let file: String
    let bytes: [UInt8]
    let spec: Spec

    typealias Members = [String: JSONNode]

    func failure(at offset: Int, _ what: String) -> MaskCleanError {
        let line = bytes.withUnsafeBufferPointer { JSONScanner($0).lineAndColumn(of: offset).line }
        return .data(file, line: line, what)
    }

    func fail(_ node: JSONNode, _ place: String, _ what: String) -> MaskCleanError {
        failure(at: node.offset, "\(place): \(what)")
    }

    func report(_ root: JSONNode) throws(MaskCleanError) -> Report {
        let notAReport = "not a maskclean report: expected an object with \"rows\" and \"columns\""
        guard case .object = root else { throw failure(at: root.offset, notAReport) }
        // A key written twice is named with its line, not taken for a key that is missing.
        let top = try members(root, place: "report")
        guard top["columns"] != nil, top["rows"] != nil else {
            throw failure(at: root.offset, notAReport)
        }
        guard let fingerprintNode = top["specFingerprint"] else {
            throw failure(
                at: root.offset,
                "not a partial report: it has no \"specFingerprint\" (written by an older maskclean?); run the partition again"
            )
        }
        let fingerprint = try string(fingerprintNode, place: "specFingerprint")
        guard fingerprint == spec.fingerprint else {
            throw .spec(
                file, nil,
                "made with another spec than \(spec.file) (spec fingerprint \(fingerprint), \(spec.file) has \(spec.fingerprint)): partial reports merge only under the spec they were made with"
            )
        }

        var report = Report(spec: spec)
        report.rows = try count(required(top, "rows", of: root, place: "report"), place: "rows")
        report.samplesRedacted = try bool(
            required(top, "samplesRedacted", of: root, place: "report"), place: "samplesRedacted")
        report.partitions = try partitions(
            required(top, "parts", of: root, place: "report"), rows: report.rows)
        try readRejected(required(top, "rejected", of: root, place: "report"), into: &report)
        if let node = top["blankLines"] { try readBlankLines(node, into: &report) }

        let columnsNode = try required(top, "columns", of: root, place: "report")
        guard case .array(let columnNodes, _) = columnsNode else {
            throw fail(columnsNode, "columns", "expected an array, got \(columnsNode.kindDescription)")
        }
        guard columnNodes.count == spec.columns.count else {
            throw fail(
                columnsNode, "columns",
                "expected the \(spec.columns.count) columns of \(spec.file), found \(columnNodes.count)")
        }
        for (index, node) in columnNodes.enumerated() {
            try readColumn(node, into: &report.columns[index], report: report)
        }
        return report
    }

    // MARK: Parts of the report

    func partitions(_ node: JSONNode, rows: Int) throws(MaskCleanError) -> [Partition] {
        let partitions = try list(node, place: "parts") { (element, place) throws(MaskCleanError) in
            let members = try self.members(element, place: place)
            let firstRow = try optional(members["firstRow"]).map { (node) throws(MaskCleanError) in
                try count(node, place: "\(place): firstRow")
            }
            if let firstRow, firstRow < 1 {
                throw fail(element, place, "firstRow must be 1 or more, got \(firstRow)")
            }
            let partition = Partition(
                part: try optional(members["part"]).map { (node) throws(MaskCleanError) in
                    try string(node, place: "\(place): part")
                },
                firstRow: firstRow,
                rows: try field(members, "rows", of: element, place: place, count)
            )
            if let problem = partition.rowsPastMaximum { throw fail(element, place, problem) }
            return partition
        }
        var covered = 0
        for partition in partitions {
            guard let sum = Count.sum(covered, partition.rows) else {
                throw fail(
                    node, "parts", "the parts hold more than \(Count.maximum) rows, the most a report counts")
            }
            covered = sum
        }
        if !partitions.isEmpty && covered != rows {
            throw fail(node, "parts", "the parts hold \(covered) rows, not the report's \(rows)")
        }
        return partitions
    }

    func readRejected(_ node: JSONNode, into report: inout Report) throws(MaskCleanError) {
        let members = try members(node, place: "rejected")
        report.rejectedCount = try field(members, "count", of: node, place: "rejected", count)
        report.rejected = try list(
            required(members, "samples", of: node, place: "rejected"), place: "rejected: samples"
        ) { (element, place) throws(MaskCleanError) in
            let members = try self.members(element, place: place)
            return Rejection(
                line: try field(members, "line", of: element, place: place, positiveCount),
                reason: try field(members, "reason", of: element, place: place, string),
                part: try part(members, place: place))
        }
        if report.rejected.count > report.rejectedCount {
            throw fail(
                node, "rejected",
                "\(report.rejected.count) samples of \(report.rejectedCount) rejected records")
        }
        if report.rejectedCount > report.rows {
            throw fail(node, "rejected", "\(report.rejectedCount) rejected records of \(report.rows) rows")
        }
    }

    func readBlankLines(_ node: JSONNode, into report: inout Report) throws(MaskCleanError) {
        let members = try members(node, place: "blankLines")
        report.blankLines = try field(members, "count", of: node, place: "blankLines", count)
        report.blankLineNumbers = try list(
            required(members, "lines", of: node, place: "blankLines"), place: "blankLines: lines"
        ) { (element, place) throws(MaskCleanError) in try count(element, place: place) }
        if let partsNode = members["parts"] {
            report.blankLineParts = try list(partsNode, place: "blankLines: parts") {
                (element, place) throws(MaskCleanError) in
                try optional(element).map { (node) throws(MaskCleanError) in try string(node, place: place) }
            }
            guard report.blankLineParts.count == report.blankLineNumbers.count else {
                throw fail(partsNode, "blankLines: parts", "expected one part for each of the lines")
            }
        } else {
            report.blankLineParts = Array(repeating: nil, count: report.blankLineNumbers.count)
        }
        if report.blankLineNumbers.count > report.blankLines {
            throw fail(
                node, "blankLines",
                "\(report.blankLineNumbers.count) lines of \(report.blankLines) blank lines")
        }
    }

    func readColumn(_ node: JSONNode, into column: inout Report.Column, report: Report) throws(MaskCleanError)
    {
        let spec = column.spec
        let place = "columns[\(spec.index)]"
        let members = try members(node, place: place)
        let name = try string(required(members, "name", of: node, place: place), place: "\(place): name")
        guard name == spec.name else {
            throw fail(
                node, place, "expected the column \"\(spec.name)\" of \(self.spec.file), found \"\(name)\"")
        }
        let here = "\(place) \"\(name)\""
        func number(_ key: String) throws(MaskCleanError) -> Int {
            try field(members, key, of: node, place: here, count)
        }
        column.stats.complete = try number("complete")
        column.stats.lossy = try number("lossy")
        column.stats.incomplete = try number("incomplete")
        column.stats.empty = try number("empty")
        column.rejected = try number("rejected")
        column.stats.droppedCharacters = try number("droppedCharacters")
        column.keyFound = try field(members, "keyFound", of: node, place: here, bool)
        guard column.rejected == report.rejectedCount else {
            throw fail(
                node, here,
                "\(column.rejected) rejected records, where the report has \(report.rejectedCount)")
        }
        guard column.rows == report.rows else {
            throw fail(
                node, here,
                "complete, lossy, incomplete, empty and rejected add up to \(column.rows), not the report's \(report.rows) rows"
            )
        }

        let formatsNode = try required(members, "formats", of: node, place: here)
        // Through `members`, so that a format written twice is refused rather than added twice;
        // in the file's order, so that the first unknown format is the one named.
        let formats = try self.members(formatsNode, place: "\(here): formats")
        for (format, countNode) in formats.sorted(by: { $0.value.offset < $1.value.offset }) {
            guard let index = spec.formats.firstIndex(of: format) else {
                throw fail(
                    countNode, "\(here): formats",
                    "\"\(format)\" is not a format of this column in \(self.spec.file)")
            }
            column.stats.formatCounts[index] += try count(countNode, place: "\(here): formats: \"\(format)\"")
        }
        let masked = column.stats.complete + column.stats.lossy + column.stats.incomplete
        var chosen = 0
        for formatCount in column.stats.formatCounts {
            guard let sum = Count.sum(chosen, formatCount) else {
                throw fail(
                    formatsNode, "\(here): formats",
                    "count more than \(Count.maximum) cells, where the column has \(masked) that are not empty"
                )
            }
            chosen = sum
        }
        guard chosen == masked else {
            throw fail(
                formatsNode, "\(here): formats",
                "count \(chosen) cells, where the column has \(masked) that are not empty")
        }

        let samplesNode = try required(members, "samples", of: node, place: here)
        let samples = try self.members(samplesNode, place: "\(here): samples")
        column.stats.lossySamples = try sampleList(
            required(samples, "lossy", of: samplesNode, place: "\(here): samples"),
            place: "\(here): samples: lossy")
        column.stats.incompleteSamples = try sampleList(
            required(samples, "incomplete", of: samplesNode, place: "\(here): samples"),
            place: "\(here): samples: incomplete")
        if column.stats.lossySamples.count > column.stats.lossy
            || column.stats.incompleteSamples.count > column.stats.incomplete
        {
            throw fail(samplesNode, "\(here): samples", "more samples than cells of their status")
        }
    }

    func sampleList(_ node: JSONNode, place: String) throws(MaskCleanError) -> [Sample] {
        try list(node, place: place) { (element, here) throws(MaskCleanError) in
            let members = try self.members(element, place: here)
            return Sample(
                row: try field(members, "row", of: element, place: here, positiveCount),
                value: try field(members, "value", of: element, place: here, string),
                part: try part(members, place: here))
        }
    }

    // MARK: Typed values

    func members(_ node: JSONNode, place: String) throws(MaskCleanError) -> Members {
        guard case .object(let pairs, _) = node else {
            throw fail(node, place, "expected an object, got \(node.kindDescription)")
        }
        var members: Members = [:]
        for (key, value) in pairs {
            guard members[key] == nil else { throw fail(value, place, "key \"\(key)\" appears twice") }
            members[key] = value
        }
        return members
    }

    func required(_ members: Members, _ key: String, of node: JSONNode, place: String) throws(MaskCleanError)
        -> JSONNode
    {
        guard let value = members[key] else { throw fail(node, place, "missing key \"\(key)\"") }
        return value
    }

    /// The value of a key that must be there, read by `read` with its place (`rejected: count`).
    func field<Value>(
        _ members: Members, _ key: String, of node: JSONNode, place: String,
        _ read: (JSONNode, String) throws(MaskCleanError) -> Value
    ) throws(MaskCleanError) -> Value {
        try read(required(members, key, of: node, place: place), "\(place): \(key)")
    }

    /// A value that may be null or left out.
    func optional(_ node: JSONNode?) -> JSONNode? {
        guard let node else { return nil }
        if case .null = node { return nil }
        return node
    }

    func part(_ members: Members, place: String) throws(MaskCleanError) -> String? {
        try optional(members["part"]).map { (node) throws(MaskCleanError) in
            try string(node, place: "\(place): part")
        }
    }

    func list<Element>(
        _ node: JSONNode, place: String, _ read: (JSONNode, String) throws(MaskCleanError) -> Element
    ) throws(MaskCleanError) -> [Element] {
        guard case .array(let elements, _) = node else {
            throw fail(node, place, "expected an array, got \(node.kindDescription)")
        }
        var values: [Element] = []
        for (index, element) in elements.enumerated() {
            values.append(try read(element, "\(place)[\(index)]"))
        }
        return values
    }

    func string(_ node: JSONNode, place: String) throws(MaskCleanError) -> String {
        guard case .string(let text, _) = node else {
            throw fail(node, place, "expected a string, got \(node.kindDescription)")
        }
        return text
    }

    func bool(_ node: JSONNode, place: String) throws(MaskCleanError) -> Bool {
        guard case .bool(let value, _) = node else {
            throw fail(node, place, "expected true or false, got \(node.kindDescription)")
        }
        return value
    }

    /// A count: a whole number from 0 to `Count.maximum`, read exactly from its text (not
    /// through a binary number, which would round a count above 2^53).
    func count(_ node: JSONNode, place: String) throws(MaskCleanError) -> Int {
        guard case .number(_, let text, _) = node, let value = Count.whole(text) else {
            throw fail(
                node, place, "expected a whole number from 0 to \(Count.maximum), got \(node.kindDescription)"
            )
        }
        return value
    }

    /// A row or line number: a count of 1 or more.
    func positiveCount(_ node: JSONNode, place: String) throws(MaskCleanError) -> Int {
        guard case .number(_, let text, _) = node, let value = Count.whole(text), value >= 1 else {
            throw fail(
                node, place, "expected a row number from 1 to \(Count.maximum), got \(node.kindDescription)")
        }
        return value
    }
}
