import Dispatch

/// What `describe` keeps of one column of its sample (docs/command-line.md, `describe`): counts,
/// never the cells. Its first `distinctKept` distinct values are counted in memory; of a value
/// beyond them (with `--sample 0`) only its shape and kind are counted here, and it is masked
/// when the input is read again (`SpecProposer.measure`). A column of few distinct values (a code, a state, a date)
/// then costs what its distinct values do, and a column of a million phone numbers no more than
/// its first ten thousand.
struct ColumnTally {
    /// The most distinct values, and the most shapes of the values beyond them, a column counts
    /// in memory: the default sample (10,000 records) always fits.
    static let distinctKept = 10_000

    /// How much a column keeps in memory: `distinctKept` of each by default, less in the tests
    /// that make a small sample take the second reading's way.
    struct Limits: Sendable {
        var distinctValues = ColumnTally.distinctKept
        var shapes = ColumnTally.distinctKept
    }

    /// Non-empty strings and numbers.
    var values = 0
    /// Cells that held a JSON object, array or boolean, which no run masks.
    var unmaskable = 0
    /// Of those, objects: their members are columns of their own, named by their paths.
    var objects = 0
    /// The last record a cell of this column was counted from: a record that names a column
    /// twice (a repeated CSV header name, a repeated JSON key) counts its last cell, as a run
    /// reads it.
    var lastRecord = -1
    /// The first distinct values, each with how many cells hold it.
    var distinct: [String: Int] = [:]
    /// The values beyond them, added up; nil while there are none.
    var beyond: ValueTally?

    /// Counts one non-empty value. Returns false for one that is not among the distinct values
    /// and finds no room there: only its shape and kind are counted.
    mutating func add(_ value: String, _ limits: Limits) -> Bool {
        values += 1
        if distinct.count < limits.distinctValues {
            distinct[value, default: 0] += 1
        } else if let position = distinct.index(forKey: value) {
            distinct.values[position] += 1
        } else {
            if beyond == nil {
                beyond = ValueTally(shapeCap: limits.shapes)
                beyond!.phoneCandidates = phoneCandidates()
            }
            beyond!.add(value, count: 1)
            return false
        }
        return true
    }

    /// Everything the column's values add up to: its distinct values' and those beyond them.
    var summary: ValueTally {
        var summary = ValueTally(shapeCap: .max)
        for (value, count) in distinct { summary.add(value, count: count) }
        if let beyond { summary.merge(beyond) }
        summary.readPhonesNationally(distinct)
        return summary
    }

    /// The `summary` of each of `tallies`, worked out by `workers` threads.
    static func summaries(_ tallies: [ColumnTally], workers: Int) -> [ValueTally] {
        guard workers > 1, tallies.count > 1 else { return tallies.map(\.summary) }
        var summaries = [ValueTally?](repeating: nil, count: tallies.count)
        summaries.withUnsafeMutableBufferPointer { summaries in
            let shared = SummaryTargets(tallies: tallies, summaries: summaries)
            DispatchQueue.concurrentPerform(iterations: tallies.count) { shared.add($0) }
        }
        return summaries.map { $0! }
    }

    /// The regions the values beyond the distinct ones are read under as numbers without a
    /// country code, as they come (`PhoneTally`): those the distinct values call for, with the
    /// regions of numbers with a country code added as they are met; nil when the distinct values
    /// are not phone numbers enough for it to matter.
    private func phoneCandidates() -> [String]? {
        var phones = PhoneTally()
        let readers = PhoneReaders()
        var values = 0
        for (value, count) in distinct {
            values += count
            var value = value
            _ = value.withUTF8 { phones.add($0, count: count, readers: readers) }
        }
        return phones.couldBePhoneColumn(values: values) ? phones.candidates : nil
    }
}

/// A column's values added up: how many there are of each shape and of each kind, and how many
/// are shaped like card numbers but fail the Luhn check. `SpecProposer.propose` judges a column
/// from this alone.
struct ValueTally {
    /// Values added.
    var values = 0
    /// How many values have each shape, keyed by the shape's format (which names one shape).
    var shapes: [String: Int] = [:]
    /// Values whose shape found no room among `shapeCap` shapes, and how many of them have a
    /// word or something else than digits: a column of so many shapes is not proposed from
    /// them, but still says what it holds.
    var otherShapes = 0
    var otherShapesWithWords = 0
    var otherShapesNotDigitsOnly = 0
    /// Each kind's values, in `ValueKind.allCases` order.
    var kinds = ValueKind.allCases.map { KindTally(kind: $0) }
    var failingLuhn = 0
    /// The values read as phone numbers, and the regions the numbers without a country code are
    /// read under as they come (nil: after all of them, by `readPhonesNationally`).
    var phones = PhoneTally()
    var phoneCandidates: [String]?
    let phoneReaders = PhoneReaders()
    /// Values with a character no one types (`ValueShape.isTypeable`): their shapes make no
    /// format (free text and numbers still count them), so that they count against the column.
    /// A kind takes only what it recognises, whitespace around it trimmed.
    var untypeable = 0
    /// The distinct values and their counts while there are at most `fewValues` of them (an
    /// enumeration, a flag, a constant); nil once there are more.
    var few: [String: Int]? = [:]
    /// Values with a word in lower case: three letters or more, one of them lower case
    /// (`Smith`, `Staten Island`, `https`), where a code is in capitals (`USD`, `NY`).
    var lowercaseWords = 0
    let shapeCap: Int

    init(shapeCap: Int) {
        self.shapeCap = shapeCap
    }

    /// Adds `count` values equal to `value`.
    mutating func add(_ value: String, count: Int) {
        values += count
        if !ValueShape.isTypeable(value) { untypeable += count }
        if few != nil {
            few![value, default: 0] += count
            if few!.count > LeftOutReasons.fewValues { few = nil }
        }
        if LeftOutReasons.hasLowercaseWord(value) { lowercaseWords += count }
        let format = ValueShape.asciiFormat(value) ?? ValueShape(value).format
        if shapes.count < shapeCap {
            shapes[format, default: 0] += count
        } else if let position = shapes.index(forKey: format) {
            shapes.values[position] += count
        } else {
            let shape = ValueShape(value)
            otherShapes += count
            if shape.hasLetterRun(of: 3) { otherShapesWithWords += count }
            if !shape.isDigitsOnly { otherShapesNotDigitsOnly += count }
        }
        let trimmed = ValueKind.trimmed(value)
        let bytes = ValueKind.trimmedBytes(trimmed)
        for index in kinds.indices {
            if let match = kinds[index].kind.match(trimmed: trimmed, bytes: bytes) {
                kinds[index].add(match, count: count)
            }
        }
        if ValueKind.failsLuhn(trimmed: trimmed) { failingLuhn += count }
        var text = value
        text.withUTF8 { bytes in
            let before = phones.regions.count
            let shape = phones.add(bytes, count: count, readers: phoneReaders)
            guard var candidates = phoneCandidates else { return }
            if phones.regions.count > before {
                candidates += phones.regions.keys.filter {
                    NumberingPlan.isRegion($0) && !candidates.contains($0)
                }
                phoneCandidates = candidates
            }
            if let shape {
                phones.addNational(bytes, shape, count: count, candidates: candidates, readers: phoneReaders)
            }
        }
    }

    /// Reads the numbers without a country code among `distinct` (the values counted in memory)
    /// under every candidate region, once the regions of the column's numbers with one are all
    /// known: only when a phone column could come of it, and no card, date or ZIP code column
    /// (which wins over it) does.
    mutating func readPhonesNationally(_ distinct: [String: Int]) {
        guard phones.national > 0, phones.couldBePhoneColumn(values: values),
            !kinds.contains(where: { $0.kind != .phone && !$0.kind.needsName && $0.count * 2 >= values })
        else { return }
        let candidates = phones.candidates
        for (value, count) in distinct {
            var value = value
            value.withUTF8 { bytes in
                guard let shape = PhoneShape(bytes),
                    PhoneTally.internationalRegion(bytes, phoneReaders) == nil
                else { return }
                phones.addNational(bytes, shape, count: count, candidates: candidates, readers: phoneReaders)
            }
        }
    }

    mutating func merge(_ other: ValueTally) {
        values += other.values
        shapes.merge(other.shapes, uniquingKeysWith: +)
        otherShapes += other.otherShapes
        otherShapesWithWords += other.otherShapesWithWords
        otherShapesNotDigitsOnly += other.otherShapesNotDigitsOnly
        for index in kinds.indices { kinds[index].merge(other.kinds[index]) }
        failingLuhn += other.failingLuhn
        phones.merge(other.phones)
        untypeable += other.untypeable
        lowercaseWords += other.lowercaseWords
        if let theirs = other.few, let ours = few {
            let both = ours.merging(theirs, uniquingKeysWith: +)
            few = both.count > LeftOutReasons.fewValues ? nil : both
        } else {
            few = nil
        }
    }
}

/// Where each thread of `ColumnTally.summaries` writes: its own element, and no other.
private struct SummaryTargets: @unchecked Sendable {
    let tallies: [ColumnTally]
    let summaries: UnsafeMutableBufferPointer<ValueTally?>

    func add(_ index: Int) { summaries[index] = tallies[index].summary }
}
