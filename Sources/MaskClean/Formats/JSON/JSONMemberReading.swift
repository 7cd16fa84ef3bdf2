import FoundationEssentials

/// Reading one JSON record: its members checked against the keys the spec masks, adds and (for
/// CSV output) takes as columns, before anything of it is noted in the batch.
extension JSONRecordReader {
    /// Reads one record at the scanner into the batch; `onePass: false` when the one-pass
    /// reading has just refused it.
    func record(
        _ scanner: inout JSONScanner, line: Int, raw: Slice<UnsafeBufferPointer<UInt8>>?, onePass: Bool = true
    ) -> Outcome {
        let start = scanner.position
        forgetRecord()
        // The first record of a chunk has its keys noted, which only the general reading does.
        if onePass, readsInOnePass, !notesKeys, let (object, memberCount) = readOrdinaryRecord(&scanner) {
            if raw != nil, scanner.peek() != nil {
                return .broken(.textAfterRecord)
            }
            return noteRecord(
                object, memberCount: memberCount, bytes: scanner.bytes, line: line,
                raw: raw ?? scanner.bytes[object.range])
        }
        // Read again from its start, by the scanner that tells what is wrong, if anything.
        scanner.position = start
        forgetRecord()
        var memberCount = 0
        var problem: RecordProblem?
        let object: JSONToken
        do {
            guard scanner.peek() == UInt8(ascii: "{") else {
                let value = try scanner.scanValue()
                return reject(
                    .notAnObject(found: value.kind), line: line,
                    raw: raw ?? scanner.bytes[start..<scanner.position])
            }
            let bytes = scanner.bytes
            object = try scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
                memberCount += 1
                if problem == nil { problem = self.member(key: key, value: value, in: bytes) }
            }
        } catch {
            notesKeys = false
            return .broken(.invalidJSON(error.message))
        }
        notesKeys = false
        if raw != nil, scanner.peek() != nil {
            return .broken(.textAfterRecord)
        }
        let rawRecord = raw ?? scanner.bytes[object.range]
        // Text that is not UTF-8, or a lone surrogate escape, cannot be written to any output
        // faithfully: the record is bad, whichever key holds it.
        if let found = JSONTextCheck.firstProblem(UnsafeBufferPointer(rebasing: scanner.bytes[object.range]))
        {
            let place = place(of: object.range.lowerBound + found.offset, in: object, scanner.bytes)
            return reject(.badText(found.reason, place: place), line: line, raw: rawRecord)
        }
        if let problem {
            return reject(problem, line: line, raw: rawRecord)
        }
        return noteRecord(object, memberCount: memberCount, bytes: scanner.bytes, line: line, raw: rawRecord)
    }

    /// Forgets what reading a record noted of its members.
    @inline(__always)
    func forgetRecord() {
        for index in maskedValues.indices { maskedValues[index] = nil }
        for index in csvValues.indices { csvValues[index] = nil }
        if hasPaths { forgetPaths() }
    }

    @inline(never)
    func forgetPaths() {
        for index in pathValues.indices {
            pathValues[index] = nil
            pathRootsSeen[index] = false
            pathProblems[index] = nil
            topLevelAddedSeen[index] = -1
        }
        for index in places.indices { places[index] = .recordEnd }
    }

    /// Reads the NDJSON record on the line at `start` of `bytes` in one pass, when it
    /// is ordinary and alone on its line: it is read from the chunk as it lies, and where it ends
    /// says where its line ends, with no search for the line feed first. Returns how it went and
    /// where the next line starts; nil, having noted nothing, for any other line.
    @inline(__always)
    func ordinaryLine(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, line: Int) -> (Outcome, next: Int)?
    {
        forgetRecord()
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[start...]))
        guard let (object, memberCount) = readOrdinaryRecord(&scanner, lineFeedEnds: true) else { return nil }
        let rest = scanner.bytes
        var end = scanner.position
        while end < rest.count, rest[end] == 0x20 || rest[end] == 0x09 || rest[end] == 0x0D { end += 1 }
        guard end == rest.count || rest[end] == 0x0A else { return nil }
        let next = min(end + 1, rest.count)
        let outcome = noteRecord(
            object, memberCount: memberCount, bytes: rest, line: line, raw: rest[..<next])
        return (outcome, start + next)
    }

    /// Reads an ordinary record — an object whose keys have no escapes, whose text passes
    /// `JSONTextCheck` and whose members `member` has nothing to say about — in one pass, each
    /// string checked as it is scanned. Returns the object and its member count, the scanner
    /// just past it.
    ///
    /// Nil for any other record, having noted no more than the general reading would have up to
    /// its first problem: `record` then reads it again with the general scanner, which says
    /// exactly what is wrong, with the same words and offsets. With `lineFeedEnds` (NDJSON read
    /// from the chunk), a line feed is no blank: a record that spans lines is not ordinary.
    func readOrdinaryRecord(_ scanner: inout JSONScanner, lineFeedEnds: Bool = false) -> (JSONToken, Int)? {
        let bytes = scanner.bytes
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = scanner.position
        JSONScanner.skipBlanks(base, &index, count: count, lineFeedEnds: lineFeedEnds)
        guard index < count, base[index] == UInt8(ascii: "{") else { return nil }
        let objectStart = index
        index += 1
        JSONScanner.skipBlanks(base, &index, count: count, lineFeedEnds: lineFeedEnds)
        var memberCount = 0
        if index < count, base[index] == UInt8(ascii: "}") {
            scanner.position = index + 1
            return (JSONToken(kind: .object, range: objectStart..<scanner.position), 0)
        }
        while true {
            var escapes = false
            var nonASCII = false  // in the key
            guard index < count, base[index] == UInt8(ascii: "\""),
                let keyEnd = JSONScanner.checkedStringEnd(
                    base, at: index, count: count, escapes: &escapes, nonASCII: &nonASCII),
                !escapes
            else { return nil }
            let name = UnsafeBufferPointer(start: base + index + 1, count: keyEnd - index - 2)
            index = keyEnd
            JSONScanner.skipBlanks(base, &index, count: count, lineFeedEnds: lineFeedEnds)
            guard index < count, base[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            JSONScanner.skipBlanks(base, &index, count: count, lineFeedEnds: lineFeedEnds)
            guard index < count else { return nil }
            let value: JSONToken
            switch base[index] {
            case UInt8(ascii: "\""):
                var valueNonASCII = false
                guard
                    let end = JSONScanner.checkedStringEnd(
                        base, at: index, count: count, escapes: &escapes, nonASCII: &valueNonASCII)
                else { return nil }
                value = JSONToken(kind: .string, range: index..<end, hasEscapes: escapes)
                index = end
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                // A plain integer (an id, a count) inline; fractions and exponents by the scanner.
                var end = index + 1
                while end < count, base[end] &- UInt8(ascii: "0") < 10 { end += 1 }
                if end < count, base[end] == UInt8(ascii: ".") || base[end] | 0x20 == UInt8(ascii: "e") {
                    scanner.position = index
                    guard (try? scanner.scanNumber()) != nil else { return nil }
                    end = scanner.position
                }
                value = JSONToken(kind: .number, range: index..<end)
                index = end
            case UInt8(ascii: "-"), UInt8(ascii: "0"):
                scanner.position = index
                guard let number = try? scanner.scanNumber() else { return nil }
                value = number
                index = scanner.position
            default:
                // Nested values are rare: scanned, then checked, as the general reading does.
                scanner.position = index
                guard let other = try? scanner.scanValue(),
                    other.kind != .object && other.kind != .array
                        || JSONTextCheck.firstProblem(UnsafeBufferPointer(rebasing: bytes[other.range]))
                            == nil
                            && !(lineFeedEnds && bytes[other.range].contains(0x0A))
                else { return nil }
                value = other
                index = scanner.position
            }
            memberCount += 1
            // Most members are none of the wanted keys, and most specs ask nothing else of them.
            if wantedKeys.mayHold(name) || writesCSV || nonASCII && hasNonASCIIMaskedKeys,
                !noteMember(
                    named: name, readable: count - (name.baseAddress! - base), value: value, in: bytes)
            {
                return nil
            }
            JSONScanner.skipBlanks(base, &index, count: count, lineFeedEnds: lineFeedEnds)
            guard index < count else { return nil }
            let next = base[index]
            index += 1
            if next == UInt8(ascii: "}") {
                scanner.position = index
                return (JSONToken(kind: .object, range: objectStart..<index), memberCount)
            }
            guard next == UInt8(ascii: ",") else { return nil }
            JSONScanner.skipBlanks(base, &index, count: count, lineFeedEnds: lineFeedEnds)
        }
    }

    /// Names the member of `object` where `offset` lies: `in key "…"` or `in the value of key "…"`.
    func place(of offset: Int, in object: JSONToken, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[..<object.range.upperBound]))
        scanner.position = object.range.lowerBound
        var found = "in the record"
        _ = try? scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
            let name = visibleKey(key, bytes)
            if key.range.contains(offset) {
                found = "in key \(name)"
            } else if value.range.contains(offset) {
                found = "in the value of key \(name)"
            }
        }
        return found
    }

    /// A key as messages show it, invalid bytes replaced.
    func visibleKey(_ key: JSONToken, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let inner = UnsafeBufferPointer(
            rebasing: bytes[(key.range.lowerBound + 1)..<(key.range.upperBound - 1)])
        return "\"" + String(decoding: inner, as: UTF8.self) + "\""
    }

    /// Notes a member the record needs; says what is wrong with it, if anything.
    func member(key: JSONToken, value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>)
        -> RecordProblem?
    {
        if notesKeys, batch.keysSeen.count < Self.keysNoted {
            batch.keysSeen.append(JSONScanner(bytes).decodeString(key) ?? "")
        }
        // The key's bytes are its text unless it has escapes (rare): compared where they lie.
        if key.hasEscapes {
            let text = Array((JSONScanner(bytes).decodeString(key) ?? "").utf8)
            return text.withUnsafeBufferPointer { name in
                member(named: name, readable: name.count, value: value, in: bytes)
            }
        }
        let name = UnsafeBufferPointer(
            rebasing: bytes[(key.range.lowerBound + 1)..<(key.range.upperBound - 1)])
        return member(
            named: name, readable: bytes.count - (key.range.lowerBound + 1), value: value, in: bytes)
    }

    /// Notes the member whose key is `name` (its text, `readable` bytes readable from its
    /// start); says what is wrong with it, if anything.
    func member(
        named name: UnsafeBufferPointer<UInt8>, readable: Int, value: JSONToken,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> RecordProblem? {
        noteMember(named: name, readable: readable, value: value, in: bytes) ? nil : memberProblem
    }

    /// `member` for the one-pass reading: false when something is wrong with the member, and
    /// `memberProblem` says what. A Boolean, as most members have nothing wrong: returning an
    /// optional problem costs more than looking the member up.
    @inline(__always)
    func noteMember(
        named name: UnsafeBufferPointer<UInt8>, readable: Int, value: JSONToken,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var matched = false
        for wanted in wantedKeys.matches(name, readable: readable) {
            if wanted.added >= 0 {
                // A nested column's added keys go at the top level only in a record read by
                // its literal member: whether that clashes is known once the record is read.
                if hasPaths && addedOwner[wanted.added] >= 0 {
                    topLevelAddedSeen[addedOwner[wanted.added]] = wanted.added
                    continue
                }
                memberProblem = .addedKeyPresent(plan.addedKeys[wanted.added])
                return false
            }
            guard wanted.masked >= 0 else {
                if wanted.nested >= 0 { notePathValue(wanted.nested, value, in: bytes) }
                continue
            }
            matched = true
            guard noteMaskedValue(wanted.masked, value) else { return false }
        }
        guard !matched && hasNonASCIIMaskedKeys || writesCSV else { return true }
        return noteUnusualMember(named: name, value: value, in: bytes, matched: matched)
    }

    /// What `noteMember` asks of a member only for some specs and outputs: another
    /// normalization of a non-ASCII masked key, CSV columns.
    @inline(never)
    func noteUnusualMember(
        named name: UnsafeBufferPointer<UInt8>, value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>,
        matched: Bool
    ) -> Bool {
        if !matched, hasNonASCIIMaskedKeys, name.contains(where: { $0 >= 0x80 }),
            let index = plan.maskedKeys.firstIndex(of: String(decoding: name, as: UTF8.self))
        {
            // The same key in another Unicode normalization (`tél` as e + U+0301) is the masked
            // key too, as it is in a CSV header: twice in a record, it is ambiguous.
            guard noteMaskedValue(index, value) else { return false }
        }
        if writesCSV {
            let text = String(decoding: name, as: UTF8.self)
            guard let column = csvColumnIndex[text] else {
                memberProblem = .keyNotAmongColumns(text)
                return false
            }
            // A CSV column holds one value: a second one would be lost, or shift the rest.
            guard csvValues[column] == nil else {
                memberProblem = .columnKeyTwice(text)
                return false
            }
            csvValues[column] = value
        }
        return true
    }

    /// Notes the value of masked key `index`; false when it cannot be masked (`memberProblem`
    /// says why).
    @inline(__always)
    func noteMaskedValue(_ index: Int, _ value: JSONToken) -> Bool {
        maskedKeysSeen[index] = true
        guard maskedValues[index] == nil else {
            memberProblem = .maskedKeyTwice(plan.maskedKeys[index])
            return false
        }
        switch value.kind {
        case .string, .number, .null:
            maskedValues[index] = value
            return true
        case .object, .array, .bool:
            memberProblem = .maskedKeyHolds(plan.maskedKeys[index], value.kind)
            return false
        }
    }

    /// Follows masked key `index`'s path from `value`, the record's member of its first key. A
    /// path that is missing, or meets `null`, is an empty cell; one that goes through a value
    /// that is not an object or an array, ends at one that cannot be masked, or finds maskclean's
    /// added members already in their object, makes the record bad, unless the record also has
    /// the member named as the spec wrote the path, which wins: so the problem is kept in
    /// `pathProblems` until the record is read (docs/record-formats.md#nested-values).
    @inline(never)
    func notePathValue(_ index: Int, _ value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>) {
        let path = paths[index]!
        guard !pathRootsSeen[index] else {
            pathProblems[index] = .maskedKeyTwice(path.prefix(1))
            return
        }
        pathRootsSeen[index] = true
        var container: JSONToken?
        var present: Int?
        let added = index < addedMemberBytes.count ? addedMemberBytes[index] : []
        let found = path.find(from: value, in: bytes, container: &container, added: added, present: &present)
        if container != nil, let present {
            pathProblems[index] = .addedMemberPresent(
                object: path.containerText, key: plan.addedMembers[index][present])
            return
        }
        if placeOfColumn[index] >= 0 { places[placeOfColumn[index]] = place(path, from: value, in: bytes) }
        switch found {
        case .missing: return
        case .twice(let step): pathProblems[index] = .maskedKeyTwice(path.prefix(step + 1))
        case .blocked(let step, let found):
            if case .index = path.steps[step] {
                pathProblems[index] = .pathBlocked(
                    path: path.text, at: path.prefix(step), needsArray: true, found: found)
            } else {
                pathProblems[index] = .pathBlocked(
                    path: path.text, at: path.prefix(step), needsArray: false, found: found)
            }
        case .value(let leaf):
            switch leaf.kind {
            case .string, .number, .null: pathValues[index] = leaf
            case .object, .array, .bool: pathProblems[index] = .pathHolds(path.text, leaf.kind)
            }
        }
    }

    /// Where a column's added cells go in the record (`RecordBatch.NestedPlace`): in the object
    /// that holds its value, or where the record lacks it; `value` is the member of the path's
    /// first key.
    private func place(_ path: JSONPath, from value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>)
        -> RecordBatch.NestedPlace
    {
        let shift = bytes.baseAddress.map { chunkStart.distance(to: $0) } ?? 0
        var current = value
        var depth = 1
        while true {
            switch current.kind {
            case .object:
                guard depth < path.containerSteps,
                    let next = JSONPath.member(path.keyBytes[depth], of: current, in: bytes).0
                else {
                    return RecordBatch.NestedPlace(
                        at: current.range.upperBound - 1 + shift, replaced: 0, existing: depth,
                        atTopLevel: false)
                }
                current = next
                depth += 1
            case .null:
                return RecordBatch.NestedPlace(
                    at: current.range.lowerBound + shift, replaced: current.range.count, existing: depth - 1,
                    atTopLevel: false)
            default:
                // The path goes through a value of another kind: the record is bad.
                return .recordEnd
            }
        }
    }

    /// How many keys of a chunk's first record are noted for suggestions.
    static let keysNoted = 200
}
