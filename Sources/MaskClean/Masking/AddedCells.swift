import MaskEngine

/// Which cells a spec column adds after the record's own, in this order: formatted, extracted,
/// status, template, normalized, country (a phone column's). Kept apart from `ColumnSpec`, whose
/// many strings would be reference-counted on every cell.
struct AddedCells {
    var formatted: Bool
    var extracted: Bool
    var status: Bool
    /// A template column follows (its placeholder is the column spec's).
    var template: Bool
    /// A normalized column follows the template's place.
    var normalized: Bool
    /// A phone column's country column follows its status.
    var country: Bool
    var replace: Replacement?
    var replaceIncomplete: Bool

    init(_ column: ColumnSpec) {
        formatted = column.formattedColumn != nil
        extracted = column.extractedColumn != nil
        status = column.statusColumn != nil
        template = column.templateColumn != nil
        normalized = column.normalizedColumn != nil
        country = column.countryColumn != nil
        replace = column.replace
        replaceIncomplete = column.replaceIncomplete
    }
}

extension CellMasker {
    /// Masks the cell of spec column `index` (or counts it empty) and writes its added cells,
    /// the first as output column `outputColumn`. `separator`: the record already has cells.
    /// Returns the output column after them.
    ///
    /// One sequence of writes for every cell, inline: a shared writer function called per cell
    /// cost 2% of a run in calls and arguments.
    @inline(__always)
    func writeAddedCells<Cells: ColumnCells>(
        _ value: UnsafeBufferPointer<UInt8>, column index: Int, row: Int, outputColumn: Int, separator: Bool,
        writer: RecordWriter, to out: inout ByteBuffer, _: Cells.Type
    ) -> Int {
        let added = addedCells[index]
        var status = CellStatus.empty
        var formatted = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var extracted = formatted
        var normalized = formatted
        // Plain bytes, not an array: an array here would be released for every cell.
        var template = formatted
        if replaces, let cell = takePremasked(index) {
            // Masked ahead of its record, because its value replaced the input's.
            status = cell.status
            formatted = UnsafeBufferPointer(rebasing: premaskedText[cell.formatted])
            extracted = UnsafeBufferPointer(rebasing: premaskedText[cell.extracted])
            normalized = UnsafeBufferPointer(rebasing: premaskedText[cell.normalized])
            if let text = cell.template { template = keepTemplate(text) }
        } else {
            let value = maskedValue(value, column: index)
            if value.isEmpty {
                countEmpty(column: index, row: row)
            } else {
                let cell =
                    Cells.haveRules
                    ? maskWithRules(value, column: index, row: row) : mask(value, column: index, row: row)
                status = cell.status
                formatted = cell.formatted
                extracted = cell.extracted
                normalized = cell.normalized
                if added.template { template = keepTemplate(self.template(column: index, cell: cell)) }
            }
        }
        // Plain code, no local function: one capturing the column would box it on the heap per
        // cell.
        let statusText = Self.statusText(status)
        // The usual column: a formatted, an extracted and a status cell, after other cells.
        let usual = separator && added.formatted && added.extracted && added.status
        var written = 0
        if usual && writer.writesPlainCSV
            && !CSVFieldEncoder.needsQuotes(formatted, delimiter: writer.delimiter)
            && !CSVFieldEncoder.needsQuotes(extracted, delimiter: writer.delimiter)
        {
            // The usual CSV column's cells, none needing quotes: copied here, room made once,
            // not through the writer, whose calls are not inlined into a record's writing (a
            // call per cell cost more than the cell).
            let delimiter = writer.delimiter
            out.reserve(3 + formatted.count + extracted.count + statusText.count)
            out.appendInRoom(delimiter)
            out.appendInRoom(formatted)
            out.appendInRoom(delimiter)
            out.appendInRoom(extracted)
            out.appendInRoom(delimiter)
            out.appendInRoom(statusText)
            written = 3
        } else if usual && !writer.isCSV
            && writer.plainMembers(formatted, extracted, statusText, outputColumn: outputColumn, out)
        {
            written = 3
        }
        if written == 3 && !added.template && !added.normalized { return outputColumn + 3 }
        if Cells.haveRules && written == 3 && !added.template && writer.writesPlainCSV
            && !CSVFieldEncoder.needsQuotes(normalized, delimiter: writer.delimiter)
        {
            // A checked column's normalized cell, after the usual three, copied the same way.
            out.reserve(1 + normalized.count)
            out.appendInRoom(writer.delimiter)
            out.appendInRoom(normalized)
            return outputColumn + 4
        }
        var column = outputColumn + written
        var separator = separator || written > 0
        // The cells left, one call each, in their order: formatted, extracted, status, template,
        // normalized.
        for cell in written..<5 {
            let (present, value) =
                switch cell {
                case 0: (added.formatted, formatted)
                case 1: (added.extracted, extracted)
                case 2: (added.status, statusText)
                case 3: (added.template, template)
                default: (added.normalized, normalized)
                }
            guard present else { continue }
            writer.addedCell(value, outputColumn: column, separator: separator, &out)
            column += 1
            separator = true
        }
        return column
    }
}

extension CellMasker {
    /// `writeAddedCells` for a phone column (`kind: phone`): reads the cell with the record's
    /// region (nil without a `regionColumn`), or takes it premasked, and writes its formatted,
    /// E.164, status and country cells, each present one in turn. Out of line: the plain
    /// columns' copy of `writeAddedCells` never meets it.
    @inline(never)
    func writePhoneCells(
        _ value: UnsafeBufferPointer<UInt8>, region: UnsafeBufferPointer<UInt8>?, column index: Int, row: Int,
        outputColumn: Int, separator: Bool, writer: RecordWriter, to out: inout ByteBuffer
    ) -> Int {
        let added = addedCells[index]
        var status = CellStatus.empty
        var formatted = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var extracted = formatted
        var country = formatted
        if replaces, let cell = takePremasked(index) {
            status = cell.status
            formatted = UnsafeBufferPointer(rebasing: premaskedText[cell.formatted])
            extracted = UnsafeBufferPointer(rebasing: premaskedText[cell.extracted])
            country = UnsafeBufferPointer(rebasing: premaskedText[cell.country])
        } else {
            let value = maskedValue(value, column: index)
            if value.isEmpty {
                countEmpty(column: index, row: row)
            } else {
                let cell = maskPhone(value, region: region, column: index, row: row)
                (status, formatted, extracted, country) = (
                    cell.status, cell.formatted, cell.extracted, cell.country
                )
            }
        }
        var column = outputColumn
        var separator = separator
        // One call each, in their order; no array of the cells, which would be allocated per cell.
        for cell in 0..<4 {
            let (present, text) =
                switch cell {
                case 0: (added.formatted, formatted)
                case 1: (added.extracted, extracted)
                case 2: (added.status, Self.statusText(status))
                default: (added.country, country)
                }
            guard present else { continue }
            writer.addedCell(text, outputColumn: column, separator: separator, &out)
            column += 1
            separator = true
        }
        return column
    }
}

/// Which cells `writeAddedCells` writes, as a type: each kind gets its own copy of it, compiled
/// with its answer. The plain columns' copy then has no call to `maskWithRules`, whose mere
/// presence cost 2% of a run in the registers it took from every cell.
protocol ColumnCells {
    static var haveRules: Bool { get }
}

/// A column without a check, a case or characters to ignore.
enum PlainCells: ColumnCells {
    static var haveRules: Bool { false }
}

/// A column with rules (`CellRules`).
enum CellsWithRules: ColumnCells {
    static var haveRules: Bool { true }
}
