/// Reads back a report that `run`, `check` or `merge` wrote (docs/report.md), for `merge`. Only
/// what the counts are made of is read: the ratios, verdicts and thresholds are worked out again
/// from the spec. A file that is not such a report, or whose numbers do not add up, is malformed
/// input (65) named by its line; a report made with another spec is a spec error (78).
public enum ReportReader {
    /// The largest report `spec` can make (docs/report.md#reading-reports-back); a larger file is
    /// not one of its reports. Reading stops there, so a compressed file that inflates without end
    /// (a gzip bomb) costs no more than this. It is made of:
    /// - 8 MiB for what does not grow with the columns: the top-level keys; ten rejected records
    ///   and ten blank lines, each with a reason and a part name of up to 64 KiB written (1.25
    ///   MiB); the `parts` of a merge of 75,000 partitions, 90 bytes each with a name of 20 bytes
    ///   (6.4 MiB);
    /// - for each column, 4 KiB for its keys and counts, its name and formats as JSON writes them
    ///   (at most 6 bytes for a byte, `\u001f`, and 8 for the quotes and the comma), and 15 KiB for
    ///   each of the spec's `samples`: a lossy, an incomplete and an invalid sample of 5 KiB, its
    ///   256-byte value, formatted value and dropped characters each written in at most 1,542
    ///   bytes (with its `…`), its row, keys and indentation in 60, and a part name of up to 200
    ///   bytes (400 written: only `"` and `\` are escaped in one), and 2 KiB and its name per key
    ///   column; and 47 KiB for its ten shapes of each status, each of at most 256 bytes.
    ///
    /// The sum is rounded up to a whole MiB, for the message: 9 MiB for the demo's spec (4
    /// columns, 5 samples); about 15 MiB more per column at 1,000 samples.
    public static func maximumBytes(for spec: Spec) -> Int {
        let bytes = spec.columns.reduce(8 << 20) { total, column in
            let written = ([column.name] + column.formats).reduce(0) { $0 + 6 * $1.utf8.count + 8 }
            // A phone column's `countries`: at most every region, 32 bytes a line.
            let countries = column.phone != nil ? 32 * CountryCode.count : 0
            // A sample of 5 KiB (its value, formatted value and dropped characters, each 256
            // bytes written in at most 1,542) and 2 KiB per key column; ten shapes per status.
            let keys = spec.key.reduce(0) { $0 + 2048 + 6 * $1.utf8.count }
            let sample = 5120 + keys
            // Ten shapes of each status, each of at most 256 bytes written in 1,542.
            return total + 4096 + written + countries + 3 * sample * column.samples + 3 * 10 * 1600
        }
        return ((bytes + (1 << 20) - 1) >> 20) << 20
    }

    /// What a report is read back for: a partition's counts (`merge`), or a baseline.
    public enum Use: Sendable {
        case partial, baseline
    }

    public static func load(path: String, spec: Spec, as use: Use = .partial) throws(MaskCleanError) -> Report
    {
        let limit = maximumBytes(for: spec)
        let bytes = try InputFile.readAll(path: path, limit: limit) { () throws(MaskCleanError) in
            throw .data(
                path, line: nil,
                "larger than \(byteCount(limit)), the largest report \(spec.file) can make: not a maskclean report"
            )
        }
        return try parse(bytes, file: path, spec: spec, as: use)
    }

    /// Reads the report a level at a time (`JSONSpan`), keeping no more of it than the counts and
    /// samples it is made of: its text is the most memory it takes.
    public static func parse(_ bytes: [UInt8], file: String, spec: Spec, as use: Use = .partial)
        throws(MaskCleanError) -> Report
    {
        try bytes.withUnsafeBufferPointer { (text) throws(MaskCleanError) -> Report in
            let parser = ReportParser(file: file, text: text, spec: spec, use: use)
            let root: JSONSpan
            do throws(JSONSyntaxError) {
                root = try JSONSpan.document(text)
            } catch {
                throw parser.failure(at: error.offset, "not a maskclean report: \(error.message)")
            }
            return try parser.report(root)
        }
    }
}

/// Walks a report, checking each value's type and that the counts agree with each other; its
/// typed values are read in ReportReading+Values.swift.
struct ReportParser {
    let file: String
    let text: UnsafeBufferPointer<UInt8>
    let spec: Spec
    var use: ReportReader.Use = .partial

    typealias Members = [String: JSONSpan]

    /// No object of a report has more keys (19 at most, formats aside): more are not kept.
    static let maximumKeys = 64

    func failure(at offset: Int, _ what: String) -> MaskCleanError {
        .data(file, line: JSONScanner(text).lineAndColumn(of: offset).line, UsageMessage(what))
    }

    func fail(_ node: JSONSpan, _ place: String, _ what: String) -> MaskCleanError {
        failure(at: node.offset, "\(place): \(what)")
    }

    func report(_ root: JSONSpan) throws(MaskCleanError) -> Report {
        let notAReport = "not a maskclean report: expected an object with \"rows\" and \"columns\""
        guard root.kind == .object else { throw failure(at: root.offset, notAReport) }
        // A key written twice is named with its line, not taken for a key that is missing.
        let top = try members(root, place: "report")
        guard top["columns"] != nil, top["rows"] != nil else {
            throw failure(at: root.offset, notAReport)
        }
        // A run that stopped wrote what it had counted: not a partition's counts to merge.
        if let errorNode = optional(top["error"]) {
            let members = try members(errorNode, place: "error")
            let message = try optional(members["message"]).map { (node) throws(MaskCleanError) in
                try string(node, place: "error: message")
            }
            throw failure(
                at: errorNode.offset,
                use == .partial
                    ? "the run that wrote it stopped (\(visible(message ?? "no message"))): its counts are not a partition's; run the partition again"
                    : "the run that wrote it stopped (\(visible(message ?? "no message"))): its counts are not an export's to compare with"
            )
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
                "made with another spec than \(spec.file) (spec fingerprint \(fingerprint), \(spec.file) has \(spec.fingerprint)): "
                    + (use == .partial
                        ? "partial reports merge only under the spec they were made with"
                        : "a baseline is a report of the same spec")
            )
        }

        var report = Report(spec: spec)
        report.rows = try count(required(top, "rows", of: root, place: "report"), place: "rows")
        // Written since reports carry where they came from; an older report has none.
        report.origin.inputBytes = try optional(top["inputBytes"]).map { (node) throws(MaskCleanError) in
            try count(node, place: "inputBytes")
        }
        // Written since the delimiter is detected; an older report has neither.
        if let node = optional(top["delimiter"]) {
            let text = try string(node, place: "delimiter")
            guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80 else {
                throw fail(node, "delimiter", "expected one ASCII character")
            }
            report.origin.delimiter = byte
        }
        if let node = top["delimiterDetected"] {
            report.origin.delimiterDetected = try bool(node, place: "delimiterDetected")
        }
        if let node = optional(top["encoding"]) {
            let name = try string(node, place: "encoding")
            do throws(MaskCleanError) {
                report.origin.encoding = try TextEncoding(named: name)
            } catch {
                throw fail(node, "encoding", "not an encoding this system knows: \(name)")
            }
        }
        report.samplesRedacted = try bool(
            required(top, "samplesRedacted", of: root, place: "report"), place: "samplesRedacted")
        report.partitions = try partitions(
            required(top, "parts", of: root, place: "report"), rows: report.rows)
        try readRejected(required(top, "rejected", of: root, place: "report"), into: &report)
        if let node = top["blankLines"] { try readBlankLines(node, into: &report) }

        let columnsNode = try required(top, "columns", of: root, place: "report")
        guard columnsNode.kind == .array else {
            throw fail(columnsNode, "columns", "expected an array, got \(columnsNode.kindDescription)")
        }
        let found = columnsNode.elements().reduce(0) { count, _ in count + 1 }
        guard found == spec.columns.count else {
            throw fail(
                columnsNode, "columns",
                "expected the \(spec.columns.count) columns of \(spec.file), found \(found)")
        }
        for (index, (_, node)) in columnsNode.elements().enumerated() {
            try readColumn(node, into: &report.columns[index], report: report)
        }
        return report
    }

    // MARK: Parts of the report

    func partitions(_ node: JSONSpan, rows: Int) throws(MaskCleanError) -> [Partition] {
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

    func readRejected(_ node: JSONSpan, into report: inout Report) throws(MaskCleanError) {
        let members = try members(node, place: "rejected")
        report.rejectedCount = try field(members, "count", of: node, place: "rejected", count)
        report.rejected = try list(
            required(members, "samples", of: node, place: "rejected"), place: "rejected: samples",
            keeping: (Report.rejectionSamplesKept, "rejected records a report keeps")
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

    func readBlankLines(_ node: JSONSpan, into report: inout Report) throws(MaskCleanError) {
        let members = try members(node, place: "blankLines")
        report.blankLines = try field(members, "count", of: node, place: "blankLines", count)
        let kept = (Report.blankLinesKept, "blank lines a report keeps")
        report.blankLineNumbers = try list(
            required(members, "lines", of: node, place: "blankLines"), place: "blankLines: lines",
            keeping: kept
        ) { (element, place) throws(MaskCleanError) in try count(element, place: place) }
        if let partsNode = members["parts"] {
            report.blankLineParts = try list(partsNode, place: "blankLines: parts", keeping: kept) {
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

    func readColumn(_ node: JSONSpan, into column: inout Report.Column, report: Report) throws(MaskCleanError)
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
        column.stats.invalid = try number("invalid")
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
                "complete, lossy, incomplete, invalid, empty and rejected add up to \(column.rows), not the report's \(report.rows) rows"
            )
        }
        // Only a check (or a phone column's numbering plan) makes a cell invalid: the spec's
        // column has neither, so the report is not its.
        if !spec.judgesValidity && column.stats.invalid > 0 {
            throw fail(
                node, here,
                "\(column.stats.invalid) invalid cells, where \(self.spec.file) gives the column no check")
        }

        let formatsNode = try required(members, "formats", of: node, place: here)
        // Through `members`, so that a format written twice is refused rather than added twice;
        // in the file's order, so that the first unknown format is the one named.
        let formats = try self.members(
            formatsNode, place: "\(here): formats", limit: max(Self.maximumKeys, spec.formats.count))
        for (format, countNode) in formats.sorted(by: { $0.value.offset < $1.value.offset }) {
            guard let index = spec.formats.firstIndex(of: format) else {
                throw fail(
                    countNode, "\(here): formats",
                    "\"\(format)\" is not a format of this column in \(self.spec.file)")
            }
            column.stats.formatCounts[index] += try count(countNode, place: "\(here): formats: \"\(format)\"")
        }
        // Invalid cells fit a format too, and are counted in `formats` (`ColumnStats.count`).
        let masked =
            column.stats.complete + column.stats.lossy + column.stats.incomplete + column.stats.invalid
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

        if spec.phone != nil {
            try readCountries(members, of: node, into: &column, place: here, masked: masked)
        }

        let samplesNode = try required(members, "samples", of: node, place: here)
        let samples = try self.members(samplesNode, place: "\(here): samples")
        let kept = (spec.samples, "samples of each status \(self.spec.file) keeps")
        column.stats.lossySamples = try sampleList(
            required(samples, "lossy", of: samplesNode, place: "\(here): samples"),
            place: "\(here): samples: lossy", keeping: kept)
        column.stats.incompleteSamples = try sampleList(
            required(samples, "incomplete", of: samplesNode, place: "\(here): samples"),
            place: "\(here): samples: incomplete", keeping: kept)
        column.stats.invalidSamples = try sampleList(
            required(samples, "invalid", of: samplesNode, place: "\(here): samples"),
            place: "\(here): samples: invalid", keeping: kept)
        if column.stats.lossySamples.count > column.stats.lossy
            || column.stats.incompleteSamples.count > column.stats.incomplete
            || column.stats.invalidSamples.count > column.stats.invalid
        {
            throw fail(samplesNode, "\(here): samples", "more samples than cells of their status")
        }
        // Written since reports show what the bad cells look like; a report from before has none.
        if let shapesNode = optional(members["shapes"]) {
            let shapes = try self.members(shapesNode, place: "\(here): shapes")
            let kept = (ShapeTally.shown, "shapes of each status a report shows")
            let statuses = [
                ("lossy", column.stats.lossy), ("incomplete", column.stats.incomplete),
                ("invalid", column.stats.invalid),
            ]
            var tallies: [ShapeTally] = []
            for (status, cells) in statuses {
                var tally = ShapeTally()
                guard let listNode = optional(shapes[status]) else {
                    tallies.append(tally)
                    continue
                }
                let place = "\(here): shapes: \(status)"
                let entries = try list(listNode, place: place, keeping: kept) {
                    (element, place) throws(MaskCleanError) in
                    let members = try self.members(element, place: place)
                    return (
                        try field(members, "shape", of: element, place: place, string),
                        try field(members, "count", of: element, place: place, positiveCount)
                    )
                }
                for (shape, count) in entries { tally.add(shape: shape, count: count) }
                guard tally.counts.reduce(0, +) <= cells else {
                    throw fail(listNode, place, "counts more cells than the column's \(cells) \(status)")
                }
                tallies.append(tally)
            }
            (column.stats.lossyShapes, column.stats.incompleteShapes, column.stats.invalidShapes) =
                (tallies[0], tallies[1], tallies[2])
        }
    }

    /// A phone column's `countries`: each a region code with a count, which add up to at most
    /// the cells that are not empty (a cell with no country is not counted).
    func readCountries(
        _ members: Members, of node: JSONSpan, into column: inout Report.Column, place here: String,
        masked: Int
    ) throws(MaskCleanError) {
        let countriesNode = try required(members, "countries", of: node, place: here)
        let countries = try self.members(
            countriesNode, place: "\(here): countries", limit: CountryCode.count)
        var total = 0
        for (region, countNode) in countries.sorted(by: { $0.value.offset < $1.value.offset }) {
            guard let index = CountryCode.index(region) else {
                throw fail(
                    countNode, "\(here): countries",
                    "\"\(region)\" is not a region code (two upper-case letters, or 001)")
            }
            let count = try count(countNode, place: "\(here): countries: \"\(region)\"")
            column.stats.countryCounts[index] = count
            total = Count.sum(total, count) ?? Int.max
        }
        guard total <= masked else {
            throw fail(
                countriesNode, "\(here): countries",
                "count more cells than the \(masked) of the column that are not empty")
        }
    }

    func sampleList(_ node: JSONSpan, place: String, keeping kept: (Int, String)) throws(MaskCleanError)
        -> [Sample]
    {
        try list(node, place: place, keeping: kept) { (element, here) throws(MaskCleanError) in
            let members = try self.members(element, place: here)
            // `key`, `formatted` and `dropped` are written since samples say what to fix; a
            // report from before has none.
            var key: [String] = []
            if let keyNode = optional(members["key"]) {
                let values = try self.members(keyNode, place: "\(here): key")
                for name in spec.key {
                    guard let node = values[name] else {
                        throw fail(keyNode, "\(here): key", "missing key column \"\(name)\" of \(spec.file)")
                    }
                    key.append(try string(node, place: "\(here): key: \(name)"))
                }
            }
            return Sample(
                row: try field(members, "row", of: element, place: here, positiveCount),
                value: try field(members, "value", of: element, place: here, string),
                part: try part(members, place: here), key: key,
                formatted: try optional(members["formatted"]).map { (node) throws(MaskCleanError) in
                    try string(node, place: "\(here): formatted")
                },
                dropped: try optional(members["dropped"]).map { (node) throws(MaskCleanError) in
                    try string(node, place: "\(here): dropped")
                })
        }
    }
}
