/// Writes records in the output format: the input's cells, then the added ones.
///
/// A class: it is handed to every cell, and a struct holding arrays would be copied (and its
/// arrays reference-counted) each time. Unchecked: its only mutable-looking state, the quoted
/// names' storage, is written once in `init` and read-only after.
final class RecordEncoder: @unchecked Sendable {
    enum Layout {
        case csv(delimiter: UInt8, terminator: [UInt8])
        /// One object per record; for a JSON array, each record is preceded by
        /// `RecordFraming.arraySeparator`.
        case json(array: Bool)
    }

    let layout: Layout
    let escapeFormulas: Bool
    /// For JSON output: every output column's name as a JSON string followed by `:`, back to
    /// back, name `i` ending at `quotedNameEnds[i]`. Plain memory: reading a name for every
    /// cell must not reference-count an array.
    private let quotedNames: UnsafeMutableBufferPointer<UInt8>
    private let quotedNameEnds: UnsafeMutableBufferPointer<Int>
    // The layout unpacked once: matching its payload for every cell would cost more than the cell.
    let isCSV: Bool
    let delimiter: UInt8
    /// CSV out with no formula escaping: a field that needs no quotes is written as it is.
    let writesPlainCSV: Bool
    /// The CSV record terminator, in plain memory: ending a record must not reach into an array.
    private let terminator: UnsafeMutableBufferPointer<UInt8>

    init(layout: Layout, escapeFormulas: Bool, columnNames: [String]) {
        self.layout = layout
        self.escapeFormulas = escapeFormulas
        var terminatorBytes: [UInt8] = []
        if case .csv(let delimiter, let terminator) = layout {
            self.isCSV = true
            self.delimiter = delimiter
            terminatorBytes = terminator
        } else {
            self.isCSV = false
            self.delimiter = UInt8(ascii: ",")
        }
        writesPlainCSV = isCSV && !escapeFormulas
        terminator = .allocate(capacity: terminatorBytes.count)
        _ = terminator.initialize(from: terminatorBytes)
        var names: [UInt8] = []
        var ends: [Int] = []
        for name in columnNames {
            JSONStringEncoder.appendQuoted(Array(name.utf8), to: &names)
            names.append(UInt8(ascii: ":"))
            ends.append(names.count)
        }
        quotedNames = .allocate(capacity: names.count)
        _ = quotedNames.initialize(from: names)
        quotedNameEnds = .allocate(capacity: ends.count)
        _ = quotedNameEnds.initialize(from: ends)
    }

    deinit {
        quotedNames.deallocate()
        quotedNameEnds.deallocate()
        terminator.deallocate()
    }

    /// The name of output column `column` as a JSON string followed by `:`.
    @inline(__always)
    private func quotedName(_ column: Int) -> UnsafeBufferPointer<UInt8> {
        let start = column == 0 ? 0 : quotedNameEnds[column - 1]
        return UnsafeBufferPointer(rebasing: quotedNames[start..<quotedNameEnds[column]])
    }

    /// Writes a whole record of cells (a CSV header row, for one).
    func record<Sink: ByteSink>(_ cells: [String], to out: inout Sink) {
        beginRecord(&out)
        for (index, cell) in cells.enumerated() {
            self.cell(Array(cell.utf8), outputColumn: index, separator: index > 0, &out)
        }
        endRecord(&out)
    }

    /// Whether a CSV field read with `delimiter` that needs no quoting is written as it was read:
    /// CSV out with the same delimiter, and no formula escaping.
    func writesFieldsAsRead(delimiter: UInt8) -> Bool {
        isCSV && self.delimiter == delimiter && !escapeFormulas
    }

    func beginRecord<Sink: ByteSink>(_ out: inout Sink) {
        if case .json(let array) = layout {
            if array { RecordFraming.arraySeparator.withUnsafeBufferPointer { out.append($0) } }
            out.append(UInt8(ascii: "{"))
        }
    }

    func endRecord<Sink: ByteSink>(_ out: inout Sink) {
        switch layout {
        case .csv: out.append(UnsafeBufferPointer(terminator))
        case .json(let array):
            out.append(UInt8(ascii: "}"))
            if !array { out.append(0x0A) }
        }
    }

    /// Writes a cell of output column `outputColumn`: for JSON, as the member of that column's
    /// name. `separator` puts the
    /// delimiter (or comma) before it: every cell but a record's first.
    @inline(__always)
    func cell<Sink: ByteSink>(
        _ value: UnsafeBufferPointer<UInt8>, outputColumn: Int, separator: Bool, _ out: inout Sink
    ) {
        if isCSV {
            if separator { out.append(delimiter) }
            CSVFieldEncoder.append(value, delimiter: delimiter, escapeFormulas: escapeFormulas, to: &out)
        } else {
            if separator { out.append(UInt8(ascii: ",")) }
            out.append(quotedName(outputColumn))
            let prefix = escapeFormulas && FormulaGuard.isTrigger(value.first) ? FormulaGuard.prefix : nil
            if var buffer = out as? ByteBuffer {
                JSONStringEncoder.appendQuoted(value, prefix: prefix, to: &buffer)
            } else {
                JSONStringEncoder.appendQuoted(value, prefix: prefix, to: &out)
            }
        }
    }

    func cell<Sink: ByteSink>(_ value: [UInt8], outputColumn: Int, separator: Bool, _ out: inout Sink) {
        value.withUnsafeBufferPointer { cell($0, outputColumn: outputColumn, separator: separator, &out) }
    }

    /// Writes a cell known to need no quoting or escaping (a status word).
    @inline(__always)
    func plainCell(
        _ value: UnsafeBufferPointer<UInt8>, outputColumn: Int, separator: Bool, _ out: inout ByteBuffer
    ) {
        if isCSV {
            if separator { out.append(delimiter) }
            out.append(value)
        } else {
            if separator { out.append(UInt8(ascii: ",")) }
            out.append(quotedName(outputColumn))
            out.append(0x22)
            out.append(value)
            out.append(0x22)
        }
    }
}
