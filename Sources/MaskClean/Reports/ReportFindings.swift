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

    /// The column against its thresholds, errors first: the complete ratio below `minComplete`
    /// (`complete 91.64% < minComplete 95.00%`), the invalid share above `maxInvalid` (`invalid
    /// 1.25% > maxInvalid 1.00%`), or, when it passes, below `warnComplete`; empty when it meets
    /// them all.
    public func findings(for column: Column) -> [Finding] {
        let detail = details(of: column)
        var findings: [Finding] = []
        if !column.completePassed, let minimum = column.spec.minComplete {
            let shown = column.completeRatio.text(decimals: 2, scale: 2, against: minimum)
            findings.append(
                Finding(
                    level: .error, subject: column.spec.name,
                    message: "complete \(shown)% < minComplete \(Self.percentage(minimum))", detail: detail))
        }
        if !column.invalidPassed, let maximum = column.spec.maxInvalid {
            findings.append(
                Finding(
                    level: .error, subject: column.spec.name,
                    message: "invalid \(column.invalidShare)% > maxInvalid \(Self.percentage(maximum))",
                    detail: detail))
        }
        if !column.dropPassed, let maximum = column.spec.maxDrop, let baseline = column.baseline {
            findings.append(
                Finding(
                    level: .error, subject: column.spec.name,
                    message:
                        "complete \(column.completeRatio.text(decimals: 2, scale: 2, against: nil))% fell \(String(column.completeChangeText(decimals: 2, scale: 2).dropFirst())) points since the baseline's \(baseline.completeRatio.truncated(2, scale: 2))% > maxDrop \(Self.points(maximum)) points",
                    detail: detail))
        }
        if column.warned, let warning = column.spec.warnComplete {
            let shown = column.completeRatio.text(decimals: 2, scale: 2, against: warning)
            findings.append(
                Finding(
                    level: .warning, subject: column.spec.name,
                    message: "complete \(shown)% < warnComplete \(Self.percentage(warning))", detail: detail))
        }
        return findings
    }

    /// The counts behind a column's finding: `53 lossy, 23 incomplete`, and its invalid cells
    /// when it has a check (or invalid cells): a column without one never has any.
    private func details(of column: Column) -> String {
        let stats = column.stats
        return "\(stats.lossy) lossy, \(stats.incomplete) incomplete"
            + (column.hasInvalidCells ? ", \(stats.invalid) invalid" : "")
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
        if !rowsChangePassed, let baseline, let maximum = maxRowsChange {
            let change =
                rowsChange.map {
                    ChangeText.text($0, decimals: 2, scale: 2, limit: Ratio.decimal(maximum) * 100) + "%"
                }
                ?? "from none"
            findings.append(
                Finding(
                    level: .error, subject: Self.rowsSubject,
                    message:
                        "\(rows) row\(rows == 1 ? "" : "s"), \(change) since the baseline's \(baseline.rows) > maxRowsChange \(Self.percentage(maximum))",
                    detail: ""))
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
        columns.flatMap { findings(for: $0) } + runFindings
    }

    static let rejectedSubject = "rejected records"
    static let rowsSubject = "rows"

    /// `833 complete, 53 lossy, 23 incomplete, 91 empty, 0 rejected of 1000 rows`, with `2 invalid`
    /// after the incomplete cells when the column has a check (or invalid cells).
    func counts(of column: Column) -> String {
        let stats = column.stats
        let invalid = column.hasInvalidCells ? ", \(stats.invalid) invalid" : ""
        return
            "\(stats.complete) complete, \(stats.lossy) lossy, \(stats.incomplete) incomplete\(invalid), \(stats.empty) empty, \(column.rejected) rejected of \(column.rows) rows"
    }
}

extension Report.Column {
    /// Whether the column can have invalid cells (it has a check) or has some: the sentences of
    /// the CI formats name the invalid count only then, and the tables always.
    var hasInvalidCells: Bool { spec.judgesValidity || stats.invalid > 0 }
}
