/// What a report says in a sentence each, for the formats that show findings rather than the
/// whole report (JUnit, GitHub annotations, Markdown): all built from one `Report`, so that they
/// cannot disagree with each other or with the JSON.
extension Report {
    /// A threshold a run missed or came close to: a column below `minComplete` or
    /// `warnComplete`, too many rejected records, too few rows.
    public struct Finding: Sendable, Equatable {
        public enum Level: String, Sendable { case error, warning }
        public var level: Level
        /// What it is about: a column's name, `rejected records` or `rows`.
        public var subject: String
        /// `complete 91.64% < minComplete 95.00%`.
        public var message: String
        /// The counts behind it: `53 lossy, 23 incomplete`.
        public var detail: String
    }

    /// The complete ratio against the column's threshold (`complete 91.64% < minComplete
    /// 95.00%`), or nil when it meets both.
    public func finding(for column: Column) -> Finding? {
        let level: Finding.Level
        let key: String
        let threshold: Double
        if !column.passed, let minimum = column.spec.minComplete {
            (level, key, threshold) = (.error, "minComplete", minimum)
        } else if column.warned, let warning = column.spec.warnComplete {
            (level, key, threshold) = (.warning, "warnComplete", warning)
        } else {
            return nil
        }
        let shown = column.completeRatio.text(decimals: 2, scale: 2, against: threshold)
        return Finding(
            level: level, subject: column.spec.name,
            message: "complete \(shown)% < \(key) \(Self.percentage(threshold))",
            detail: "\(column.stats.lossy) lossy, \(column.stats.incomplete) incomplete")
    }

    /// The findings about the run as a whole: rejected records (an error above `maxRejected`, a
    /// warning when some were rejected within it) and `minRows`.
    public var runFindings: [Finding] {
        var findings: [Finding] = []
        if rejectedCount > 0 || !rejectedPassed {
            let records = rejectedCount == 1 ? "record" : "records"
            findings.append(
                Finding(
                    level: rejectedPassed ? .warning : .error, subject: Self.rejectedSubject,
                    message:
                        "\(rejectedCount) \(records) rejected \(rejectedPassed ? "<=" : ">") maxRejected \(maxRejected)",
                    detail: rejected.map { "\($0.place): \($0.reason)" }.joined(separator: "; ")))
        }
        if !rowsPassed {
            findings.append(
                Finding(
                    level: .error, subject: Self.rowsSubject,
                    message: "\(rows) row\(rows == 1 ? "" : "s") < minRows \(minRows)",
                    detail: ""))
        }
        return findings
    }

    /// Every finding: the columns' in spec order, then the run's.
    public var findings: [Finding] {
        columns.compactMap { finding(for: $0) } + runFindings
    }

    static let rejectedSubject = "rejected records"
    static let rowsSubject = "rows"

    /// `complete 9163 of 1000 rows: 53 lossy, 23 incomplete, 91 empty, 0 rejected`.
    func counts(of column: Column) -> String {
        let stats = column.stats
        return
            "\(stats.complete) complete, \(stats.lossy) lossy, \(stats.incomplete) incomplete, \(stats.empty) empty, \(column.rejected) rejected of \(column.rows) rows"
    }
}
