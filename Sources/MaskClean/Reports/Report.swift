import FoundationEssentials
import MaskEngine

/// A cell worth showing in the report: the row it is in (data records counted from 1, or from
/// `--first-row`), its input value, and the partition it was read in (`--part`), if one was named.
public struct Sample: Sendable, Equatable {
    public var row: Int
    public var value: String
    public var part: String? = nil
    /// The record's values of the spec's `key` columns, in the key's order; empty without a key.
    public var key: [String] = []
    /// The value as the column writes it formatted (its chosen format's, or the phone number's);
    /// nil where a report read back had none.
    public var formatted: String? = nil
    /// A lossy cell's characters that the format had no room or slot for; nil for other cells.
    public var dropped: String? = nil

    public init(
        row: Int, value: String, part: String? = nil, key: [String] = [], formatted: String? = nil,
        dropped: String? = nil
    ) {
        (self.row, self.value, self.part, self.key) = (row, value, part, key)
        (self.formatted, self.dropped) = (formatted, dropped)
    }

    /// The most bytes of a value a sample shows: a 30 MB cell is identified by its start, and
    /// the report stays small.
    static let valueBytesKept = 256

    /// A value as a sample shows it, cut as `shown(_:)` cuts the bytes of one.
    static func shown(_ value: String) -> String {
        var value = value
        return value.withUTF8 { shown($0) }
    }

    /// A cell's value as a sample shows it: whole, or its first `valueBytesKept` bytes (cut
    /// between characters) followed by `…`.
    static func shown(_ value: UnsafeBufferPointer<UInt8>) -> String {
        guard value.count > valueBytesKept else { return String(decoding: value, as: UTF8.self) }
        var end = valueBytesKept
        while end > 0 && value[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
        return String(decoding: UnsafeBufferPointer(rebasing: value[..<end]), as: UTF8.self) + "…"
    }
}

extension Sample {
    /// The sample with its values' shape but not their content: every letter and numeral a
    /// placeholder (`Redaction`), every other character as it was. The key's values are
    /// redacted where `maskedKeys` says the key column is masked itself, and kept otherwise: an
    /// identifier is what finds the record.
    public func redacted(maskedKeys: [Bool] = []) -> Sample {
        var sample = self
        sample.value = Self.redact(value)
        sample.formatted = formatted.map(Self.redact)
        sample.dropped = dropped.map(Self.redact)
        for index in key.indices where index < maskedKeys.count && maskedKeys[index] {
            sample.key[index] = Self.redact(key[index])
        }
        return sample
    }

    /// The sample at another place: its row shifted by `rows`, in partition `part`.
    func moved(by rows: Int, part: String?) -> Sample {
        var sample = self
        sample.row += rows
        sample.part = part
        return sample
    }

    public static func redact(_ value: String) -> String { Redaction.redact(value) }
}

/// A record that could not be read, under `--on-error skip` or `--quarantine`: the line it
/// begins on, within its partition when the run read one (`--part`).
public struct Rejection: Sendable, Equatable {
    public var line: Int
    public var reason: String
    public var part: String? = nil

    /// How the reports name where it is: `line 52`, or `part 3 line 52`.
    public var place: String { (part.map { "part \($0) " } ?? "") + "line \(line)" }
}

/// One partition of the input that a report covers (`--part`, `--first-row`): a run over a
/// partition reports one, a merged report every one it was made of, a run over a whole file none.
public struct Partition: Sendable, Equatable {
    /// The partition's identifier, if it was given one.
    public var part: String?
    /// The row its first record was numbered with, if the run was told (`--first-row`).
    public var firstRow: Int?
    /// The records it held.
    public var rows: Int

    public init(part: String?, firstRow: Int?, rows: Int) {
        self.part = part
        self.firstRow = firstRow
        self.rows = rows
    }
}

/// One masked column's counts, for a chunk of records or for the whole run.
public struct ColumnStats: Sendable, Equatable {
    /// How many cells of each status are kept as samples (the spec's `samples`).
    public var samplesKept: Int

    public var complete = 0
    public var lossy = 0
    public var incomplete = 0
    public var empty = 0
    /// Cells that fit a format but failed the column's check (docs/cell-status.md).
    public var invalid = 0
    public var droppedCharacters = 0
    /// How many non-empty cells each format was chosen for, by index (0: the primary format).
    public var formatCounts: [Int]
    public var lossySamples: [Sample] = []
    public var incompleteSamples: [Sample] = []
    public var invalidSamples: [Sample] = []
    /// The shapes of the lossy, incomplete and invalid cells, with their counts.
    public var lossyShapes = ShapeTally()
    public var incompleteShapes = ShapeTally()
    public var invalidShapes = ShapeTally()
    /// A phone column's cells by the region detected (`countries` in the report), indexed by
    /// `CountryCode.index`; empty for other columns.
    public var countryCounts: [Int] = []

    /// `countries`: the column is a phone column, whose cells are counted by region too.
    public init(formats: Int, samples: Int = 5, countries: Bool = false) {
        formatCounts = Array(repeating: 0, count: formats)
        samplesKept = samples
        if countries { countryCounts = Array(repeating: 0, count: CountryCode.count) }
    }

    /// The stats a column of `spec` starts with.
    init(column spec: ColumnSpec) {
        self.init(formats: spec.formats.count, samples: spec.samples, countries: spec.phone != nil)
    }

    /// The regions cells were counted under, most cells first (then by code), with their counts.
    public var countries: [(region: String, count: Int)] {
        countryCounts.indices.filter { countryCounts[$0] > 0 }
            .map { (CountryCode.code(at: $0), countryCounts[$0]) }
            .sorted { ($1.1, $0.0) < ($0.1, $1.0) }
    }

    /// Counts a phone cell's region (alpha-2, or `001`); nothing for none.
    @inline(__always)
    mutating func countCountry(_ region: UnsafeBufferPointer<UInt8>) {
        guard let index = CountryCode.index(region) else { return }
        countryCounts[index] += 1
    }

    public var cells: Int { complete + lossy + incomplete + empty + invalid }

    /// The samples of each status that keeps them, in the order every report lists them.
    public var samplesByStatus: [(status: String, samples: [Sample])] {
        [("lossy", lossySamples), ("incomplete", incompleteSamples), ("invalid", invalidSamples)]
    }

    /// The shapes of each status that keeps them, in the same order.
    public var shapesByStatus: [(status: String, shapes: ShapeTally)] {
        [("lossy", lossyShapes), ("incomplete", incompleteShapes), ("invalid", invalidShapes)]
    }

    /// Counts one cell: a lossy, incomplete or invalid one by its shape too. `sample` is only
    /// asked for when the cell becomes a sample.
    @inline(__always)
    mutating func count(
        _ status: CellStatus, format: Int, dropped: Int, row: Int, value: UnsafeBufferPointer<UInt8>,
        sample: (Int) -> Sample
    ) {
        switch status {
        case .complete:
            complete += 1
        case .lossy:
            lossy += 1
            lossyShapes.add(value)
            if lossySamples.count < samplesKept { lossySamples.append(sample(row)) }
        case .incomplete:
            incomplete += 1
            incompleteShapes.add(value)
            if incompleteSamples.count < samplesKept { incompleteSamples.append(sample(row)) }
        case .invalid:
            invalid += 1
            invalidShapes.add(value)
            if invalidSamples.count < samplesKept { invalidSamples.append(sample(row)) }
        case .empty:
            empty += 1
            return
        }
        formatCounts[format] += 1
        droppedCharacters += dropped
    }

    /// Counts one cell, with a sample of its value alone (tests, and callers without formats).
    mutating func count(_ status: CellStatus, format: Int, dropped: Int, row: Int, value: () -> String) {
        let text = status == .complete || status == .empty ? "" : value()
        var bytes = text
        bytes.withUTF8 { bytes in
            count(status, format: format, dropped: dropped, row: row, value: bytes) {
                Sample(row: $0, value: text)
            }
        }
    }

    /// Adds a later chunk's counts; its sample rows are relative to its first row, `rowOffset`.
    mutating func merge(_ later: ColumnStats, rowOffset: Int) {
        complete += later.complete
        lossy += later.lossy
        incomplete += later.incomplete
        empty += later.empty
        invalid += later.invalid
        droppedCharacters += later.droppedCharacters
        for index in formatCounts.indices { formatCounts[index] += later.formatCounts[index] }
        for index in countryCounts.indices { countryCounts[index] += later.countryCounts[index] }
        for sample in later.lossySamples where lossySamples.count < samplesKept {
            lossySamples.append(sample.moved(by: rowOffset, part: sample.part))
        }
        for sample in later.incompleteSamples where incompleteSamples.count < samplesKept {
            incompleteSamples.append(sample.moved(by: rowOffset, part: sample.part))
        }
        for sample in later.invalidSamples where invalidSamples.count < samplesKept {
            invalidSamples.append(sample.moved(by: rowOffset, part: sample.part))
        }
        lossyShapes.merge(later.lossyShapes)
        incompleteShapes.merge(later.incompleteShapes)
        invalidShapes.merge(later.invalidShapes)
    }
}

/// A region as a phone column's `countries` count it: two upper-case ASCII letters (ISO 3166-1
/// alpha-2) or `001`, the non-geographic codes' region, as a place in a fixed table, so that a
/// cell is counted without a string or a hash.
public enum CountryCode {
    /// 26 × 26 letter pairs, then `001`.
    public static let count = 26 * 26 + 1

    /// The place of `code`, or nil when it is no region code.
    @inline(__always)
    public static func index(_ code: UnsafeBufferPointer<UInt8>) -> Int? {
        if code.count == 2, (0x41...0x5A).contains(code[0]), (0x41...0x5A).contains(code[1]) {
            return Int(code[0] - 0x41) * 26 + Int(code[1] - 0x41)
        }
        if code.count == 3, code[0] == 0x30, code[1] == 0x30, code[2] == 0x31 { return count - 1 }
        return nil
    }

    public static func index(_ code: String) -> Int? {
        var code = code
        return code.withUTF8 { index($0) }
    }

    public static func code(at index: Int) -> String {
        guard index < count - 1 else { return "001" }
        return String(decoding: [UInt8(0x41 + index / 26), UInt8(0x41 + index % 26)], as: UTF8.self)
    }
}

/// The completeness report of a run.
public struct Report: Sendable {
    public struct Column: Sendable {
        public var spec: ColumnSpec
        public var stats: ColumnStats
        /// Records that never reached the mask: the same for every column.
        public var rejected = 0
        /// Whether any record had the column: false only for a JSON key that no record of a
        /// partition had (`--part`), which `merge` judges over every partition.
        public var keyFound = true
        /// The column's counts in the baseline report (`--baseline`), if the run had one.
        public var baseline: Baseline.Counts?

        /// Every record read counts in one of the six: complete, lossy, incomplete, invalid, empty
        /// or rejected.
        public var rows: Int { stats.cells + rejected }

        /// complete ÷ (rows − empty), or complete ÷ rows when the column is `required`: a
        /// rejected record counts as not complete. 1 when there is nothing to divide by.
        public var completeRatio: Ratio {
            Ratio(stats.complete, of: spec.required ? rows : rows - stats.empty)
        }

        /// invalid ÷ the complete ratio's divisor: the share of counted cells that fit a format but
        /// failed the column's check.
        public var invalidRatio: Ratio {
            Ratio(stats.invalid, of: spec.required ? rows : rows - stats.empty)
        }

        /// At least `minComplete` complete, at most `maxInvalid` invalid, and against a baseline
        /// fallen by at most `maxDrop`.
        public var passed: Bool { completePassed && invalidPassed && dropPassed }

        public var completePassed: Bool {
            guard let minimum = spec.minComplete else { return true }
            return completeRatio.meets(minimum)
        }

        public var invalidPassed: Bool {
            guard let maximum = spec.maxInvalid else { return true }
            return invalidRatio.isAtMost(maximum)
        }

        /// The spec keys of the thresholds the column missed, in the report's order (`minComplete`,
        /// `maxInvalid`): empty when it passed. The reports say why a column failed with them.
        public var failedThresholds: [String] {
            (completePassed ? [] : ["minComplete"]) + (invalidPassed ? [] : ["maxInvalid"])
                + (dropPassed ? [] : ["maxDrop"])
        }

        /// Passed, but below `warnComplete`: the reports say WARN, the exit status stays 0.
        public var warned: Bool {
            guard passed, let warning = spec.warnComplete else { return false }
            return !completeRatio.meets(warning)
        }
    }

    /// The input as the user named it (`-` for standard input): JUnit's `classname`, the
    /// annotations' `file`.
    public var input = "-"
    /// Records read, rejected ones included.
    public var rows = 0
    public var columns: [Column]
    /// The first few records that could not be read (`--on-error skip`, `--quarantine`).
    public var rejected: [Rejection] = []
    public var rejectedCount = 0
    /// The most rejected records the spec allows (`maxRejected`).
    public var maxRejected: Int
    /// The fewest records the spec accepts (`minRows`).
    public var minRows: Int
    /// Blank lines skipped in a CSV of several columns, and the first few of their lines.
    public var blankLines = 0
    public var blankLineNumbers: [Int] = []
    /// The partition of each of `blankLineNumbers`, when the report knows it.
    public var blankLineParts: [String?] = []
    public static let blankLinesKept = 10
    /// What the report was made from and when (`Origin`).
    public var origin = Origin()
    /// The fingerprint of the spec the report was made with (`Spec.fingerprint`).
    public var specFingerprint: String
    /// The partitions the report covers: none for a run over a whole input.
    public var partitions: [Partition] = []

    public init(spec: Spec) {
        columns = spec.columns.map {
            Column(spec: $0, stats: ColumnStats(column: $0))
        }
        maxRejected = spec.maxRejected
        minRows = spec.minRows
        specFingerprint = spec.fingerprint
        keyColumns = spec.key
        maxRowsChange = spec.maxRowsChange
        maskedKeys = spec.key.map { key in spec.columns.contains { $0.name == key } }
    }

    /// The spec's `key` columns, whose values each sample carries.
    public var keyColumns: [String] = []

    public var rejectedPassed: Bool { rejectedCount <= maxRejected }
    public var rowsPassed: Bool { rows >= minRows }
    public var failedColumns: Int { columns.count { !$0.passed } }
    public var warnedColumns: Int { columns.count(where: \.warned) }

    /// The error that stopped the run before its end, if one did: the counts are then those
    /// made before it, and the report never passes.
    public var error: RunError?

    public var passed: Bool {
        error == nil && failedColumns == 0 && rejectedPassed && rowsPassed && rowsChangePassed
    }

    /// The report compared with (`--baseline`), if any.
    public var baseline: Baseline?
    /// Against a baseline, the most the row count may change (the spec's `maxRowsChange`).
    public var maxRowsChange: Double?

    public static let rejectionSamplesKept = 10

    /// Whether the samples' values were redacted (`--samples redacted`, the default).
    public var samplesRedacted = false

    /// Which of the spec's `key` columns are masked columns too: their values are redacted with
    /// the samples'.
    public var maskedKeys: [Bool] = []

    /// Replaces every sample value by its shape (`Sample.redacted`), for every format at once.
    public mutating func redactSamples() {
        samplesRedacted = true
        let masked = maskedKeys
        for index in columns.indices {
            columns[index].stats.lossySamples = columns[index].stats.lossySamples.map {
                $0.redacted(maskedKeys: masked)
            }
            columns[index].stats.incompleteSamples = columns[index].stats.incompleteSamples.map {
                $0.redacted(maskedKeys: masked)
            }
            columns[index].stats.invalidSamples = columns[index].stats.invalidSamples.map {
                $0.redacted(maskedKeys: masked)
            }
        }
    }

    /// How the reports name the `index`th kept blank line: `3`, or `3 of part 0`.
    public func blankLinePlace(_ index: Int) -> String {
        let part = index < blankLineParts.count ? blankLineParts[index] : nil
        return "\(blankLineNumbers[index])" + (part.map { " of part \($0)" } ?? "")
    }

    /// Marks the report as one partition's (`--part`, `--first-row`): its samples' rows are
    /// shifted to start at `firstRow`, and its samples, rejected records and blank lines carry the
    /// partition's identifier. Without either, the report stays as a whole input's.
    public mutating func placeInPartition(part: String?, firstRow: Int?) {
        guard part != nil || firstRow != nil else { return }
        let shift = (firstRow ?? 1) - 1
        func placed(_ samples: [Sample]) -> [Sample] {
            samples.map { $0.moved(by: shift, part: part) }
        }
        for index in columns.indices {
            columns[index].stats.lossySamples = placed(columns[index].stats.lossySamples)
            columns[index].stats.incompleteSamples = placed(columns[index].stats.incompleteSamples)
            columns[index].stats.invalidSamples = placed(columns[index].stats.invalidSamples)
        }
        for index in rejected.indices { rejected[index].part = part }
        blankLineParts = Array(repeating: part, count: blankLineNumbers.count)
        partitions = [Partition(part: part, firstRow: firstRow, rows: rows)]
    }

    mutating func reject(line: Int, reason: String) {
        rejectedCount += 1
        for index in columns.indices { columns[index].rejected += 1 }
        if rejected.count < Self.rejectionSamplesKept {
            rejected.append(Rejection(line: line, reason: reason))
        }
    }
}

/// A share, kept as the two counts it came from so that it can be written without rounding up.
public struct Ratio: Sendable, Equatable {
    public let numerator: Int
    public let denominator: Int

    public init(_ numerator: Int, of denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Whether the ratio is at least `threshold`, decided exactly on the threshold's decimal text
    /// (`0.95`, not the binary number nearest to it), the way a reader of the report compares them.
    public func meets(_ threshold: Double) -> Bool {
        guard denominator > 0 else { return true }
        return Decimal(numerator) >= Self.decimal(threshold) * Decimal(denominator)
    }

    /// Whether the ratio is at most `threshold`, decided exactly as `meets` is.
    public func isAtMost(_ threshold: Double) -> Bool {
        guard denominator > 0 else { return true }
        return Decimal(numerator) <= Self.decimal(threshold) * Decimal(denominator)
    }

    /// 1 when there is nothing to divide by.
    public var value: Double {
        denominator == 0 ? 1 : Double(numerator) / Double(denominator)
    }

    /// The ratio with `decimals` digits after the point, truncated (never rounded up): 19,999 ÷
    /// 20,000 is `0.9999`, where rounding would say `1.0000`. `scale` shifts the point (2 for a
    /// percentage).
    public func truncated(_ decimals: Int, scale: Int = 0) -> String {
        guard denominator > 0, numerator < denominator else {
            let fraction = decimals > 0 ? "." + String(repeating: "0", count: decimals) : ""
            return "1" + String(repeating: "0", count: scale) + fraction
        }
        // Long division: the remainder stays below the denominator, so nothing overflows.
        var digits = ""
        var remainder = numerator
        for _ in 0..<(scale + decimals) {
            remainder *= 10
            digits.append(Character(String(remainder / denominator)))
            remainder %= denominator
        }
        var whole = String(digits.prefix(scale).drop { $0 == "0" })
        if whole.isEmpty { whole = "0" }
        let fraction = digits.dropFirst(scale)
        return fraction.isEmpty ? whole : whole + "." + fraction
    }

    /// The shortest truncated text with at least `decimals` decimals that compares with
    /// `threshold` as the ratio itself does: a ratio just below its threshold never reads as equal
    /// to it, and the report's numbers always agree with its verdict.
    public func text(decimals: Int, scale: Int = 0, against threshold: Double?) -> String {
        guard let threshold else { return truncated(decimals, scale: scale) }
        return shortest(
            decimals: decimals, scale: scale, threshold: threshold, passes: meets(threshold), by: >=)
    }

    /// The shortest truncated text, from `decimals` decimals on, that `passing` compares with the
    /// threshold as `passes` says the ratio does.
    private func shortest(
        decimals: Int, scale: Int, threshold: Double, passes: Bool, by passing: (Decimal, Decimal) -> Bool
    ) -> String {
        var limit = Self.decimal(threshold)
        for _ in 0..<scale { limit *= 10 }
        for places in decimals...(decimals + 18) {
            let candidate = truncated(places, scale: scale)
            if let shown = Decimal(string: candidate), passing(shown, limit) == passes { return candidate }
        }
        return truncated(decimals + 18, scale: scale)
    }

    /// The text of a share that must stay at most `threshold` (`maxInvalid`), truncated as `text`
    /// is and, like it, never contradicting the verdict: a ratio just above its threshold never
    /// reads as equal to it. Nothing to divide by is nothing over the threshold: 0, not 1.
    public func text(decimals: Int, scale: Int = 0, atMost threshold: Double?) -> String {
        guard denominator > 0 else { return Ratio(0, of: 1).truncated(decimals, scale: scale) }
        guard let threshold else { return truncated(decimals, scale: scale) }
        return shortest(
            decimals: decimals, scale: scale, threshold: threshold, passes: isAtMost(threshold), by: <=)
    }

    /// A threshold as the decimal number its shortest text says.
    static func decimal(_ value: Double) -> Decimal {
        Decimal(string: String(value)) ?? Decimal(value)
    }
}
