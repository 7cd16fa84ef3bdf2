/// Writes records in the output format: the input's cells, then the added ones.
///
/// A class: it is handed to every cell, and a struct holding arrays would be copied (and its
/// arrays reference-counted) each time. Unchecked: its only mutable-looking state, the quoted
/// names' storage, is written once in `init` and read-only after.
final class RecordWriter: @unchecked Sendable {
    enum Layout {
        case csv(delimiter: UInt8, terminator: [UInt8])
        /// One object per record; for a JSON array, each record is preceded by
        /// `RecordFraming.arraySeparator`.
        case json(array: Bool)
        /// Cells for a program, not a file (`RecordCleaner`): each cell its length (4 bytes,
        /// little-endian) then its bytes, each record ended by `CellsLayout.recordEnd`.
        case cells
    }

    let layout: Layout
    let escapeFormulas: Bool
    /// For JSON output: how every output column's member starts, `,"name":"` (the comma for a
    /// member after the first, the value's opening quote), back to back, column `i`'s from
    /// `memberStartOffsets[i]` to `memberStartOffsets[i + 1]`, then `wordSlack` bytes of padding.
    /// One copy per cell where name and quotes were four appends. Plain memory: reading a name
    /// for every cell must not reference-count an array.
    private var memberStarts: UnsafeMutablePointer<UInt8>
    private var memberStartOffsets: UnsafeMutablePointer<Int>
    /// The output columns' names, for JSON output's members.
    private var columnNames: [String]
    /// A name is copied a whole word at a time, reading and writing up to this many bytes past
    /// its end: padding after the names, room made past the output's end.
    private static let wordSlack = 8
    // The layout unpacked once: matching its payload for every cell would cost more than the cell.
    let isCSV: Bool
    let delimiter: UInt8
    /// JSON out (an array or NDJSON); neither this nor `isCSV` for cells.
    let isJSON: Bool
    /// CSV out with no formula escaping: a field that needs no quotes is written as it is.
    let writesPlainCSV: Bool
    /// The CSV record terminator, in plain memory: ending a record must not reach into an array.
    private let terminator: UnsafeMutableBufferPointer<UInt8>
    /// What goes before a JSON record copied as read (`copy`): a JSON array's separator.
    let copiedRecordPrefix: UnsafeMutableBufferPointer<UInt8>
    /// How the records' own fields are written, and whether a record read in the output's own
    /// format is copied as read: set by the run's source before the first record.
    var written = WrittenFields(slots: [], names: [], replacingColumnOfSlot: [], columnCount: 0) {
        didSet {
            writesFieldsOneByOne = !written.slots.isEmpty
            copiesObjects = written.copiesJSON
        }
    }
    var copiesRecords = false
    /// JSON from JSON with nested spec columns: where their cells go in each record.
    var nested: JSONNestedCells?
    /// NDJSON written from a JSON array, whose records may span lines (`joinLines`).
    var joinsLines = false
    /// `written`'s questions asked for every record, answered once.
    private(set) var writesFieldsOneByOne = false
    private(set) var copiesObjects = false

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
        if case .cells = layout { isJSON = false } else { isJSON = !isCSV }
        writesPlainCSV = isCSV && !escapeFormulas
        let prefix = if case .json(array: true) = layout { RecordFraming.arraySeparator } else { [UInt8]() }
        copiedRecordPrefix = .allocate(capacity: prefix.count)
        _ = copiedRecordPrefix.initialize(from: prefix)
        terminator = .allocate(capacity: terminatorBytes.count)
        _ = terminator.initialize(from: terminatorBytes)
        self.columnNames = columnNames
        (memberStarts, memberStartOffsets) = Self.memberStarts(columnNames)
    }

    /// `memberStarts` and `memberStartOffsets` for `columnNames`.
    private static func memberStarts(_ columnNames: [String]) -> (
        UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<Int>
    ) {
        var starts: [UInt8] = []
        var offsets = [0]
        for name in columnNames {
            starts.append(UInt8(ascii: ","))
            JSONStringEncoder.appendQuoted(Array(name.utf8), to: &starts)
            starts += [UInt8(ascii: ":"), 0x22]
            offsets.append(starts.count)
        }
        starts += Array(repeating: 0, count: Self.wordSlack)
        let memberStarts = UnsafeMutablePointer<UInt8>.allocate(capacity: starts.count)
        memberStarts.initialize(from: starts, count: starts.count)
        let memberStartOffsets = UnsafeMutablePointer<Int>.allocate(capacity: offsets.count)
        memberStartOffsets.initialize(from: offsets, count: offsets.count)
        return (memberStarts, memberStartOffsets)
    }

    /// Adds output columns after the others, for JSON members named otherwise than the output's
    /// columns (a nested column's cells inside their object); returns the first one's index.
    /// Before the first record only.
    func appendColumnNames(_ names: [String]) -> Int {
        let first = columnNames.count
        columnNames += names
        memberStarts.deallocate()
        memberStartOffsets.deallocate()
        (memberStarts, memberStartOffsets) = Self.memberStarts(columnNames)
        return first
    }

    deinit {
        memberStarts.deallocate()
        memberStartOffsets.deallocate()
        terminator.deallocate()
        copiedRecordPrefix.deallocate()
    }

    /// How a JSON member of output column `column` starts: `,"name":"`, without the comma for a
    /// record's first.
    @inline(__always)
    private func memberStart(_ column: Int, separator: Bool) -> UnsafeBufferPointer<UInt8> {
        let start = memberStartOffsets[column] + (separator ? 0 : 1)
        return UnsafeBufferPointer(start: memberStarts + start, count: memberStartOffsets[column + 1] - start)
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
        case .cells: CellsLayout.endRecord(&out)
        case .json(let array):
            out.append(UInt8(ascii: "}"))
            if !array { out.append(0x0A) }
        }
    }

    /// Writes a cell of output column `outputColumn`: for JSON, as the member of that column's
    /// name. `separator` puts the
    /// delimiter (or comma) before it: every cell but a record's first.
    @inline(__always)
    func cell(
        _ value: UnsafeBufferPointer<UInt8>, outputColumn: Int, separator: Bool, _ out: inout ByteBuffer
    ) {
        if isCSV {
            if separator { out.append(delimiter) }
            CSVFieldEncoder.append(value, delimiter: delimiter, escapeFormulas: escapeFormulas, to: &out)
        } else {
            addedCell(value, outputColumn: outputColumn, separator: separator, &out)
        }
    }

    /// Writes an added cell: `cell`, for JSON with a value with nothing to escape (most masked
    /// values: digits and punctuation; a status word) copied as it is checked, room made once
    /// for the member.
    func addedCell(
        _ value: UnsafeBufferPointer<UInt8>, outputColumn: Int, separator: Bool, _ out: inout ByteBuffer
    ) {
        if isCSV {
            cell(value, outputColumn: outputColumn, separator: separator, &out)
            return
        }
        if !isJSON {
            CellsLayout.append(value, &out)
            return
        }
        let name = memberStart(outputColumn, separator: separator)
        let formula = escapeFormulas && FormulaGuard.isTrigger(value.first)
        if !formula,
            let written = Self.plainMember(
                name, value, at: out.room(name.count + Self.wordSlack + value.count + 1))
        {
            out.advance(by: written)
            return
        }
        out.append(name)
        if formula { out.append(FormulaGuard.prefix) }
        JSONStringEncoder.appendEscaping(value, to: &out)
        out.append(0x22)
    }

    /// Writes the formatted, extracted and status members of output columns `outputColumn`
    /// onwards, after other members, room made once: the usual JSON column, one call for its
    /// three cells. Returns false, having written nothing, when one needs escaping or a formula
    /// prefix.
    func plainMembers(
        _ formatted: UnsafeBufferPointer<UInt8>, _ extracted: UnsafeBufferPointer<UInt8>,
        _ status: UnsafeBufferPointer<UInt8>, outputColumn: Int, _ out: ByteBuffer
    ) -> Bool {
        guard isJSON && !escapeFormulas else { return false }
        let names = memberStartOffsets[outputColumn + 3] - memberStartOffsets[outputColumn]
        let room = out.room(names + Self.wordSlack + formatted.count + extracted.count + status.count + 3)
        guard let first = Self.plainMember(memberStart(outputColumn, separator: true), formatted, at: room),
            let second = Self.plainMember(
                memberStart(outputColumn + 1, separator: true), extracted, at: room + first),
            let third = Self.plainMember(
                memberStart(outputColumn + 2, separator: true), status, at: room + first + second)
        else { return false }
        out.advance(by: first + second + third)
        return true
    }

    /// Writes a member, `name` (a `memberStart`) then `value` and its closing quote, at `target`,
    /// which has room for them and `wordSlack` bytes more. Returns the bytes written; nil when
    /// the value needs escaping.
    @inline(__always)
    private static func plainMember(
        _ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>,
        at target: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        // Whole words: the names' padding and the room's slack take what is past the end.
        var copied = 0
        repeat {
            UnsafeMutableRawPointer(target + copied).storeBytes(
                of: UnsafeRawPointer(name.baseAddress! + copied).loadUnaligned(as: UInt64.self),
                as: UInt64.self)
            copied += 8
        } while copied < name.count
        guard JSONStringEncoder.copyUnescaped(value, to: target + name.count) else { return nil }
        target[name.count + value.count] = 0x22
        return name.count + value.count + 1
    }

    /// `cell` for a small text (a header row).
    func cell<Sink: ByteSink>(
        _ value: UnsafeBufferPointer<UInt8>, outputColumn: Int, separator: Bool, _ out: inout Sink
    ) {
        if !isCSV && !isJSON {
            CellsLayout.append(value, &out)
        } else if isCSV {
            if separator { out.append(delimiter) }
            CSVFieldEncoder.append(value, delimiter: delimiter, escapeFormulas: escapeFormulas, to: &out)
        } else {
            out.append(memberStart(outputColumn, separator: separator))
            if escapeFormulas && FormulaGuard.isTrigger(value.first) { out.append(FormulaGuard.prefix) }
            JSONStringEncoder.appendEscaping(value, to: &out)
            out.append(0x22)
        }
    }

    func cell<Sink: ByteSink>(_ value: [UInt8], outputColumn: Int, separator: Bool, _ out: inout Sink) {
        value.withUnsafeBufferPointer { cell($0, outputColumn: outputColumn, separator: separator, &out) }
    }
}
