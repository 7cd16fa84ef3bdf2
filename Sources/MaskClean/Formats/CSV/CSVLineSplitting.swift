import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splitting a CSV record without libcsv, when its quoting is simple: nearly every record of an
/// export. The fields found are exactly those libcsv would hand over (`CSVPlainLineTests` holds
/// the two readings against each other), found with a search per delimiter and quote instead of
/// libcsv's byte-by-byte state machine and a callback per field.
extension CSVRecordReader {
    /// Reads a record that lies whole on `line` (at `offset` in the chunk): unquoted fields are
    /// the bytes between delimiters, and a quoted field closes on the line and is followed by a
    /// delimiter or the line's end. False, having noted nothing, for a line libcsv must read: a
    /// quoted field that goes on past the line, or a quote where strict CSV has none (libcsv
    /// then says what is wrong).
    func splitLine(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        var count = line.count
        if count > 0 && line[count - 1] == 0x0A { count -= 1 }
        if count > 0 && line[count - 1] == 0x0D { count -= 1 }
        guard count > 0, let base = line.baseAddress else { return true }  // blank: no record, as for libcsv
        let delimiter = plan.delimiter
        let headerCount = plan.headerCount
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
            } else {
                if let found = memchr(base + start, Int32(delimiter), count - start) {
                    end = UnsafeRawPointer(base).distance(to: found)
                }
                text = start..<end
            }
            if field < headerCount, plan.slotOfField[field] >= 0 {
                noteField(start..<end, text: text, in: base, at: offset, doubledQuotes: doubledQuotes)
            }
            field += 1
            guard end < count else { break }
            start = end + 1
        }
        fieldIndex = field
        endRecord(raw: offset..<(offset + line.count), content: offset..<(offset + count))
        return true
    }

    /// Notes a field split from the line at `base` (at `offset` in the chunk): its text is its
    /// bytes between the quotes, unless a quote is doubled in them, when the text is decoded.
    @inline(__always)
    func noteField(
        _ raw: Range<Int>, text: Range<Int>, in base: UnsafePointer<UInt8>, at offset: Int,
        doubledQuotes: Bool
    ) {
        let inChunk = (offset + raw.lowerBound)..<(offset + raw.upperBound)
        guard doubledQuotes else {
            batch.fields.append(
                RecordBatch.Field(
                    raw: inChunk, text: (offset + text.lowerBound)..<(offset + text.upperBound),
                    isDecoded: false,
                    hasRaw: true, kind: .string))
            return
        }
        let decodedStart = batch.decoded.count
        var position = text.lowerBound
        while position < text.upperBound {
            batch.decoded.append(base[position])
            position += base[position] == 0x22 ? 2 : 1
        }
        batch.fields.append(
            RecordBatch.Field(
                raw: inChunk, text: decodedStart..<batch.decoded.count, isDecoded: true, hasRaw: true,
                kind: .string))
    }

    /// Reads a record whose quoted field goes on over more lines (a note with line breaks)
    /// without libcsv, as `splitLine` reads a line: from `start` to the record's end, which the
    /// boundary scanner finds by libcsv's rules (or the input's end, in its last chunk). Returns
    /// that end; nil, having noted nothing, for a record libcsv must read, and for one too long
    /// or holding a NUL, which the line path reports at the line where it shows.
    func splitLines(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, hasNUL: Bool, isLast: Bool) -> Int?
    {
        var splitter = CSVSplitter(delimiter: plan.delimiter)
        let rest = UnsafeBufferPointer(rebasing: bytes[start...])
        let found = splitter.scanToFirstBoundary(rest).boundary
        guard let boundary = found ?? (isLast && !splitter.isInsideQuotedField ? rest.count : nil),
            start + boundary - recordStart <= plan.maximumRecordBytes
        else { return nil }
        let record = UnsafeBufferPointer(rebasing: rest[..<boundary])
        if hasNUL, let base = record.baseAddress, memchr(base, 0, record.count) != nil { return nil }
        return splitLine(record, at: start) ? start + boundary : nil
    }

    /// Takes back what `splitLine` noted of a record it leaves to libcsv.
    func abandonLine() -> Bool {
        forgetFields()
        return false
    }
}
