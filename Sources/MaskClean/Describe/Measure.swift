import FoundationEssentials
import MaskEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A proposed column's values masked with its formats, one after another, as a run masks them:
/// through the masking stage's `CellMasker`, with the column's check, case, ignored and
/// significant characters; a phone column's cells are read by its phone reader, as a run reads
/// them. Every complete cell is also checked to say what its input says (`MeaningCheck`): a
/// column whose formats would change a value's meaning is not proposed.
struct Measure {
    let masker: CellMasker
    let meaning: MeaningCheck
    let isPhone: Bool
    let formats: [String]
    /// A format no one would type (`ProposedFormats.untypeable`), which leaves the column out.
    let untypeableFormat: String?
    var complete = 0
    var uncovered: [String: Int] = [:]
    /// The complete cells whose formatted value says something else, by change, each with its
    /// shortest value (then the first in byte order, so that the comment is the same however the
    /// values come), what it was written as, and by which format: bytes only for failing cells.
    var changed: [MeaningChange: ChangedValues] = [:]
    struct ChangedValues {
        var count: Int
        var value: [UInt8]
        var formatted: [UInt8]
        var format: Int?
    }
    /// The formats (indices into `formats`) that wrote those cells.
    var faultyFormats: Set<Int> = []
    /// A phone cell's formatted and E.164 values, copied out of the reader's buffers to be read
    /// back: reused from cell to cell.
    private var formattedCopy: [UInt8] = []
    private var numberCopy: [UInt8] = []
    /// Each ASCII shape's meaning verdict, by the format that wrote it, and each incomplete
    /// shape as a comment shows it (`ShapeMemo`); nil for the slow twin.
    private var meanings: ShapeMemo<MeaningChange?>?
    private var shapes: ShapeMemo<String>?
    /// Each ASCII shape's whole outcome, when no check judges a value's digits: complete with
    /// what it said kept, or not complete and shown as a comment shows it (`ShapeMemo`). A
    /// shape whose complete values say something else is never remembered: each is masked,
    /// for its example.
    private var outcomes: ShapeMemo<KnownOutcome>?
    enum KnownOutcome {
        case complete
        case notComplete(shape: String)
    }

    /// The column's spec as written compiles. `remembering: false` judges every value afresh:
    /// the slow twin of `ShapeMemo`'s fast path.
    init(_ column: ColumnProposal, remembering: Bool = true) throws(MaskCleanError) {
        let spec = try SpecLoader.parse(Array(SpecProposal.json([column]).utf8), file: "proposed spec")
        masker = CellMasker(columns: spec.columns)
        meaning = MeaningCheck(spec.columns[0], kind: column.kind)
        isPhone = spec.columns[0].phone != nil
        formats = column.formats
        untypeableFormat = column.formats.first { ProposedFormats.isUntypeable($0) }
        // A phone column's numbers are read by their digits' values, not by their shape.
        meanings = remembering && !isPhone ? ShapeMemo(formats: column.formats) : nil
        shapes = remembering ? ShapeMemo() : nil
        // A check (a date's calendar, a card's check digit) judges the digits themselves, not
        // their shape; a phone number is read by its digits' values.
        outcomes =
            remembering && !isPhone && spec.columns[0].check == nil ? ShapeMemo(formats: column.formats) : nil
    }

    mutating func add(_ value: String, count: Int) {
        var value = value
        value.withUTF8 { add(utf8: $0, count: count) }
    }

    mutating func add(utf8 value: UnsafeBufferPointer<UInt8>, count: Int = 1) {
        if let known = outcomes?.answer(for: value, salt: 0) {
            switch known {
            case .complete: complete += count
            case .notComplete(let shape): addUncovered(shape, count: count)
            }
            return
        }
        let cell = masker.maskAnyColumn(value, column: 0, row: 1)
        if cell.status == .complete {
            complete += count
            if let change = isPhone ? phoneChange(value, cell) : meaningChange(value, cell) {
                if !isPhone { faultyFormats.insert(cell.outcome.chosen) }
                noteChange(
                    change, value, cell.formatted, format: isPhone ? nil : cell.outcome.chosen, count: count)
            } else {
                outcomes?.remember(.complete, for: value)
            }
        } else {
            let shape = shownShape(value)
            outcomes?.remember(.notComplete(shape: shape), for: value)
            addUncovered(shape, count: count)
        }
    }

    private mutating func addUncovered(_ shape: String, count: Int) {
        // As many shapes as a column counts of its values (`ColumnTally`): the common ones are
        // among the first, and only three are shown.
        if uncovered.count < ColumnTally.distinctKept || uncovered[shape] != nil {
            uncovered[shape, default: 0] += count
        }
    }

    /// What `cell`'s formatted value changes of `value`'s meaning: remembered by shape.
    private mutating func meaningChange(_ value: UnsafeBufferPointer<UInt8>, _ cell: CellMasker.MaskedCell)
        -> MeaningChange?
    {
        // A value written as it came says what it said (`MeaningCheck.change`'s first answer):
        // comparing the bytes costs less than finding its shape in the memo.
        if value.count == cell.formatted.count,
            value.isEmpty || memcmp(value.baseAddress!, cell.formatted.baseAddress!, value.count) == 0
        {
            return nil
        }
        if let known = meanings?.answer(for: value, salt: cell.outcome.chosen) { return known }
        let change = meaning.change(value, cell.formatted)
        meanings?.remember(change, for: value)
        return change
    }

    /// `value`'s shape as a comment shows it: remembered by shape.
    private mutating func shownShape(_ value: UnsafeBufferPointer<UInt8>) -> String {
        if let known = shapes?.answer(for: value, salt: 0) { return known }
        let shape = ValueShape(String(decoding: value, as: UTF8.self)).shownFormat
        shapes?.remember(shape, for: value)
        return shape
    }

    /// Adds what `other` measured of the same column (another worker's share of the records):
    /// the counts, the shapes while there is room for them, and each change's shortest value.
    mutating func merge(_ other: Measure) {
        complete += other.complete
        for (shape, count) in other.uncovered
        where uncovered.count < ColumnTally.distinctKept || uncovered[shape] != nil {
            uncovered[shape, default: 0] += count
        }
        for (change, values) in other.changed {
            values.value.withUnsafeBufferPointer { value in
                values.formatted.withUnsafeBufferPointer { formatted in
                    noteChange(change, value, formatted, format: values.format, count: values.count)
                }
            }
        }
        faultyFormats.formUnion(other.faultyFormats)
    }

    /// A phone number means the number its reader reads: its formatted value must read back as
    /// the same number (a trunk prefix legitimately goes in the international format).
    private mutating func phoneChange(_ value: UnsafeBufferPointer<UInt8>, _ cell: CellMasker.MaskedCell)
        -> MeaningChange?
    {
        if value.count == cell.formatted.count, value.elementsEqual(cell.formatted) { return nil }
        formattedCopy.removeAll(keepingCapacity: true)
        formattedCopy.append(contentsOf: cell.formatted)
        numberCopy.removeAll(keepingCapacity: true)
        numberCopy.append(contentsOf: cell.extracted)
        let same = formattedCopy.withUnsafeBufferPointer { formatted in
            let again = masker.maskAnyColumn(formatted, column: 0, row: 1)
            return again.status == .complete && again.extracted.elementsEqual(numberCopy)
        }
        return same ? nil : .otherNumber
    }

    private mutating func noteChange(
        _ change: MeaningChange, _ value: UnsafeBufferPointer<UInt8>, _ formatted: UnsafeBufferPointer<UInt8>,
        format: Int?, count: Int
    ) {
        if var known = changed[change] {
            known.count += count
            if value.count < known.value.count
                || value.count == known.value.count && value.lexicographicallyPrecedes(known.value)
            {
                (known.value, known.formatted, known.format) = (Array(value), Array(formatted), format)
            }
            changed[change] = known
        } else {
            changed[change] = ChangedValues(
                count: count, value: Array(value), formatted: Array(formatted), format: format)
        }
    }

    /// Each change's count and its example, as the comment shows it: shapes, never the data.
    private var examples: [MeaningChange: (count: Int, example: String)] {
        changed.mapValues { values in
            let shapes = [values.value, values.formatted].map {
                ValueShape(String(decoding: $0, as: UTF8.self)).shownFormat
            }
            var example = "\(SpecProposal.quoted(shapes[0])) written \(SpecProposal.quoted(shapes[1]))"
            // The format at fault, for the user to take out of the spec and keep the rest: as
            // the spec would write it (its letters and digits are the format's own, a shape's are
            // slots), a character outside ASCII that redaction hides as its placeholder.
            if let format = values.format, formats.count > 1, formats.indices.contains(format) {
                let shown = String(formats[format].map { $0.isASCII ? $0 : Redaction.placeholder($0) ?? $0 })
                example += " by \(SpecProposal.quoted(shown))"
            }
            return (values.count, example)
        }
    }

    /// The column's complete count, and the most common shapes of its other values; or why it is
    /// left out after all. Returns true when the column is to be measured again: a kind's
    /// alternative formats that changed what values say are taken out (a North American number's
    /// extension format wrote twelve bare digits as a number with an extension), and the kind is
    /// proposed with the others, its comment saying which were taken out and why.
    /// `sampled`: the values measured are the sample's, which the comment of a format taken out
    /// says.
    @discardableResult
    func finish(_ column: inout ColumnProposal, sampled: Bool = false) -> Bool {
        column.complete = complete
        column.uncovered = uncovered.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .prefix(SpecProposer.uncoveredShown).map { ShapeCount(shape: $0.key, count: $0.value) }
        if let format = untypeableFormat {
            column.leftOut =
                "a format would hold a character no one types: \(SpecProposal.quoted(ValueShape(format: format).shownFormat))"
        } else if !changed.isEmpty {
            guard column.kind != nil, !isPhone, !faultyFormats.isEmpty, !faultyFormats.contains(0) else {
                column.leftOut = ProposedFormats.meaningChanged(examples)
                return false
            }
            // Formats found in the sample and formats found in every record are said apart,
            // each group with the changes its formats made where they were found. A format taken
            // out hands its values to the next (twelve bare digits go from one extension format
            // to another): the same values, so a change counts the most any of them made.
            if column.takenOut.last?.sampled != sampled {
                column.takenOut.append(ColumnProposal.TakenOut(formats: [], sampled: sampled))
            }
            let group = column.takenOut.count - 1
            column.takenOut[group].formats += faultyFormats.sorted().map { formats[$0] }
            for (change, made) in examples {
                let count = max(column.takenOut[group].changes[change]?.count ?? 0, made.count)
                let example = column.takenOut[group].changes[change]?.example ?? made.example
                column.takenOut[group].changes[change] = .init(count: count, example: example)
            }
            column.formats = formats.indices.filter { !faultyFormats.contains($0) }.map { formats[$0] }
            column.notes.removeAll { $0.hasPrefix("taken out ") }
            for group in column.takenOut {
                let reason = ProposedFormats.meaningChanged(
                    group.changes.mapValues { ($0.count, $0.example) })
                column.notes.append(
                    "taken out \(group.formats.map(SpecProposal.quoted).joined(separator: ", ")): "
                        + (group.sampled ? "in the sample, " : "")
                        + reason.replacing(
                            "its formats would",
                            with: group.formats.count == 1 ? "it would" : "they would"))
            }
            return true
        }
        return false
    }
}
