import MaskEngine

/// A cell worth showing in the report: the row it is in (data records counted from 1) and its
/// input value.
public struct Sample: Sendable, Equatable {
    public var row: Int
    public var value: String
}

/// A record that could not be read, under `--on-error skip` or `--quarantine`.
public struct Rejection: Sendable, Equatable {
    public var line: Int
    public var reason: String
}

/// One masked column's counts, for a chunk of records or for the whole run.
public struct ColumnStats: Sendable, Equatable {
    public static let samplesKept = 5

    public var complete = 0
    public var lossy = 0
    public var incomplete = 0
    public var empty = 0
    public var droppedCharacters = 0
    /// How many non-empty cells each format was chosen for, by index (0: the primary format).
    public var formatCounts: [Int]
    public var lossySamples: [Sample] = []
    public var incompleteSamples: [Sample] = []

    public init(formats: Int) {
        formatCounts = Array(repeating: 0, count: formats)
    }

    public var cells: Int { complete + lossy + incomplete + empty }

    /// Counts one cell. `value` is only asked for when the cell becomes a sample.
    mutating func count(_ status: CellStatus, format: Int, dropped: Int, row: Int, value: () -> String) {
        switch status {
        case .complete:
            complete += 1
        case .lossy:
            lossy += 1
            if lossySamples.count < Self.samplesKept { lossySamples.append(Sample(row: row, value: value())) }
        case .incomplete:
            incomplete += 1
            if incompleteSamples.count < Self.samplesKept {
                incompleteSamples.append(Sample(row: row, value: value()))
            }
        case .empty:
            empty += 1
            return
        }
        formatCounts[format] += 1
        droppedCharacters += dropped
    }

    /// Adds a later chunk's counts; its sample rows are relative to its first row, `rowOffset`.
    mutating func merge(_ later: ColumnStats, rowOffset: Int) {
        complete += later.complete
        lossy += later.lossy
        incomplete += later.incomplete
        empty += later.empty
        droppedCharacters += later.droppedCharacters
        for index in formatCounts.indices { formatCounts[index] += later.formatCounts[index] }
        for sample in later.lossySamples where lossySamples.count < Self.samplesKept {
            lossySamples.append(Sample(row: sample.row + rowOffset, value: sample.value))
        }
        for sample in later.incompleteSamples where incompleteSamples.count < Self.samplesKept {
            incompleteSamples.append(Sample(row: sample.row + rowOffset, value: sample.value))
        }
    }
}

/// The completeness report of a run (DESIGN §5).
public struct Report: Sendable {
    public struct Column: Sendable {
        public var spec: ColumnSpec
        public var stats: ColumnStats

        /// complete ÷ (cells − empty), or complete ÷ cells when the column is `required`; 1 when
        /// there is nothing to divide by. Cells are the records read minus the rejected ones.
        public var completeRatio: Double {
            let denominator = spec.required ? stats.cells : stats.cells - stats.empty
            return denominator == 0 ? 1 : Double(stats.complete) / Double(denominator)
        }

        public var passed: Bool {
            guard let minimum = spec.minComplete else { return true }
            return completeRatio >= minimum
        }
    }

    /// Records read, rejected ones included.
    public var rows = 0
    public var columns: [Column]
    /// Present when bad records are skipped or quarantined rather than fatal.
    public var rejected: [Rejection]?
    public var rejectedCount = 0

    public init(spec: Spec, collectsRejections: Bool) {
        columns = spec.columns.map { Column(spec: $0, stats: ColumnStats(formats: $0.formats.count)) }
        rejected = collectsRejections ? [] : nil
    }

    public var passed: Bool { columns.allSatisfy(\.passed) }

    public static let rejectionSamplesKept = 10

    mutating func reject(line: Int, reason: String) {
        rejectedCount += 1
        if (rejected?.count ?? Int.max) < Self.rejectionSamplesKept {
            rejected?.append(Rejection(line: line, reason: reason))
        }
    }
}
