import MaskEngine

/// Masks the cells of one chunk, for one worker: the engine's reusable buffer, and the chunk's
/// counts per column.
final class CellMasker {
    /// Which added cells a column writes: kept apart from `ColumnSpec`, whose many strings would
    /// be reference-counted on every cell.
    struct Layout {
        var formatted: Bool
        var extracted: Bool
        var status: Bool
        var template: Character?
    }

    let columns: [ColumnSpec]
    let masks: [AffineMask]
    /// `masks` again, unretained: reaching a mask per cell costs no reference counting.
    private let maskReferences: [Unmanaged<AffineMask>]
    let layouts: [Layout]
    let buffer = ApplyBuffer()
    // A masker belongs to one worker; exclusivity is checked statically.
    @exclusivity(unchecked) private(set) var stats: [ColumnStats]

    /// The status column's texts, allocated once and never freed: written for every cell, read by
    /// every worker, changed by none.
    nonisolated(unsafe) private static let statusTexts: [UnsafeBufferPointer<UInt8>] = CellStatus.allCases.map
    {
        let bytes = Array($0.rawValue.utf8)
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = storage.initialize(from: bytes)
        return UnsafeBufferPointer(storage)
    }

    /// The status column's text.
    @inline(__always)
    static func statusText(_ status: CellStatus) -> UnsafeBufferPointer<UInt8> {
        switch status {
        case .complete: return statusTexts[0]
        case .lossy: return statusTexts[1]
        case .incomplete: return statusTexts[2]
        case .empty: return statusTexts[3]
        }
    }

    init(columns: [ColumnSpec]) {
        self.columns = columns
        self.masks = columns.map(\.mask)
        self.maskReferences = masks.map { Unmanaged.passUnretained($0) }
        self.layouts = columns.map {
            Layout(
                formatted: $0.formattedColumn != nil, extracted: $0.extractedColumn != nil,
                status: $0.statusColumn != nil,
                template: $0.templateColumn != nil ? $0.placeholderCharacter : nil)
        }
        self.stats = columns.map { ColumnStats(formats: $0.formats.count) }
    }

    func resetStats() {
        stats = columns.map { ColumnStats(formats: $0.formats.count) }
    }

    /// Masks one non-empty cell of column `column` (an index into `columns`) and counts it.
    /// The formatted and extracted bytes are in `buffer` until the next call.
    func mask(_ value: UnsafeBufferPointer<UInt8>, column: Int, row: Int) -> CellOutcome {
        let buffer = buffer
        let outcome = maskReferences[column]._withUnsafeGuaranteedRef { $0.apply(utf8: value, into: buffer) }
        stats[column].count(
            outcome.status, format: outcome.chosen, dropped: outcome.counts.droppedDataCharacters, row: row
        ) { String(decoding: value, as: UTF8.self) }
        return outcome
    }

    func countEmpty(column: Int, row: Int) {
        stats[column].count(.empty, format: 0, dropped: 0, row: row) { "" }
    }

    /// The template column's text for the cell just masked.
    func template(column: Int, outcome: CellOutcome) -> [UInt8] {
        let spec = columns[column]
        let formatted = String(decoding: buffer.formatted, as: UTF8.self)
        return Array(
            spec.mask.template(formatted: formatted, outcome: outcome, placeholder: spec.placeholderCharacter)
                .utf8)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Valid UTF-8: plain ASCII at once, anything else checked by the standard library.
    var isValidUTF8: Bool {
        var seen: UInt8 = 0
        for byte in self { seen |= byte }
        if seen < 0x80 { return true }
        return String(validating: self, as: UTF8.self) != nil
    }
}
