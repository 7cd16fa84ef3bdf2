import MaskEngine

/// The spec `describe` proposes for an input (docs/command-line.md): for every column it looked
/// at, the formats it proposes with the figures behind them, or why it left the column out.
public struct SpecProposal: Sendable {
    /// The input's name (`stdin` for `-`).
    public var file: String
    /// Records sampled.
    public var records: Int
    /// The columns looked at, in input order.
    public var columns: [ColumnProposal]

    /// The columns the spec masks.
    public var proposed: [ColumnProposal] { columns.filter { $0.leftOut == nil } }
}

/// One column of the input, as `describe` judged it from the sample.
public struct ColumnProposal: Sendable, Equatable {
    public var name: String
    /// The kind recognised in most of its values, if any.
    public var kind: String?
    /// The primary format and its alternatives, most used first; empty when left out.
    public var formats: [String] = []
    /// Why the column is left out of the spec; nil when it is proposed.
    public var leftOut: String?
    /// The added columns (`formattedColumn`, ...) written as `null`: the input has a column of
    /// their default name, which a run would refuse to repeat.
    public var omittedOutputs: [String] = []
    /// Non-empty and empty cells sampled.
    public var values = 0
    public var empty = 0
    /// Values of `kind`; values of the formats' shapes when no kind was recognised.
    public var covered = 0
    /// Values that came out complete with the formats.
    public var complete = 0
    /// What the comment says of the kind's values (`12 with an extension`).
    public var notes: [String] = []
    /// The most common shapes of the values that did not come out complete, as formats.
    public var uncovered: [ShapeCount] = []

    /// The complete share in hundredths, rounded down, so that the sample passes it.
    public var minCompleteHundredths: Int { values == 0 ? 100 : complete * 100 / values }
}

/// A shape, written as the format that fits it, and how many values have it.
public struct ShapeCount: Sendable, Equatable {
    public var shape: String
    public var count: Int
}

/// Proposes a spec from the first records of an input (docs/command-line.md, `describe`).
public enum Describer {
    /// Most alternatives a column gets, after its primary format.
    static let maximumAlternatives = 5
    /// Shapes of values left incomplete that a column's comment lists.
    static let uncoveredShown = 3

    public static func describe(_ options: DescribeOptions) throws(MaskCleanError) -> SpecProposal {
        let sample = try RecordSample.read(options)
        var chosen = Array(sample.columns.indices)
        if let only = options.only {
            for name in only where !sample.columns.contains(name) {
                let known = sample.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                throw .usage(
                    "--only: no column \"\(name)\" in \(sample.file) (its columns: \(known))"
                        + didYouMean(name, in: sample.columns))
            }
            chosen = chosen.filter { only.contains(sample.columns[$0]) }
        }
        var columns: [ColumnProposal] = []
        for index in chosen {
            columns.append(
                try propose(
                    sample.columns[index], cells: sample.cells[index], unmaskable: sample.unmaskable[index]))
        }
        let inputNames = Set(sample.columns)
        for index in columns.indices where columns[index].leftOut == nil {
            columns[index].omittedOutputs = outputKeys.filter {
                inputNames.contains(columns[index].name + $0.suffix)
            }
            .map(\.key)
        }
        let proposal = SpecProposal(file: sample.file, records: sample.records, columns: columns)
        guard !proposal.proposed.isEmpty else {
            let reasons = columns.map { "\($0.name): \($0.leftOut ?? "")" }.joined(separator: "; ")
            throw .data(
                sample.file, line: nil,
                "no column to propose from \(plural(sample.records, "record"))"
                    + (reasons.isEmpty ? "" : " (\(reasons))"))
        }
        // Every proposed format compiles: the spec as written loads.
        _ = try SpecLoader.parse(Array(proposal.json.utf8), file: "proposed spec")
        return proposal
    }

    /// The added columns' keys and the suffixes of their default names (docs/spec.md).
    static let outputKeys = [
        (key: "formattedColumn", suffix: "_formatted"), (key: "extractedColumn", suffix: "_extracted"),
        (key: "statusColumn", suffix: "_status"),
    ]

    /// Judges one column from its sampled cells.
    static func propose(_ name: String, cells: [String], unmaskable: Int) throws(MaskCleanError)
        -> ColumnProposal
    {
        let values = cells.filter { !$0.isEmpty }
        var column = ColumnProposal(name: name, values: values.count, empty: cells.count - values.count)
        if unmaskable > 0 {
            column.values += unmaskable
            column.leftOut =
                "JSON objects, arrays or booleans, which are not masked, in \(plural(unmaskable, "value"))"
            return column
        }
        guard !values.isEmpty else {
            column.leftOut = "every sampled cell is empty (\(plural(cells.count, "record")))"
            return column
        }
        var shapes: [ValueShape: Int] = [:]
        for value in values { shapes[ValueShape(value), default: 0] += 1 }
        let ranked = shapes.map { (shape: $0.key, format: $0.key.format, count: $0.value) }
            .sorted { ($0.count, $1.format) > ($1.count, $0.format) }
        if let (kind, matches) = recognisedKind(values) {
            column.kind = kind.name
            column.covered = matches.count
            (column.formats, column.notes) = KindFormats.formats(matches)
        } else if let reason = unsuitable(values: values.count, ranked: ranked.map { ($0.shape, $0.count) }) {
            column.leftOut = reason
            return column
        } else {
            // Shapes of one skeleton share a format, their most common shape's; the primary is
            // the largest group's, the alternatives the next ones that more than a stray value
            // or two have: one in twenty values at least.
            var groups: [[ValueShape.Step]: (format: String, count: Int)] = [:]
            for shape in ranked {
                groups[shape.shape.skeleton, default: (shape.format, 0)].count += shape.count
            }
            let rankedGroups = groups.values.sorted { ($0.count, $1.format) > ($1.count, $0.format) }
            let frequent = max(2, values.count / 20)
            let formats =
                [rankedGroups[0]]
                + rankedGroups.dropFirst().prefix(maximumAlternatives).filter { $0.count >= frequent }
            column.covered = formats.reduce(0) { $0 + $1.count }
            guard column.covered * 2 >= values.count else {
                let top = rankedGroups.prefix(1 + maximumAlternatives).reduce(0) { $0 + $1.count }
                column.leftOut =
                    "too many shapes: \(ranked.count) in \(values.count) values, the \(min(rankedGroups.count, 1 + maximumAlternatives)) most common formats would cover \(percent(top, of: values.count))"
                return column
            }
            column.formats = formats.map(\.format)
            let failingLuhn = values.count { ValueKind.failsLuhn($0) }
            if failingLuhn > 0 {
                column.notes.append(
                    "\(failingLuhn) like card numbers (13 to 19 digits) but failing the Luhn check")
            }
        }
        try measure(&column, values)
        return column
    }

    /// The kind most values are, when at least half of them are.
    static func recognisedKind(_ values: [String]) -> (ValueKind, [KindMatch])? {
        var best: (ValueKind, [KindMatch])?
        for kind in ValueKind.allCases {
            let matches = values.compactMap(kind.match)
            if matches.count * 2 >= values.count && matches.count > (best?.1.count ?? 0) {
                best = (kind, matches)
            }
        }
        return best
    }

    /// Why values of no recognised kind make no format: words of every length (free text), or
    /// whole numbers of every length (an identifier, a count), which a mask does not check.
    static func unsuitable(values: Int, ranked: [(shape: ValueShape, count: Int)]) -> String? {
        let wordy = ranked.filter { $0.shape.hasLetterRun(of: 3) }
        let withWords = wordy.reduce(0) { $0 + $1.count }
        if withWords * 2 >= values, (wordy.first?.count ?? 0) * 2 < withWords {
            return
                "free text: words in \(withWords) of \(plural(values, "value")), \(plural(ranked.count, "shape"))"
        }
        if ranked.count > 1, ranked.allSatisfy({ $0.shape.isDigitsOnly }) {
            return
                "whole numbers of \(ranked.count) lengths (an identifier or a count), which a mask does not check"
        }
        return nil
    }

    /// Masks the values with the column's formats, as a run would, and notes how many came out
    /// complete and the shapes of the others.
    static func measure(_ column: inout ColumnProposal, _ values: [String]) throws(MaskCleanError) {
        let spec = try SpecLoader.parse(Array(SpecProposal.json([column]).utf8), file: "proposed spec")
        let mask = spec.columns[0].mask
        let buffer = ApplyBuffer()
        var uncovered: [String: Int] = [:]
        for value in values {
            var value = value
            let status = value.withUTF8 { mask.apply(utf8: $0, into: buffer).status }
            if status == .complete {
                column.complete += 1
            } else {
                uncovered[ValueShape(value).format, default: 0] += 1
            }
        }
        column.uncovered = uncovered.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(uncoveredShown)
            .map {
                ShapeCount(shape: $0.key, count: $0.value)
            }
    }

    /// `1 value`, `2 values`.
    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
    }

    /// `84.21%`, rounded down: a share never shows more than there is.
    static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "100%" }
        let basisPoints = part * 10_000 / whole
        let fraction = basisPoints % 100
        return "\(basisPoints / 100)"
            + (fraction == 0 ? "" : fraction < 10 ? ".0\(fraction)" : ".\(fraction)") + "%"
    }
}
