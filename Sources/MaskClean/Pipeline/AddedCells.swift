import MaskEngine

/// Which cells a spec column adds after the record's own, in this order: formatted, extracted,
/// status, template. Kept apart from `ColumnSpec`, whose many strings would be
/// reference-counted on every cell.
struct AddedCells {
    var formatted: Bool
    var extracted: Bool
    var status: Bool
    /// A template column follows (its placeholder is the column spec's).
    var template: Bool
    var replace: Replacement?
    var replaceIncomplete: Bool

    init(_ column: ColumnSpec) {
        formatted = column.formattedColumn != nil
        extracted = column.extractedColumn != nil
        status = column.statusColumn != nil
        template = column.templateColumn != nil
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
    func writeAddedCells(
        _ value: UnsafeBufferPointer<UInt8>, column index: Int, row: Int, outputColumn: Int, separator: Bool,
        encoder: RecordEncoder, to out: inout ByteBuffer
    ) -> Int {
        let added = addedCells[index]
        var status = CellStatus.empty
        var formatted = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var extracted = formatted
        // Plain bytes, not an array: an array here would be released for every cell.
        var template = formatted
        if replaces, let cell = takePremasked(index) {
            // Masked ahead of its record, because its value replaced the input's.
            status = cell.status
            formatted = UnsafeBufferPointer(rebasing: premaskedText[cell.formatted])
            extracted = UnsafeBufferPointer(rebasing: premaskedText[cell.extracted])
            if let text = cell.template { template = keepTemplate(text) }
        } else {
            let value = maskedValue(value, column: index)
            if value.isEmpty {
                countEmpty(column: index, row: row)
            } else {
                let outcome = mask(value, column: index, row: row)
                status = outcome.status
                formatted = buffer.formatted
                extracted = buffer.extracted
                if added.template { template = keepTemplate(self.template(column: index, outcome: outcome)) }
            }
        }
        // Plain code, no local function: one capturing the column would box it on the heap per
        // cell.
        var column = outputColumn
        var separator = separator
        if added.formatted {
            encoder.cell(formatted, outputColumn: column, separator: separator, &out)
            column += 1
            separator = true
        }
        // The extracted and status cells of CSV are written here, not through the encoder: its
        // calls past the first are not inlined into a record's writing, and a call per cell
        // cost more than the cell.
        if added.extracted {
            if separator && encoder.writesPlainCSV
                && !CSVFieldEncoder.needsQuotes(extracted, delimiter: encoder.delimiter)
            {
                out.append(encoder.delimiter, then: extracted)
            } else {
                encoder.cell(extracted, outputColumn: column, separator: separator, &out)
            }
            column += 1
            separator = true
        }
        if added.status {
            if separator && encoder.isCSV {
                out.append(encoder.delimiter, then: Self.statusText(status))
            } else {
                encoder.plainCell(Self.statusText(status), outputColumn: column, separator: separator, &out)
            }
            column += 1
            separator = true
        }
        if added.template {
            encoder.cell(template, outputColumn: column, separator: separator, &out)
            column += 1
        }
        return column
    }
}
