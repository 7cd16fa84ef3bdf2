import FoundationEssentials

/// A previous report of the same spec (`--baseline`, docs/report.md#against-a-baseline): last
/// night's export, which tonight's is compared with. Every report shows the change of each
/// column's complete ratio and counts since it; the spec's `maxDrop` and `maxRowsChange` make a
/// drift a failure.
public struct Baseline: Sendable, Equatable {
    /// One column's counts in the baseline.
    public struct Counts: Sendable, Equatable {
        public var complete: Int
        public var lossy: Int
        public var incomplete: Int
        public var invalid: Int
        public var empty: Int
        public var rejected: Int
        public var completeRatio: Ratio

        /// The counts in the order every report lists the statuses.
        public var statuses: [Int] { [complete, lossy, incomplete, invalid, empty, rejected] }
    }

    /// The baseline report as the user named it.
    public var path: String
    /// The records it read.
    public var rows: Int
    /// Each spec column's counts, in spec order.
    public var columns: [Counts]

    public init(path: String, report: Report) {
        self.path = path
        rows = report.rows
        columns = report.columns.map { column in
            let stats = column.stats
            return Counts(
                complete: stats.complete, lossy: stats.lossy, incomplete: stats.incomplete,
                invalid: stats.invalid,
                empty: stats.empty, rejected: column.rejected, completeRatio: column.completeRatio)
        }
    }

    /// Reads the report at `path` (plain, `.gz` or `.zst`), which `spec` must have made: one
    /// made with another spec is a spec error (78), as in `merge`.
    public static func load(path: String, spec: Spec) throws(MaskCleanError) -> Baseline {
        Baseline(path: path, report: try ReportReader.load(path: path, spec: spec, as: .baseline))
    }

    /// The statuses' names, in the order of `Counts.statuses`.
    public static let statusNames = ["complete", "lossy", "incomplete", "invalid", "empty", "rejected"]
}

extension Report {
    /// Compares the report with `baseline`: each column gets its counts there.
    public mutating func compare(with baseline: Baseline) {
        self.baseline = baseline
        for index in columns.indices where index < baseline.columns.count {
            columns[index].baseline = baseline.columns[index]
        }
    }

    /// The row count's change since the baseline, as a share of the baseline's (`0.25` for a
    /// quarter more); nil without a baseline.
    /// From a baseline of no rows there is no share: nil then too.
    public var rowsChange: Decimal? {
        guard let baseline, baseline.rows > 0 else { return nil }
        return (Decimal(rows) - Decimal(baseline.rows)) / Decimal(baseline.rows)
    }

    /// Whether the row count changed by at most `maxRowsChange` of the baseline's, either way,
    /// decided exactly; true without a baseline or the threshold. From a baseline of no rows, any
    /// row is a change past every threshold.
    public var rowsChangePassed: Bool {
        guard let maximum = maxRowsChange, let baseline else { return true }
        guard baseline.rows > 0 else { return rows == 0 }
        let change = abs(Decimal(rows) - Decimal(baseline.rows))
        return change <= Ratio.decimal(maximum) * Decimal(baseline.rows)
    }
}

extension Report.Column {
    /// How far the complete ratio moved since the baseline: today's less the baseline's
    /// (negative: it fell); nil without a baseline.
    public var completeChange: Decimal? {
        guard let baseline else { return nil }
        return completeRatio.exact - baseline.completeRatio.exact
    }

    /// Whether the complete ratio fell by at most `maxDrop` since the baseline, decided exactly
    /// on the counts; true without a baseline or the threshold.
    public var dropPassed: Bool {
        guard let maximum = spec.maxDrop, let baseline else { return true }
        return !completeRatio.fell(from: baseline.completeRatio, byMoreThan: maximum)
    }
}

extension Ratio {
    /// The ratio as an exact decimal (to Decimal's 38 digits): 1 when there is nothing to divide by.
    var exact: Decimal {
        denominator == 0 ? 1 : Decimal(numerator) / Decimal(denominator)
    }

    /// Whether the ratio is below `earlier` by more than `drop`, decided on the counts without
    /// dividing: `e.n × r.d − r.n × e.d > drop × e.d × r.d`.
    func fell(from earlier: Ratio, byMoreThan drop: Double) -> Bool {
        let (before, now) = (
            earlier.denominator == 0 ? Ratio(1, of: 1) : earlier, denominator == 0 ? Ratio(1, of: 1) : self
        )
        let fall =
            Decimal(before.numerator) * Decimal(now.denominator) - Decimal(now.numerator)
            * Decimal(before.denominator)
        return fall > Ratio.decimal(drop) * Decimal(before.denominator) * Decimal(now.denominator)
    }
}

/// A signed change as text, truncated toward zero: never past the threshold it is read against
/// when it is within it, nor equal to it when past it.
enum ChangeText {
    /// `value` × 10^`scale` with at least `decimals` decimals, truncated toward zero, and a sign
    /// (`+1.25`, `-0.50`, `0.00`); with `limit` (a magnitude, already scaled), more decimals until
    /// the text's magnitude compares with it as the value's does.
    static func text(_ value: Decimal, decimals: Int, scale: Int = 0, limit: Decimal? = nil) -> String {
        var scaled = value
        for _ in 0..<scale { scaled *= 10 }
        let magnitude = abs(scaled)
        let sign = scaled < 0 ? "-" : scaled > 0 ? "+" : ""
        for places in decimals...(decimals + 6) {
            let cut = truncated(magnitude, places: places)
            if let limit, (cut > limit) != (magnitude > limit) { continue }
            return sign + fixed(cut, places: places)
        }
        return sign + fixed(truncated(magnitude, places: decimals + 6), places: decimals + 6)
    }

    /// A non-negative decimal cut to at most `places` decimals. Decimal's text is plain digits
    /// with a point, never an exponent, so the cut is made on its digits.
    static func truncated(_ value: Decimal, places: Int) -> Decimal {
        let text = "\(value)"
        guard let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) - 1 > places
        else {
            return value
        }
        let kept = places == 0 ? text[..<dot] : text[...dot] + text[text.index(after: dot)...].prefix(places)
        return Decimal(string: String(kept)) ?? value
    }

    /// A non-negative decimal with exactly `places` decimals.
    private static func fixed(_ value: Decimal, places: Int) -> String {
        var text = "\(value)"
        let dot = text.firstIndex(of: ".")
        let have = dot.map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
        if dot == nil && places > 0 { text += "." }
        return text + String(repeating: "0", count: max(0, places - have))
    }
}

extension Report.Column {
    /// The complete ratio's change since the baseline as a signed fraction with at least
    /// `decimals` decimals (`-0.0120`), or in points of a percentage with `scale` 2 (`-1.20`),
    /// truncated toward zero, and never reading as within `maxDrop` when the fall is past it.
    func completeChangeText(decimals: Int, scale: Int = 0) -> String {
        guard let change = completeChange else { return "" }
        var limit = spec.maxDrop.map(Ratio.decimal)
        for _ in 0..<scale { limit = limit.map { $0 * 10 } }
        // The limit applies to a fall; a rise is never past it.
        return ChangeText.text(change, decimals: decimals, scale: scale, limit: change < 0 ? limit : nil)
    }
}

extension Report.Column {
    /// The summary's line against the baseline: `complete 91.63%, 92.83% in the baseline (-1.20
    /// points; maxDrop 1.00 points): FAILED`; nil without a baseline.
    var baselineLine: String? {
        guard let baseline else { return nil }
        let today = completeRatio.text(decimals: 2, scale: 2, against: spec.minComplete)
        var line =
            "complete \(today)%, \(baseline.completeRatio.truncated(2, scale: 2))% in the baseline (\(completeChangeText(decimals: 2, scale: 2)) points"
        if let maximum = spec.maxDrop {
            line += "; maxDrop \(Report.points(maximum)) points): \(dropPassed ? "passed" : "FAILED")"
        } else {
            line += ")"
        }
        return line
    }
}

extension Report {
    /// A fraction as points of a percentage, exactly as written: 0.01 is `1.00`.
    static func points(_ fraction: Double) -> String {
        String(percentage(fraction).dropLast())
    }
}
