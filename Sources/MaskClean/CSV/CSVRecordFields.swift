import Foundation

/// How a CSV record's fields come in (split directly from a plain line, or handed over by
/// libcsv) and go out with the record's masked and added cells.
extension CSVChunkProcessor {
    /// Reads a record that lies whole on one line without libcsv, when its quoting is simple:
    /// unquoted fields are the bytes between delimiters, and a quoted field closes on the line and
    /// is followed by a delimiter or the line's end. Those are exactly the fields libcsv would
    /// hand over, and the line goes out as it came in, except a field quoted without need, which
    /// goes out bare as the encoder writes it. This skips libcsv's byte-by-byte state machine and
    /// a callback per field for nearly every line of an export.
    ///
    /// False, having written nothing, for a line libcsv must read: a quoted field that goes on
    /// past the line, or a quote where strict CSV has none (libcsv then says what is wrong).
    ///
    /// `spansLines`: the record goes on over more lines (its quoted fields hold line breaks), and
    /// a quoted field holding a line break or a CR keeps its quotes.
    func splitLine(_ line: UnsafeBufferPointer<UInt8>, spansLines: Bool = false) -> Bool {
        var count = line.count
        if count > 0 && line[count - 1] == 0x0A { count -= 1 }
        if count > 0 && line[count - 1] == 0x0D { count -= 1 }
        guard count > 0, let base = line.baseAddress else { return true }  // blank: no record, as for libcsv
        let delimiter = plan.delimiter
        var copied = 0  // the line's bytes before this are in the output
        var start = 0
        var field = 0
        // The first quote at or after the field's start (`Int.max` for none, which an empty last
        // field does not start with), found once and kept until passed: most fields hold none,
        // and a search per field for one cost as much as the search for its delimiter.
        var nextQuote = -1
        while true {
            var end = count  // where the field ends: at a delimiter or the line's end
            var text = start..<count
            var doubledQuotes = false
            if nextQuote < start {
                nextQuote =
                    memchr(base + start, 0x22, count - start).map { UnsafeRawPointer(base).distance(to: $0) }
                    ?? Int.max
            }
            if nextQuote == start {
                var search = start + 1
                while true {
                    guard let quote = memchr(base + search, 0x22, count - search) else {
                        return abandonLine()
                    }
                    let close = UnsafeRawPointer(base).distance(to: quote)
                    if close + 1 < count && base[close + 1] == 0x22 {
                        doubledQuotes = true
                        search = close + 2
                        continue
                    }
                    text = (start + 1)..<close
                    end = close + 1
                    break
                }
                guard end == count || base[end] == delimiter else { return abandonLine() }
                if !doubledQuotes && memchr(base + text.lowerBound, Int32(delimiter), text.count) == nil
                    && !(spansLines
                        && Self.holdsLineBreak(
                            UnsafeBufferPointer(start: base + text.lowerBound, count: text.count)))
                {
                    // Quoted without need: the encoder would write it bare.
                    output.append(UnsafeBufferPointer(start: base + copied, count: start - copied))
                    output.append(UnsafeBufferPointer(start: base + text.lowerBound, count: text.count))
                    copied = end
                }
            } else {
                if let found = memchr(base + start, Int32(delimiter), count - start) {
                    end = UnsafeRawPointer(base).distance(to: found)
                }
                text = start..<end
                if nextQuote < end {
                    // A quote inside a field that does not start with one is data (`12" ruler`);
                    // written back, the field is quoted and the quote doubled.
                    output.append(UnsafeBufferPointer(start: base + copied, count: start - copied))
                    CSVFieldEncoder.append(
                        UnsafeBufferPointer(start: base + start, count: end - start), delimiter: delimiter,
                        escapeFormulas: false, to: &output)
                    copied = end
                }
            }
            if field < plan.headerCount {
                for index in maskingStart[field]..<maskingStart[field + 1] {
                    let column = maskingColumns[index]
                    guard doubledQuotes else {
                        masked[column].cell = UnsafeBufferPointer(
                            start: base + text.lowerBound, count: text.count)
                        masked[column].inChunk = true
                        continue
                    }
                    let maskedStart = maskedBytes.count
                    var position = text.lowerBound
                    while position < text.upperBound {
                        maskedBytes.append(base[position])
                        position += base[position] == 0x22 ? 2 : 1
                    }
                    masked[column].range = maskedStart..<maskedBytes.count
                    masked[column].inChunk = false
                }
            }
            field += 1
            guard end < count else { break }
            start = end + 1
        }
        output.append(UnsafeBufferPointer(start: base + copied, count: count - copied))
        fieldIndex = field
        endRecord()
        return true
    }

    /// Reads a record whose quoted field goes on over more lines (a note with line breaks)
    /// without libcsv, as `splitLine` reads a line: from `start` to the record's end, which the
    /// boundary scanner finds by libcsv's rules. Returns that end; nil, having written nothing,
    /// for a record libcsv must read, and for one too long or holding a NUL, which the line
    /// path reports at the line where it shows.
    func splitLines(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, hasNUL: Bool) -> Int? {
        var splitter = CSVSplitter(delimiter: plan.delimiter)
        let rest = UnsafeBufferPointer(rebasing: bytes[start...])
        guard let boundary = splitter.scanToFirstBoundary(rest).boundary,
            start + boundary - recordStart <= plan.maximumRecordBytes
        else { return nil }
        let record = UnsafeBufferPointer(rebasing: rest[..<boundary])
        if hasNUL, let base = record.baseAddress, memchr(base, 0, record.count) != nil { return nil }
        return splitLine(record, spansLines: true) ? start + boundary : nil
    }

    /// Whether `text` holds a line feed or a CR.
    static func holdsLineBreak(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return false }
        return memchr(base, 0x0A, text.count) != nil || memchr(base, 0x0D, text.count) != nil
    }

    /// Takes back what `splitLine` wrote of a record it leaves to libcsv.
    func abandonLine() -> Bool {
        output.truncate(to: recordOutputStart)
        maskedBytes.truncate(to: 0)
        return false
    }

    /// Masks the cells that replace their input and writes each into its place in the record,
    /// the input value where the cell keeps it. The record's bytes after the first such place are
    /// moved once: only specs with `replace` pay for it.
    func replaceCells(row: Int) {
        let firstPlace = replacedFields[0].offset
        replacedTail.removeAll(keepingCapacity: true)
        replacedTail.append(contentsOf: UnsafeBufferPointer(rebasing: output.bytes[firstPlace...]))
        output.truncate(to: firstPlace)
        var copied = firstPlace
        for (offset, field) in replacedFields {
            replacedTail.withUnsafeBufferPointer { tail in
                output.append(
                    UnsafeBufferPointer(rebasing: tail[(copied - firstPlace)..<(offset - firstPlace)]))
            }
            copied = offset
            let column = replacingColumn[field]
            let input = masked[column].cell
            if let replacement = masker.premask(input, column: column, row: row) {
                masker.withPremaskedBytes { bytes in
                    encoder.cell(
                        UnsafeBufferPointer(rebasing: bytes[replacement]), outputColumn: field,
                        separator: field > 0,
                        &output)
                }
            } else {
                encoder.cell(input, outputColumn: field, separator: field > 0, &output)
            }
        }
        replacedTail.withUnsafeBufferPointer { tail in
            output.append(UnsafeBufferPointer(rebasing: tail[(copied - firstPlace)...]))
        }
    }

    // MARK: libcsv's callbacks, through the parser

    func field(_ bytes: UnsafeRawBufferPointer) {
        let cell = bytes.assumingMemoryBound(to: UInt8.self)
        if fieldIndex == 0 { encoder.beginRecord(&output) }
        // A field past the header's makes the record bad: it is counted, not written (for JSON
        // it would have no name).
        if fieldIndex < plan.headerCount {
            for index in maskingStart[fieldIndex]..<maskingStart[fieldIndex + 1] {
                let start = maskedBytes.count
                maskedBytes.append(cell)
                masked[maskingColumns[index]].range = start..<maskedBytes.count
                masked[maskingColumns[index]].inChunk = false
            }
            if masker.replaces, replacingColumn[fieldIndex] >= 0 {
                // Written once the record is known good and the cell masked: see `replaceCells`.
                replacedFields.append((output.count, fieldIndex))
            } else {
                encoder.cell(cell, outputColumn: fieldIndex, separator: fieldIndex > 0, &output)
            }
            if !encoder.isCSV && invalidField == nil && !cell.isValidUTF8 { invalidField = fieldIndex }
        }
        fieldIndex += 1
    }

    func endRecord() {
        defer { startRecord() }
        result.rows += 1
        // Check the record before its added cells are written: a bad one leaves no trace.
        if fieldIndex != plan.headerCount {
            let expected = plan.headerCount
            output.truncate(to: recordOutputStart)
            badRecords.append(.fieldCount(expected: expected, found: fieldIndex, given: plan.columnsGiven))
            return
        }
        if let field = invalidField {
            output.truncate(to: recordOutputStart)
            let name = field < plan.columnNames.count ? plan.columnNames[field] : "\(field + 1)"
            badRecords.append(.invalidUTF8ForJSON(column: name))
            return
        }
        // The copied cells' places, now that `maskedBytes` no longer grows for this record.
        let copies = maskedBytes.bytes
        for column in masked.indices where !masked[column].inChunk {
            masked[column].cell = UnsafeBufferPointer(rebasing: copies[masked[column].range])
        }
        for column in masked.indices where !masked[column].cell.isValidUTF8 {
            output.truncate(to: recordOutputStart)
            badRecords.append(.invalidUTF8InColumn(masker.columns[column].name))
            return
        }
        let row = result.rows
        if !replacedFields.isEmpty { replaceCells(row: row) }
        var outputColumn = fieldIndex
        for column in masked.indices {
            outputColumn = masker.writeAddedCells(
                masked[column].cell, column: column, row: row, outputColumn: outputColumn, separator: true,
                encoder: encoder, to: &output)
        }
        encoder.endRecord(&output)
    }
}
