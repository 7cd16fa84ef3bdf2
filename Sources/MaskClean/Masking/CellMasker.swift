import MaskEngine

/// Masks the cells of one chunk, for one worker: the engine's reusable buffer, and the chunk's
/// counts per column.
final class CellMasker {
    /// A cell masked ahead of its record's writing, because its value replaces the input's: what
    /// its added cells need, kept until they are written.
    struct Premasked {
        var status: CellStatus
        var formatted: Range<Int>
        var extracted: Range<Int>
        var normalized: Range<Int>
        var template: [UInt8]?
        /// A phone column's detected region (empty for other columns).
        var country: Range<Int> = 0..<0
    }

    /// One phone cell read (`maskPhone`): its values, valid until the column's next cell.
    struct PhoneCell {
        var status: CellStatus
        var formatted: UnsafeBufferPointer<UInt8>
        /// The E.164 form.
        var extracted: UnsafeBufferPointer<UInt8>
        /// The detected region (alpha-2), or empty.
        var country: UnsafeBufferPointer<UInt8>
    }

    /// One masked cell: its status (with the column's check) and its values, valid until the next
    /// cell is masked.
    struct MaskedCell {
        var outcome: CellOutcome
        var status: CellStatus
        var formatted: UnsafeBufferPointer<UInt8>
        var extracted: UnsafeBufferPointer<UInt8>
        /// The check's canonical form; empty unless the cell is complete and the check has one.
        var normalized: UnsafeBufferPointer<UInt8>
    }

    let columns: [ColumnSpec]
    let masks: [AffineMask]
    /// `masks` again, unretained: reaching a mask per cell costs no reference counting.
    private let maskReferences: [Unmanaged<AffineMask>]
    let addedCells: [AddedCells]
    let buffer = ApplyBuffer()
    /// Whether a column writes into its input column: its cell is masked before the record.
    let replaces: Bool
    /// Each column's `trim`, apart from `addedCells`, as it is read for every cell.
    private let trims: [Bool]
    /// Each column's check, case and ignored characters (`CellRules`); nil for a column that has
    /// none, whose cells take the plain path.
    private let rules: [CellRules?]
    /// `rules` again, unretained, as `maskReferences` are.
    private let ruleReferences: [Unmanaged<CellRules>?]
    /// Whether a column has rules, without touching `rules`' references: a phone column counts
    /// as one, so that its cells stay off the plain path too.
    let hasRules: [Bool]
    /// Each phone column's reader (`kind: phone`); nil for a column of formats.
    private let phoneReaders: [PhoneReader?]
    /// Whether each column is a phone column.
    let isPhone: [Bool]
    /// What a phone cell's `MaskedCell` carries as its engine outcome (`maskAnyColumn`): a
    /// phone column has no format, and nothing reads it.
    private let phoneOutcome: CellOutcome?
    /// The current record's premasked cells, by column, and the bytes they point into.
    @exclusivity(unchecked) private var premasked: [Premasked?]
    private let premaskedBytes = ByteBuffer()
    /// The template cell's text for the cell being written.
    private let templateBytes = ByteBuffer()
    /// A value without its ignored characters, the case-converted values and the normalized
    /// value of the cell being masked (`maskWithRules`).
    private let ignoredBytes = ByteBuffer()
    private let caseBytes = ByteBuffer()
    private let normalizedBytes = ByteBuffer()
    /// The chunk's counts per column, in plain memory: counting a cell must not check an array
    /// for uniqueness. A masker belongs to one worker.
    private let columnStats: UnsafeMutableBufferPointer<ColumnStats>

    /// The chunk's counts per column so far.
    var stats: [ColumnStats] { Array(columnStats) }

    /// The status column's text: static text, reached without a lazily made global.
    @inline(__always)
    static func statusText(_ status: CellStatus) -> UnsafeBufferPointer<UInt8> {
        let text: StaticString
        switch status {
        case .complete: text = "complete"
        case .lossy: text = "lossy"
        case .incomplete: text = "incomplete"
        case .empty: text = "empty"
        case .invalid: text = "invalid"
        }
        return UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    init(columns: [ColumnSpec]) {
        self.columns = columns
        self.masks = columns.map(\.mask)
        self.maskReferences = masks.map { Unmanaged.passUnretained($0) }
        self.addedCells = columns.map(AddedCells.init)
        self.columnStats = .allocate(capacity: columns.count)
        _ = columnStats.initialize(from: columns.map(ColumnStats.init(column:)))
        self.replaces = columns.contains { $0.replace != nil }
        self.trims = columns.map(\.trim)
        self.rules = columns.map(CellRules.init)
        self.ruleReferences = rules.map { $0.map { Unmanaged.passUnretained($0) } }
        self.phoneReaders = columns.map { $0.phone.map(PhoneReader.init) }
        self.isPhone = columns.map { $0.phone != nil }
        self.hasRules = zip(rules, isPhone).map { $0 != nil || $1 }
        self.phoneOutcome = columns.first { $0.phone != nil }.map {
            $0.mask.apply(utf8: UnsafeBufferPointer(start: nil, count: 0), into: ApplyBuffer())
        }
        self.premasked = Array(repeating: nil, count: columns.count)
    }

    deinit {
        columnStats.deinitialize()
        columnStats.deallocate()
    }

    func resetStats() {
        for (index, column) in columns.enumerated() { columnStats[index] = ColumnStats(column: column) }
    }

    /// Masks one non-empty cell of column `column` (an index into `columns`) and counts it.
    /// The formatted and extracted bytes are in `buffer` until the next call. Inline: as a call,
    /// the engine's outcome was copied out through memory once more for every cell.
    @inline(__always)
    func mask(_ value: UnsafeBufferPointer<UInt8>, column: Int, row: Int) -> MaskedCell {
        let buffer = buffer
        let outcome = maskReferences[column]._withUnsafeGuaranteedRef { $0.apply(utf8: value, into: buffer) }
        columnStats[column].count(
            outcome.status, format: outcome.chosen, dropped: outcome.counts.droppedDataCharacters, row: row,
            value: value
        ) { row in
            sample(
                row, value, formatted: buffer.formatted, column: column, format: outcome.chosen,
                outcome.status)
        }
        return MaskedCell(
            outcome: outcome, status: outcome.status, formatted: buffer.formatted,
            extracted: buffer.extracted,
            normalized: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// Masks a cell of any column, with its rules if it has some, or reads it as a phone number
    /// (with the record's `regionColumn` cell, if any): for `describe`; a record's cells take
    /// `writeAddedCells` or `writePhoneCells`.
    func maskAnyColumn(
        _ value: UnsafeBufferPointer<UInt8>, column: Int, row: Int, region: UnsafeBufferPointer<UInt8>? = nil
    ) -> MaskedCell {
        guard hasRules[column] else { return mask(value, column: column, row: row) }
        guard isPhone[column] else { return maskWithRules(value, column: column, row: row) }
        let cell = maskPhone(value, region: region, column: column, row: row)
        return MaskedCell(
            outcome: phoneOutcome!, status: cell.status, formatted: cell.formatted, extracted: cell.extracted,
            normalized: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// Reads a non-empty cell of phone column `column` with its reader, and counts it: the
    /// region is the record's `regionColumn` cell (nil without one). Out of line, as
    /// `maskWithRules` is: the plain columns' path stays as it was.
    @inline(never)
    func maskPhone(
        _ value: UnsafeBufferPointer<UInt8>, region: UnsafeBufferPointer<UInt8>?, column: Int, row: Int
    )
        -> PhoneCell
    {
        let reading = phoneReaders[column]!.read(value, region: region.map(UnicodeWhiteSpace.trimmed))
        columnStats[column].count(
            reading.status, format: 0, dropped: reading.droppedCharacters, row: row, value: value
        ) { row in
            sample(row, value, formatted: reading.formatted, column: column, format: nil, reading.status)
        }
        columnStats[column].countCountry(reading.region)
        return PhoneCell(
            status: reading.status, formatted: reading.formatted, extracted: reading.e164,
            country: reading.region)
    }

    /// `mask` for a column with a check, a case or characters to ignore (docs/cell-status.md):
    /// the ignored characters are taken out, the value is masked, its letters are put in the
    /// column's case, and a value that fits a format but fails the check is invalid. Out of line:
    /// the plain columns' path stays as small as it was.
    @inline(never)
    func maskWithRules(_ value: UnsafeBufferPointer<UInt8>, column: Int, row: Int) -> MaskedCell {
        // The rules and the mask borrowed, not retained; the cell is assigned in the closures, not
        // returned from them: a closure's result of a cell's size is copied through a generic
        // value witness, a memcpy per cell.
        var cell: MaskedCell?
        ruleReferences[column]!._withUnsafeGuaranteedRef { rules in
            maskReferences[column]._withUnsafeGuaranteedRef { mask in
                cell = maskWithRules(value, column: column, row: row, rules, mask)
            }
        }
        return cell!
    }

    private func maskWithRules(
        _ value: UnsafeBufferPointer<UInt8>, column: Int, row: Int, _ rules: CellRules, _ mask: AffineMask
    ) -> MaskedCell {
        let buffer = buffer
        let masked = rules.ignored.isEmpty ? value : rules.removeIgnored(from: value, into: ignoredBytes)
        var cell = judged(mask.apply(utf8: masked, into: buffer), rules, fits: nil)
        if cell.status == .invalid && rules.checkChoosesFormat {
            // `bestStatus` ranks an invalid value below a valid one of the same shape: the first
            // other format under which the value fits as well and passes is chosen instead
            // (docs/cell-status.md#checks). Only cells that fail pay for it.
            let fits = cell.outcome.status
            for format in mask.masks.indices where format != cell.outcome.chosen {
                let trial = mask.apply(utf8: masked, format: format, into: buffer)
                guard trial.status == fits else { continue }
                let other = judged(trial, rules, fits: fits)
                if other.status == fits {
                    cell = other
                    break
                }
            }
            if cell.status == .invalid {
                // None passes: the chosen format's values are written, as the strategy chose.
                cell = judged(
                    mask.apply(utf8: masked, format: cell.outcome.chosen, into: buffer), rules, fits: fits)
            }
        }
        columnStats[column].count(
            cell.status, format: cell.outcome.chosen, dropped: cell.outcome.counts.droppedDataCharacters,
            row: row, value: value
        ) { row in
            sample(
                row, value, formatted: cell.formatted, column: column, format: cell.outcome.chosen,
                cell.status,
                masked: masked)
        }
        return cell
    }

    /// The cell `outcome` gives (its values in `buffer`), in the column's case, judged by its
    /// check when its status is `fits` (nil: complete or lossy).
    private func judged(_ outcome: CellOutcome, _ rules: CellRules, fits: CellStatus?) -> MaskedCell {
        var formatted = buffer.formatted
        var extracted = buffer.extracted
        if rules.letterCase != .keep {
            caseBytes.truncate(to: 0)
            rules.letterCase.convert(formatted, into: caseBytes)
            let middle = caseBytes.count
            rules.letterCase.convert(extracted, into: caseBytes)
            formatted = UnsafeBufferPointer(rebasing: caseBytes.bytes[..<middle])
            extracted = UnsafeBufferPointer(rebasing: caseBytes.bytes[middle...])
        }
        var status = outcome.status
        var normalized = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        if let checkName = rules.checkName,
            fits.map({ $0 == status }) ?? (status == .complete || status == .lossy)
        {
            normalizedBytes.truncate(to: 0)
            let wantsNormalized = status == .complete && rules.normalizes
            if !ColumnCheck.passes(
                checkName, dateLayouts: rules.dateLayouts, luhnPrefix: rules.luhnPrefix,
                keepsSeparators: rules.keepsSeparators, formatted: formatted,
                extracted: extracted, format: outcome.chosen,
                normalized: wantsNormalized ? normalizedBytes : nil)
            {
                status = .invalid
            } else if wantsNormalized {
                normalized = normalizedBytes.bytes
            }
        }
        return MaskedCell(
            outcome: outcome, status: status, formatted: formatted, extracted: extracted,
            normalized: normalized)
    }

    func countEmpty(column: Int, row: Int) {
        columnStats[column].count(
            .empty, format: 0, dropped: 0, row: row, value: UnsafeBufferPointer(start: nil, count: 0)
        ) { Sample(row: $0, value: "") }
    }

    /// The values of the current record's `key` columns (`Spec.key`), set by the masking stage
    /// for each record when the spec has a key: each sample carries them.
    var currentKey: [UnsafeBufferPointer<UInt8>] = []

    /// A cell as a sample: its value and formatted value (each cut as `Sample.shown` cuts), the
    /// record's key, and for a lossy cell of a column of formats the characters its format
    /// dropped, found by applying the format again on the slow path, which keeps them: only the
    /// few cells kept as samples pay for it. `masked` is what the format was applied to (the
    /// value without its ignored characters), when that is not the value.
    @inline(never)
    private func sample(
        _ row: Int, _ value: UnsafeBufferPointer<UInt8>, formatted: UnsafeBufferPointer<UInt8>, column: Int,
        format: Int?, _ status: CellStatus, masked: UnsafeBufferPointer<UInt8>? = nil
    ) -> Sample {
        var dropped: String?
        if status == .lossy, let format {
            let mask = masks[column]
            dropped = Sample.shown(
                mask.masks[format].apply(
                    String(decoding: masked ?? value, as: UTF8.self), autocomplete: mask.autocomplete
                )
                .dropped)
        }
        return Sample(
            row: row, value: Sample.shown(value), key: currentKey.map { Sample.shown($0) },
            formatted: Sample.shown(formatted), dropped: dropped)
    }

    /// The value masking sees: with `trim`, without leading and trailing white space.
    @inline(__always)
    func maskedValue(_ value: UnsafeBufferPointer<UInt8>, column: Int) -> UnsafeBufferPointer<UInt8> {
        trims[column] ? UnicodeWhiteSpace.trimmed(value) : value
    }

    /// Masks the cell of a column that replaces its input, ahead of the record: counts it, and
    /// keeps its outcome for `writeAddedCells`. Returns where, in `withPremaskedBytes`, lies what
    /// goes into the input column; nil when the input stays (an empty cell, or one not complete
    /// without `replaceIncomplete`).
    func premask(
        _ value: UnsafeBufferPointer<UInt8>, column: Int, row: Int, region: UnsafeBufferPointer<UInt8>? = nil
    ) -> Range<Int>? {
        let value = maskedValue(value, column: column)
        if isPhone[column] { return premaskPhone(value, column: column, row: row, region: region) }
        guard !value.isEmpty else {
            countEmpty(column: column, row: row)
            premasked[column] = Premasked(
                status: .empty, formatted: 0..<0, extracted: 0..<0, normalized: 0..<0, template: nil)
            return nil
        }
        let cell = maskAnyColumn(value, column: column, row: row)
        let start = premaskedBytes.count
        premaskedBytes.append(cell.formatted)
        let middle = premaskedBytes.count
        premaskedBytes.append(cell.extracted)
        let end = premaskedBytes.count
        premaskedBytes.append(cell.normalized)
        let added = addedCells[column]
        premasked[column] = Premasked(
            status: cell.status, formatted: start..<middle, extracted: middle..<end,
            normalized: end..<premaskedBytes.count,
            template: added.template ? template(column: column, cell: cell) : nil)
        guard let replace = added.replace, cell.status == .complete || added.replaceIncomplete else {
            return nil
        }
        switch replace {
        case .formatted: return start..<middle
        case .extracted: return middle..<end
        case .normalized: return end..<premaskedBytes.count
        }
    }

    /// `premask` for a phone column: the formatted value or the E.164 one replaces the input.
    @inline(never)
    private func premaskPhone(
        _ value: UnsafeBufferPointer<UInt8>, column: Int, row: Int, region: UnsafeBufferPointer<UInt8>?
    ) -> Range<Int>? {
        guard !value.isEmpty else {
            countEmpty(column: column, row: row)
            premasked[column] = Premasked(
                status: .empty, formatted: 0..<0, extracted: 0..<0, normalized: 0..<0, template: nil)
            return nil
        }
        let cell = maskPhone(value, region: region, column: column, row: row)
        let start = premaskedBytes.count
        premaskedBytes.append(cell.formatted)
        let middle = premaskedBytes.count
        premaskedBytes.append(cell.extracted)
        let end = premaskedBytes.count
        premaskedBytes.append(cell.country)
        premasked[column] = Premasked(
            status: cell.status, formatted: start..<middle, extracted: middle..<end, normalized: end..<end,
            template: nil, country: end..<premaskedBytes.count)
        let added = addedCells[column]
        guard let replace = added.replace, cell.status == .complete || added.replaceIncomplete,
            !cell.formatted.isEmpty
        else { return nil }
        return replace == .extracted ? middle..<end : start..<middle
    }

    /// The premasked cell of `column`, once: writing its added cells uses it up.
    func takePremasked(_ column: Int) -> Premasked? {
        defer { premasked[column] = nil }
        return premasked[column]
    }

    /// The bytes premasked cells point into, valid until the record's next premasked cell.
    var premaskedText: UnsafeBufferPointer<UInt8> { premaskedBytes.bytes }

    func withPremaskedBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(premaskedBytes.bytes)
    }

    /// Forgets the record's premasked cells.
    func endPremaskedRecord() {
        for index in premasked.indices { premasked[index] = nil }
        premaskedBytes.truncate(to: 0)
    }

    /// Keeps `text` as the template cell's text until the next cell's.
    func keepTemplate(_ text: [UInt8]) -> UnsafeBufferPointer<UInt8> {
        templateBytes.truncate(to: 0)
        templateBytes.append(text)
        return templateBytes.bytes
    }

    /// The template column's text for the cell just masked.
    func template(column: Int, cell: MaskedCell) -> [UInt8] {
        let spec = columns[column]
        let formatted = String(decoding: cell.formatted, as: UTF8.self)
        return Array(
            spec.mask.template(
                formatted: formatted, outcome: cell.outcome, placeholder: spec.placeholderCharacter
            )
            .utf8)
    }
}

/// Unicode's White_Space characters at the ends of a value, as `trim` removes them.
enum UnicodeWhiteSpace {
    /// `value` without leading and trailing white space; the same bytes, no copy.
    static func trimmed(_ value: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = value.count
        while start < end, let length = length(value, at: start) { start += length }
        while start < end, let length = lengthEnding(value, at: end) { end -= length }
        return UnsafeBufferPointer(rebasing: value[start..<end])
    }

    /// The length of the white-space character starting at `index`, if one does.
    private static func length(_ value: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        for length in 1...3 where index + length <= value.count {
            if isWhiteSpace(UnsafeBufferPointer(rebasing: value[index..<(index + length)])) { return length }
        }
        return nil
    }

    /// The length of the white-space character ending just before `end`, if one does.
    private static func lengthEnding(_ value: UnsafeBufferPointer<UInt8>, at end: Int) -> Int? {
        for length in 1...3 where end - length >= 0 {
            if isWhiteSpace(UnsafeBufferPointer(rebasing: value[(end - length)..<end])) { return length }
        }
        return nil
    }

    /// U+0009–000D, U+0020, U+0085, U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F,
    /// U+205F, U+3000, as UTF-8.
    private static func isWhiteSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch bytes.count {
        case 1: return bytes[0] == 0x20 || (0x09...0x0D).contains(bytes[0])
        case 2: return bytes[0] == 0xC2 && (bytes[1] == 0x85 || bytes[1] == 0xA0)
        case 3:
            switch (bytes[0], bytes[1], bytes[2]) {
            case (0xE1, 0x9A, 0x80), (0xE2, 0x81, 0x9F), (0xE3, 0x80, 0x80): return true
            case (0xE2, 0x80, let last):
                return (0x80...0x8A).contains(last) || [0xA8, 0xA9, 0xAF].contains(last)
            default: return false
            }
        default: return false
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Valid UTF-8: plain ASCII at once, anything else checked by the standard library.
    var isValidUTF8: Bool {
        isASCII || String(validating: self, as: UTF8.self) != nil
    }

    /// No byte of 0x80 or above: eight bytes at a time, the last word ending with the value (it
    /// may read some bytes twice), as every masked cell is checked.
    @inline(__always)
    var isASCII: Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        guard count >= 8 else {
            guard count >= 4 else {
                var seen: UInt8 = 0
                for index in 0..<count { seen |= base[index] }
                return seen < 0x80
            }
            let words =
                raw.loadUnaligned(as: UInt32.self)
                | raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return words & 0x8080_8080 == 0
        }
        var seen = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        var index = 0
        while index + 8 < count {
            seen |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        return seen & ByteSearch.highs == 0
    }
}
