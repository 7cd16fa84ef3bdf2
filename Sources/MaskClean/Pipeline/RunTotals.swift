/// What the chunks of a run add up to, merged in input order: the report, and for JSON input,
/// which masked keys some record had and the first keys seen (to suggest a name for one that
/// no record has).
struct RunTotals {
    /// How many distinct keys are kept for a suggestion.
    static let keysKept = 200

    var report: Report
    var maskedKeysSeen: [Bool]
    var keysSeen: [String] = []

    init(spec: Spec) {
        report = Report(spec: spec)
        // The keys read: the masked ones, then phone columns' region keys (`Spec.columnsRead`).
        maskedKeysSeen = Array(repeating: false, count: spec.columnsRead.count)
    }

    /// Adds the counts of the next chunk.
    mutating func add(_ result: ChunkResult) {
        let rowOffset = report.rows
        report.rows += result.rows
        for index in report.columns.indices {
            report.columns[index].stats.merge(result.stats[index], rowOffset: rowOffset)
        }
        for rejection in result.rejections {
            report.reject(line: rejection.line, reason: rejection.reason)
        }
        report.blankLines += result.blankLines
        for line in result.blankLineNumbers where report.blankLineNumbers.count < Report.blankLinesKept {
            report.blankLineNumbers.append(line)
        }
        for (index, seen) in result.maskedKeysSeen.enumerated() where seen { maskedKeysSeen[index] = true }
        for key in result.keysSeen where keysSeen.count < Self.keysKept && !keysSeen.contains(key) {
            keysSeen.append(key)
        }
    }

    /// Counts a record too long to read, passed over without being held.
    mutating func addOversizedRecord(line: Int, _ problem: RecordProblem) {
        report.rows += 1
        report.reject(line: line, reason: problem.description)
    }
}
