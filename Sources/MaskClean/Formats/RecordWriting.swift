/// How a writer writes a record's own fields, before its added cells: which batch slots, in
/// which order, and which of them a spec column replaces.
struct WrittenFields: Sendable {
    /// The batch slots written as the record's own cells, in output order.
    var slots: [Int]
    /// Their names, for messages (a CSV header's, a JSON record's keys).
    var names: [String]
    /// For each slot, the spec column whose value replaces it, or -1.
    var replacingColumnOfSlot: [Int]
    /// The record's own output columns: `slots.count`, or the input's when records are copied
    /// whole and no slot is asked for.
    var columnCount: Int
    /// The batch's records are CSV with the output's delimiter: a field may be copied as read.
    var copiesCSV = false
    /// The batch's records are JSON objects, and so are the output's: each is copied as read
    /// (`writeObject`), and a replaced value is found through its spec column's slot.
    var copiesJSON = false
    var slotOfColumn: [Int] = []
}

extension RecordWriter {
    /// What makes `record` impossible to write in the output format, if anything: a JSON string
    /// holds only UTF-8, and CSV cannot carry a NUL (maskclean's own reader refuses one), which a
    /// JSON string may decode to.
    @inline(__always)
    func problem(_ record: RecordBatch.Record, _ batch: RecordBatch) -> RecordProblem? {
        guard writesFieldsOneByOne else { return nil }
        for (index, slot) in written.slots.enumerated() {
            let field = batch.fields[record.firstField + slot]
            if isCSV {
                if field.isDecoded && batch.text(of: field).contains(0) {
                    return .nulForCSV(key: written.names[index])
                }
            } else if !batch.text(of: field).isValidUTF8 {
                return .invalidUTF8ForJSON(column: written.names[index])
            }
        }
        return nil
    }

    /// Writes a record read in the output's own format, nothing of it replaced or guarded, as
    /// it was read (`content`: a CSV record without its line end, a JSON object without its
    /// closing brace): one copy, quotes and all (docs/record-formats.md). Returns what
    /// `writeFields` returns.
    @inline(__always)
    func copy(_ content: UnsafeBufferPointer<UInt8>, fieldCount: Int, _ out: inout ByteBuffer)
        -> (outputColumn: Int, separator: Bool)
    {
        if isCSV {
            out.append(content)
            return (written.columnCount, written.columnCount > 0)
        }
        out.append(UnsafeBufferPointer(copiedRecordPrefix))
        out.append(content)
        return (0, fieldCount > 0)
    }

    /// Writes `record`'s own fields, a value replacing its input where a column says so.
    /// Returns the output column of the first added cell, and whether it follows other cells.
    @inline(__always)
    func writeFields(
        _ record: RecordBatch.Record, _ batch: RecordBatch, replacements: [Range<Int>?], masker: CellMasker,
        _ out: inout ByteBuffer
    ) -> (outputColumn: Int, separator: Bool) {
        if copiesObjects {
            writeObject(record, batch, replacements: replacements, masker: masker, &out)
            return (0, record.fieldCount > 0)
        }
        let slots = written.slots
        let premasked = masker.premaskedText
        for (index, slot) in slots.enumerated() {
            let field = batch.fields[record.firstField + slot]
            let replacing = written.replacingColumnOfSlot[slot]
            if replacing >= 0, let replacement = replacements[replacing] {
                cell(
                    UnsafeBufferPointer(rebasing: premasked[replacement]), outputColumn: index,
                    separator: index > 0, &out)
                continue
            }
            let text = batch.text(of: field)
            if written.copiesCSV && field.hasRaw && !(escapeFormulas && FormulaGuard.isTrigger(text.first)) {
                if index > 0 { out.append(delimiter) }
                out.append(UnsafeBufferPointer(rebasing: batch.bytes[field.raw]))
            } else {
                cell(text, outputColumn: index, separator: index > 0, &out)
            }
        }
        return (written.columnCount, written.columnCount > 0)
    }
}
