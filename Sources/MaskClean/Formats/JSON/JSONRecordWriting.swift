/// Writing a JSON record read from JSON: its own bytes up to its closing brace, a replaced value
/// written as a JSON string in its place, and with `--escape-formulas` a `'` before each string
/// that a spreadsheet would take for a formula; the added members then follow.
extension RecordWriter {
    /// Copies the object as read, without its closing brace, over the `{` that `beginRecord`
    /// wrote.
    func writeObject(
        _ record: RecordBatch.Record, _ batch: RecordBatch, replacements: [Range<Int>?], masker: CellMasker,
        _ out: inout ByteBuffer
    ) {
        out.truncate(to: out.count - 1)  // beginRecord's `{`: the record brings its own
        let bytes = batch.bytes
        let content = record.content
        nested?.checkpoints = [(content.lowerBound, out.count)]
        guard masker.replaces || escapeFormulas else {
            out.append(UnsafeBufferPointer(rebasing: bytes[content]))
            return
        }
        var edits: [(start: Int, end: Int, column: Int)] = []  // column -1: a formula prefix
        for column in replacements.indices where replacements[column] != nil {
            let field = batch.fields[record.firstField + written.slotOfColumn[column]]
            if field.kind != .missing { edits.append((field.raw.lowerBound, field.raw.upperBound, column)) }
        }
        if escapeFormulas {
            for insertion in Self.formulaInsertions(
                in: bytes, object: content.lowerBound..<(content.upperBound + 1))
            where !edits.contains(where: { $0.column >= 0 && ($0.start..<$0.end).contains(insertion) }) {
                edits.append((insertion, insertion, -1))
            }
        }
        edits.sort { $0.start < $1.start }
        let premasked = masker.premaskedText
        var copied = content.lowerBound
        for edit in edits {
            // Two edits of one value cannot be (the spec refuses two columns replacing it).
            guard edit.start >= copied else { continue }
            out.append(UnsafeBufferPointer(rebasing: bytes[copied..<edit.start]))
            if edit.column < 0 {
                out.append(FormulaGuard.prefix)
            } else if let replacement = replacements[edit.column] {
                let value = UnsafeBufferPointer(rebasing: premasked[replacement])
                let prefix = escapeFormulas && FormulaGuard.isTrigger(value.first) ? FormulaGuard.prefix : nil
                JSONStringEncoder.appendQuoted(value, prefix: prefix, to: &out)
            }
            copied = edit.end
            nested?.checkpoints.append((copied, out.count))
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[copied..<content.upperBound]))
    }

    /// Turns the line breaks of the record written at `out[start...]` into spaces: a record of a
    /// JSON array may span lines, an NDJSON record may not. Outside its strings (which hold no
    /// raw line break) a line break is white space, so the record means the same.
    static func joinLines(_ out: ByteBuffer, from start: Int) {
        let bytes = UnsafeMutablePointer(mutating: out.bytes.baseAddress!)
        for index in start..<out.count where bytes[index] == 0x0A || bytes[index] == 0x0D {
            bytes[index] = 0x20
        }
    }

    /// Where a `'` goes in the object's own string values, nested ones included, for
    /// `--escape-formulas`.
    static func formulaInsertions(in bytes: UnsafeBufferPointer<UInt8>, object: Range<Int>) -> [Int] {
        var insertions: [Int] = []
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[..<object.upperBound]))
        scanner.position = object.lowerBound
        _ = try? scanner.scanObject { (_: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
            if value.kind == .string && FormulaGuard.startsJSONString(bytes, value.range.lowerBound + 1) {
                insertions.append(value.range.lowerBound + 1)
            } else if value.kind == .object || value.kind == .array {
                FormulaGuard.nestedTriggers(bytes, in: value.range, into: &insertions)
            }
        }
        return insertions
    }
}
