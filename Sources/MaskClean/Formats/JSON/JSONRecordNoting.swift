/// Noting one JSON record that read well in the batch: its bytes as read, and the values of the
/// keys the run asks for (its masked keys, then its CSV columns), decoded where the JSON
/// escapes them.
extension JSONRecordReader {
    /// Notes `object`, whose ranges index `bytes` (the chunk or a part of it); `raw` is the
    /// record's bytes as read. A value that cannot be read rejects the record whole.
    func noteRecord(
        _ object: JSONToken, memberCount: Int, bytes: UnsafeBufferPointer<UInt8>, line: Int,
        raw: Slice<UnsafeBufferPointer<UInt8>>
    ) -> Outcome {
        let scanner = JSONScanner(bytes)
        let shift = bytes.baseAddress.map { chunkStart.distance(to: $0) } ?? 0
        let firstField = batch.fields.count
        let decodedStart = batch.decoded.count
        if hasPaths, let problem = takePathValues() {
            return forget(firstField, decodedStart, problem, line, raw)
        }
        // A missing or null value is empty text; only the few values that need decoding are
        // copied.
        for (index, token) in maskedValues.enumerated() {
            guard let token else {
                batch.fields.append(.missing)
                continue
            }
            switch token.kind {
            case .string:
                guard noteString(token, scanner, shift: shift) else {
                    return forget(
                        firstField, decodedStart, .invalidUTF8InKey(plan.maskedKeys[index]), line, raw)
                }
            case .number:
                if !bytes[token.range].contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
                    note(token, text: token.range, shift: shift)
                    continue
                }
                guard let text = scanner.plainDecimal(token) else {
                    return forget(
                        firstField, decodedStart, .numberTooLarge(key: plan.maskedKeys[index]), line, raw)
                }
                note(token, decoded: text, shift: shift)
            default:
                note(token, text: token.range.lowerBound..<token.range.lowerBound, shift: shift)
            }
        }
        if writesCSV, let csvColumns = plan.csvColumns {
            // A column's value as a CSV cell: a string's text, null as nothing, anything else
            // as written.
            for (index, value) in csvValues.enumerated() {
                switch value?.kind {
                case nil: batch.fields.append(.missing)
                case .string:
                    guard noteString(value!, scanner, shift: shift) else {
                        return forget(firstField, decodedStart, .nulForCSV(key: csvColumns[index]), line, raw)
                    }
                case .null:
                    note(value!, text: value!.range.lowerBound..<value!.range.lowerBound, shift: shift)
                default: note(value!, text: value!.range, shift: shift)
                }
            }
        }
        if !places.isEmpty { notePlaces() }
        let range = object.range
        batch.records.append(
            RecordBatch.Record(
                line: line, raw: chunkRange(raw),
                content: (range.lowerBound + shift)..<(range.upperBound - 1 + shift),
                copiable: true, firstField: firstField, fieldCount: memberCount))
        return .read
    }

    /// A masked key that is a path takes the value the path found, unless the record has a
    /// member named as the spec wrote the path: then that member is read, and its cells go at
    /// the record's end under their full names, where the record must not have them already.
    /// Returns what makes the record bad, if anything.
    @inline(never)
    private func takePathValues() -> RecordProblem? {
        for index in maskedValues.indices where paths[index] != nil {
            if maskedValues[index] != nil {
                guard placeOfColumn[index] >= 0 else { continue }
                places[placeOfColumn[index]].atTopLevel = true
                if topLevelAddedSeen[index] >= 0 {
                    return .addedKeyPresent(plan.addedKeys[topLevelAddedSeen[index]])
                }
            } else if let problem = pathProblems[index] {
                return problem
            } else if pathRootsSeen[index] {
                maskedValues[index] = pathValues[index]
                if pathValues[index] != nil { maskedKeysSeen[index] = true }
            }
        }
        return nil
    }

    /// Notes where the record's placed columns' cells go (`RecordBatch.nestedPlaces`).
    @inline(never)
    private func notePlaces() {
        for place in places { batch.nestedPlaces.append(place) }
    }

    /// Notes a string: its text between the quotes, valid UTF-8 as the record's text passed
    /// `JSONTextCheck` (or its one-pass twin), or decoded when it has escapes. False when it
    /// cannot be decoded.
    @inline(__always)
    private func noteString(_ token: JSONToken, _ scanner: JSONScanner, shift: Int) -> Bool {
        guard token.hasEscapes else {
            note(token, text: (token.range.lowerBound + 1)..<(token.range.upperBound - 1), shift: shift)
            return true
        }
        guard let text = scanner.decodeString(token) else { return false }
        note(token, decoded: text, shift: shift)
        return true
    }

    /// Notes a value whose text lies in the bytes read, at `text`.
    @inline(__always)
    private func note(_ token: JSONToken, text: Range<Int>, shift: Int) {
        batch.fields.append(
            RecordBatch.Field(
                raw: (token.range.lowerBound + shift)..<(token.range.upperBound + shift),
                text: (text.lowerBound + shift)..<(text.upperBound + shift), isDecoded: false, hasRaw: true,
                kind: Self.kind(token.kind)))
    }

    /// Notes a value whose text had to be decoded.
    private func note(_ token: JSONToken, decoded text: String, shift: Int) {
        let start = batch.decoded.count
        batch.decoded.append(Array(text.utf8))
        batch.fields.append(
            RecordBatch.Field(
                raw: (token.range.lowerBound + shift)..<(token.range.upperBound + shift),
                text: start..<batch.decoded.count, isDecoded: true, hasRaw: true, kind: Self.kind(token.kind))
        )
    }

    @inline(__always)
    private static func kind(_ kind: JSONKind) -> RecordBatch.FieldKind {
        switch kind {
        case .string: .string
        case .number: .number
        case .null: .null
        case .object, .array, .bool: .other
        }
    }

    /// Takes back what was noted of a record, and notes it as bad.
    private func forget(
        _ firstField: Int, _ decodedStart: Int, _ problem: RecordProblem, _ line: Int,
        _ raw: Slice<UnsafeBufferPointer<UInt8>>
    ) -> Outcome {
        batch.fields.truncate(to: firstField)
        batch.decoded.truncate(to: decodedStart)
        return reject(problem, line: line, raw: raw)
    }
}
