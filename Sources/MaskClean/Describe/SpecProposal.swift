import MaskEngine

/// The spec `describe` proposes for an input (docs/command-line.md): for every column it looked
/// at, the formats it proposes with the figures behind them, or why it left the column out.
public struct SpecProposal: Sendable {
    /// The input's name (`stdin` for `-`).
    public var file: String
    /// Records read: every record of the input, or its first `--head`.
    public var records: Int
    /// Records the proposal was judged from, spread over those read; nil when it was judged
    /// from every record read.
    public var sampledRecords: Int?
    /// The columns looked at, in input order.
    public var columns: [ColumnProposal]
    /// What the caller should be told besides the spec: that the header looks like a record
    /// (`HeaderGuess`).
    public var warnings: [UsageMessage] = []

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
    /// The check proposed (`ProposedRules`): Luhn for card numbers, date for dates, with the
    /// order the values show where the formats do not say it.
    public var check: CheckName?
    public var dateOrder: DateOrder?
    /// `significant`: the sign and decimal point a column of numbers holds; a timestamp's offset
    /// sign.
    public var significant = ""
    /// `case`: `upper` for a kind whose letters are written upper-case (postcodes, IBANs).
    public var letterCase: String?
    /// `kind: phone` (docs/spec.md#phone-columns) in place of formats, for a column of phone
    /// numbers of any country (`PhoneTally`).
    public var phone: PhoneProposal?
    /// Why the column is left out of the spec; nil when it is proposed.
    public var leftOut: String?
    /// The added columns (`formattedColumn`, ...) written as `null`: the input has a column of
    /// their default name, which a run would refuse to repeat.
    public var omittedOutputs: [String] = []
    /// Non-empty and empty cells: a proposed column's of every record read (as `check` counts
    /// them on the same records), a column left out's of the sample.
    public var values = 0
    public var empty = 0
    /// The non-empty cells of the sample the column was judged from, when that is not every
    /// record read: the share of `covered` is of these.
    public var sampledValues: Int?
    /// Values of `kind`; values of the formats' shapes when no kind was recognised: in the
    /// sample.
    public var covered = 0
    /// Values that came out complete with the formats.
    public var complete = 0
    /// What the comment says of the kind's values (`12 with an extension`).
    public var notes: [String] = []
    /// A kind's alternative formats taken out as they changed what values say (`Measure`).
    public var formatsTakenOut: [String] { takenOut.flatMap(\.formats) }
    /// Those formats as they were found, in the sample's values or in the reading of every
    /// record, with the changes they made there, for the comment.
    var takenOut: [TakenOut] = []
    struct TakenOut: Sendable, Equatable {
        var formats: [String]
        var sampled: Bool
        var changes: [MeaningChange: Change] = [:]
        struct Change: Sendable, Equatable {
            var count: Int
            var example: String
        }
    }
    /// The most common shapes of the values that did not come out complete, as formats, with
    /// every character of the data that redaction hides as its placeholder (`shownFormat`).
    public var uncovered: [ShapeCount] = []

    /// The complete share in hundredths, rounded down, so that the records read pass it.
    public var minCompleteHundredths: Int { values == 0 ? 100 : complete * 100 / values }
}

/// A phone column as `describe` proposes it.
public struct PhoneProposal: Sendable, Equatable {
    /// The region of the numbers written without a country code (ISO 3166-1 alpha-2); nil when
    /// every valid number has a country code.
    public var defaultRegion: String?
}

/// A shape, written as the format that fits it, and how many values have it.
public struct ShapeCount: Sendable, Equatable {
    public var shape: String
    public var count: Int
}

/// Proposes a spec from a sample of an input's records, and measures it on every record read
/// (docs/command-line.md, `describe`).
public enum SpecProposer {
    /// Most alternatives a column gets, after its primary format.
    static let maximumAlternatives = 5
    /// Shapes of values left incomplete that a column's comment lists.
    static let uncoveredShown = 3

    public static func describe(_ options: DescribeOptions) throws(MaskCleanError) -> SpecProposal {
        try describe(options, limits: .init())
    }

    static func describe(_ options: DescribeOptions, limits: ColumnTally.Limits) throws(MaskCleanError)
        -> SpecProposal
    {
        let sample = try RecordSample.read(options, limits: limits)
        var chosen = Array(sample.columns.indices)
        if let only = options.only {
            for name in only where !sample.columns.contains(name) {
                let known = sample.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                // A suggestion the shell and `--only`'s commas would take apart says how to type it.
                let suggested = suggestion(for: name, in: sample.columns)
                let typed = suggested.map(ColumnList.typed)
                // Typed as a message shows it, the name looks like the one it is not.
                let lookalike =
                    suggested.map { visible($0) == name } ?? false
                    ? " (that name holds a character messages show as an escape; what you typed is the escape's text)"
                    : ""
                let typing: UsageMessage =
                    typed.map { $0 == suggested ? "" : " Type it as \(Setting.proposedColumns) \($0)" } ?? ""
                throw .usage(
                    "\(Setting.proposedColumns): no column \"\(name)\" in \(sample.file) (its columns: \(known))\(suggested.map { "; did you mean \"\($0)\"?" } ?? "")\(lookalike)"
                        + typing)
            }
            chosen = chosen.filter { only.contains(sample.columns[$0]) }
        }
        var columns: [ColumnProposal] = []
        // The columns' tallies are added up in parallel (each on its own, the sample's costliest
        // part: phone numbers are read under every region they may be of), a few at a time so
        // that the summaries of a hundred thousand columns are not held at once.
        for block in stride(from: 0, to: chosen.count, by: 64) {
            let indices = Array(chosen[block..<min(chosen.count, block + 64)])
            let summaries = ColumnTally.summaries(indices.map { sample.tallies[$0] }, workers: sample.workers)
            for (index, summary) in zip(indices, summaries) {
                let tally = sample.tallies[index]
                guard !sample.repeatedNames.contains(sample.columns[index]) else {
                    var column = ColumnProposal(name: sample.columns[index], values: tally.values)
                    column.leftOut =
                        "the name is given to more than one column, and a spec names each column it masks once"
                    columns.append(column)
                    continue
                }
                columns.append(
                    try propose(
                        sample.columns[index], summary, empty: sample.sampled - tally.values,
                        unmaskable: tally.unmaskable, objects: tally.objects))
            }
        }
        let inputNames = Set(sample.columns)
        for index in columns.indices where columns[index].leftOut == nil {
            let keys = columns[index].phone == nil ? outputKeys : outputKeys + [phoneOutputKey]
            columns[index].omittedOutputs = keys.filter {
                inputNames.contains(columns[index].name + $0.suffix)
            }
            .map(\.key)
            // A check with a canonical form adds the normalized column too.
            if columns[index].check?.hasNormalizedForm == true,
                inputNames.contains(columns[index].name + "_normalized")
            {
                columns[index].omittedOutputs.append("normalizedColumn")
            }
        }
        // Each proposed column is loaded as written (`Measure`), one at a time: the spec of a
        // hundred thousand columns is not held compiled. Across columns nothing can clash: the
        // names are the input's, and an added column's is a name plus a suffix that no other
        // suffix ends like, or null when the input has it.
        try measure(&columns, sample, chosen)
        var proposal = SpecProposal(
            file: sample.file, records: sample.records, sampledRecords: sample.isWhole ? nil : sample.sampled,
            columns: columns)
        if !sample.pass.format.isJSON && options.columnNames == nil {
            let values = HeaderGuess.valuesAmong(sample.columns)
            if !values.isEmpty {
                proposal.warnings.append(
                    HeaderGuess.warning(values, columns: sample.columns.count, file: sample.file))
            }
        }
        guard !proposal.proposed.isEmpty else {
            let reasons = columns.map { "\($0.name): \($0.leftOut ?? "")" }.joined(separator: "; ")
            let hints = proposal.warnings.map { "; " + $0 }.reduce(UsageMessage(""), +)
            throw .data(
                sample.file, line: nil,
                "no column to propose from \(plural(sample.records, "record"))"
                    + (reasons.isEmpty ? "" : " (\(reasons))") + hints)
        }
        return proposal
    }

    /// The added columns' keys and the suffixes of their default names (docs/spec.md).
    static let outputKeys = [
        (key: "formattedColumn", suffix: "_formatted"), (key: "extractedColumn", suffix: "_extracted"),
        (key: "statusColumn", suffix: "_status"),
    ]
    /// A phone column's added column of each number's region.
    static let phoneOutputKey = (key: "countryColumn", suffix: "_country")

    /// Judges one column from its sampled cells, and measures it: what `describe` does with a
    /// column's tally, all in memory.
    static func propose(_ name: String, cells: [String], unmaskable: Int) throws(MaskCleanError)
        -> ColumnProposal
    {
        var tally = ColumnTally()
        for cell in cells where !cell.isEmpty { _ = tally.add(cell, .init(distinctValues: .max)) }
        var column = try propose(
            name, tally.summary, empty: cells.count - tally.values, unmaskable: unmaskable)
        var measuring = column.leftOut == nil
        while measuring {
            var measure = try Measure(column)
            for (value, count) in tally.distinct { measure.add(value, count: count) }
            measuring = measure.finish(&column)
        }
        return column
    }

    /// Judges one column from its values' tally: its kind or formats, or why it is left out.
    /// The complete share is for `measure` to count.
    static func propose(_ name: String, _ tally: ValueTally, empty: Int, unmaskable: Int, objects: Int = 0)
        throws(MaskCleanError) -> ColumnProposal
    {
        var column = ColumnProposal(name: name, values: tally.values, empty: empty)
        // A spec names each column it masks (docs/spec.md): a field the header leaves unnamed
        // (a data frame's index, written without a name) cannot be one.
        guard !name.isEmpty else {
            column.leftOut = "the header gives it no name, and a spec names each column it masks"
            return column
        }
        if unmaskable > 0 && unmaskable == objects && tally.values == 0 {
            column.values += unmaskable
            column.leftOut = "JSON objects, whose members are proposed as columns of their own, by path"
            return column
        }
        if unmaskable > 0 {
            column.values += unmaskable
            column.leftOut =
                "JSON objects, arrays or booleans, which are not masked, in \(plural(unmaskable, "value"))"
            return column
        }
        guard tally.values > 0 else {
            column.leftOut = "every sampled cell is empty (\(plural(empty, "record")))"
            return column
        }
        let values = tally.values
        let ranked = tally.shapes.map { (shape: ValueShape(format: $0.key), format: $0.key, count: $0.value) }
            .sorted { ($0.count, $1.format) > ($1.count, $0.format) }
        // A column of more shapes than are counted says so; its other values make no format.
        let shapeCount = (tally.otherShapes > 0 ? "more than " : "") + "\(ranked.count)"
        let named = ValueKind.fitting(columnName: name)
        let otherKind = recognisedKind(tally, among: Set(named).subtracting([.phone]))
        if otherKind == nil, let phone = tally.phones.choice(values: values) {
            column.kind = PhoneChoice.kindName
            column.phone = PhoneProposal(defaultRegion: phone.defaultRegion)
            column.covered = phone.valid
            column.notes = phone.notes
        } else if let kind = otherKind ?? recognisedKind(tally, among: [.phone]) {
            column.kind = kind.kind.name
            column.covered = kind.count
            (column.formats, column.notes) = KindFormats.formats(kind)
            switch kind.kind {
            case .card: ProposedRules.cardCheck(kind, failing: tally.failingLuhn, into: &column)
            case .date: ProposedRules.dateCheck(kind, into: &column)
            case .phone, .zip: break
            default: ProposedRules.kindRules(kind, into: &column)
            }
            ProposedRules.keepCheckIfReadable(&column)
        } else if let reason = unsuitable(tally, ranked: ranked.map { ($0.shape, $0.count) }, shapeCount) {
            column.leftOut = reason
            return column
        } else {
            // Shapes of one skeleton share a format, their most common shape's; the primary is
            // the largest group's, the alternatives the next ones that more than a stray value
            // or two have: one in twenty values at least.
            // A column of numbers groups shapes only by their sign: `12.345` and `123.45`, or
            // `1,234` and `1234`, are other numbers, which one format would write alike.
            let typeable = ranked.filter { $0.shape.isTypeable }
            let numbers = !typeable.isEmpty && typeable.allSatisfy { ProposedRules.isNumber($0.shape) }
            var groups: [[ValueShape.Step]: (format: String, count: Int)] = [:]
            for shape in typeable {
                if numbers {
                    let unsigned = ProposedRules.unsigned(shape.shape)
                    groups[unsigned.steps, default: (unsigned.format, 0)].count += shape.count
                } else {
                    groups[shape.shape.skeleton, default: (shape.format, 0)].count += shape.count
                }
            }
            guard !groups.isEmpty else {
                column.leftOut =
                    "no value that a format could take: each has a control or invisible character"
                return column
            }
            let rankedGroups = groups.values.sorted { ($0.count, $1.format) > ($1.count, $0.format) }
            let frequent = max(2, values / 20)
            // Numbers of which some are negative take each format twice (`numberFormats`): as
            // many groups as their formats hold, so that what is counted covered is proposed.
            let negative = numbers && typeable.contains { $0.shape.steps.first == .literal("-") }
            let alternatives = negative ? (1 + maximumAlternatives) / 2 - 1 : maximumAlternatives
            let formats =
                [rankedGroups[0]]
                + rankedGroups.dropFirst().prefix(alternatives).filter { $0.count >= frequent }
            column.covered = formats.reduce(0) { $0 + $1.count }
            guard column.covered * 2 >= values else {
                let shown = min(rankedGroups.count, 1 + alternatives)
                let top = rankedGroups.prefix(shown).reduce(0) { $0 + $1.count }
                column.leftOut =
                    (numbers
                        ? "signed or decimal numbers in \(shapeCount) shapes, which a mask does not check: "
                        : "too many shapes: \(shapeCount) in \(values) values, ")
                    + "the \(shown) most common formats would cover \(percent(top, of: values))"
                return column
            }
            column.formats = formats.map(\.format)
            let skeletons = Set(formats.map { ValueShape(format: $0.format).skeleton })
            column.significant = ProposedRules.significant(
                ranked.map(\.shape).filter { $0.isTypeable && skeletons.contains($0.skeleton) })
            if !column.significant.isEmpty {
                column.formats = ProposedRules.numberFormats(
                    column.formats, significant: column.significant, limit: 1 + maximumAlternatives)
            }
            if tally.failingLuhn > 0 {
                column.notes.append(
                    "\(tally.failingLuhn) like card numbers (13 to 19 digits) but failing the Luhn check")
            }
            if tally.untypeable > 0 {
                column.notes.append(
                    "\(tally.untypeable) with a control or invisible character, which no format takes")
            }
        }
        return column
    }

    /// The kind of `kinds` most values are, when at least half of them are, and, for a kind with
    /// a check, few of its shape fail it (`KindTally.fewFailing`). The kinds the column's name
    /// allows (`ValueKind.fits`) are asked first, then phone numbers of any country
    /// (`PhoneTally.choice`), and only then North American phone numbers by their shape: a column
    /// of valid phone numbers never gets the North American masks, and a column of ZIP codes or
    /// card numbers is never phones.
    static func recognisedKind(_ tally: ValueTally, among kinds: Set<ValueKind>) -> KindTally? {
        var best: KindTally?
        for kind in tally.kinds
        where kinds.contains(kind.kind) && kind.count * 2 >= tally.values && kind.fewFailing
            && kind.count > (best?.count ?? 0)
        {
            best = kind
        }
        return best
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
