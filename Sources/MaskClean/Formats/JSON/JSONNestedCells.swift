/// Where the added cells of a nested column go in a JSON record written from JSON
/// (docs/record-formats.md#nested-values): inside the object that holds the masked value,
/// `contact.phone_formatted` as the member `phone_formatted` of `contact`, before its closing
/// brace. An object missing on the way, or `null`, is created to hold them, as jq's
/// `.contact.phone_formatted = …` does. A record with a member named as the spec wrote the path
/// (`"contact.phone"`) was read by that member, and gets the cells at its top level under their
/// full names, as a flat key always has.
///
/// The masking stage writes a nested column's cells, each member with its leading comma, to
/// `cells` instead of the record; `place` then splices them into the record as written. Only a
/// spec with nested columns and JSON output pays for any of it.
final class JSONNestedCells {
    /// A spec column whose path goes through an object.
    struct Column {
        /// Its index among the spec's columns.
        var column: Int
        /// The writer's output column of its first added cell under its member name.
        var firstOutputColumn: Int
        /// The keys of the object its cells go in, outermost first.
        var containerKeys: [String]
        /// The same keys as JSON strings, quotes and all: a created object's name.
        var quotedKeys: [[UInt8]]

        init(column: Int, path: JSONPath, firstOutputColumn: Int) {
            self.column = column
            self.firstOutputColumn = firstOutputColumn
            containerKeys = path.containerKeys
            quotedKeys = containerKeys.map { key in
                var quoted: [UInt8] = []
                JSONStringEncoder.appendQuoted(Array(key.utf8), to: &quoted)
                return quoted
            }
        }
    }

    let columns: [Column]
    /// For each spec column, its index in `columns`, or -1.
    let placedIndex: [Int]

    // Per record, reused. One worker's writer owns this: exclusivity is checked statically.
    /// Whether each placed column was read by its literal top-level member.
    @exclusivity(unchecked) private(set) var readAtTopLevel: [Bool]
    /// Where each placed column's cells go, as the reader found it.
    @exclusivity(unchecked) private var places: [RecordBatch.NestedPlace]
    /// The cells the stage wrote for each placed column, in `cells`.
    @exclusivity(unchecked) var spans: [Range<Int>]
    let cells = ByteBuffer(capacity: 1024)
    private let assembled = ByteBuffer(capacity: 4096)
    /// Where the record's bytes as read went in the output: (offset in the chunk, offset in the
    /// output), in order, one after each change `writeObject` made.
    @exclusivity(unchecked) var checkpoints: [(input: Int, output: Int)] = []

    /// The spec columns whose cells go inside an object of the record: those whose path goes
    /// through one and that add cells, in spec order. The reader notes their places in this
    /// order (`JSONInputPlan.placedColumns`).
    static func placed(_ columns: [ColumnSpec]) -> [(index: Int, path: JSONPath)] {
        columns.enumerated().compactMap { index, column in
            guard let path = JSONPath(column.name), path.containerSteps > 0, !column.addedColumns.isEmpty
            else {
                return nil
            }
            return (index, path)
        }
    }

    /// Refuses a spec whose JSON columns would read one value twice or write one key twice
    /// (spec error 78): two names for one value (`contact.phone` and `contact["phone"]`), and
    /// for JSON output two added keys placed under one name in one object, or an added key at the
    /// top level named as an object a path creates there.
    static func check(_ spec: Spec, writesJSON: Bool) throws(MaskCleanError) {
        let columns = spec.columns
        let steps = columns.map { column in JSONPath(column.name)?.steps ?? [.key(column.name)] }
        // (The same name twice is two maskings of one value, as in a CSV header.)
        for (index, column) in columns.enumerated() {
            if let other = steps[..<index].indices.first(where: {
                steps[$0] == steps[index] && columns[$0].name != column.name
            }) {
                throw .spec(
                    spec.file, column.place,
                    "names the value \(columns[other].place) names, spelled otherwise: spell it one way")
            }
        }
        guard writesJSON else { return }
        // Each object's members maskclean adds, and the values read there, by name.
        var members: [[String]: [String: String]] = [:]
        for (index, path) in placed(columns) {
            guard case .key(let leaf) = path.steps[path.containerSteps] else { continue }
            members[path.containerKeys, default: [:]][leaf] = "the value \(columns[index].place) reads"
        }
        for (index, path) in placed(columns) {
            let container = path.containerKeys
            for added in columns[index].addedColumns {
                let name = path.memberName(ofAdded: added)
                if let owner = members[container]?[name] {
                    throw .spec(
                        spec.file, columns[index].place,
                        "added column \"\(added)\" goes into \"\(path.containerText)\" as \"\(name)\", where \(owner) is already: name it otherwise"
                    )
                }
                members[container, default: [:]][name] = "the added column of \(columns[index].place)"
            }
        }
        // A top-level added key named as an object a path creates: `statusColumn: contact` and
        // `contact.phone`.
        let created = Set(placed(columns).map { $0.path.containerKeys[0] })
        for column in columns where JSONPath(column.name).map({ $0.containerSteps == 0 }) ?? true {
            for added in column.addedColumns where created.contains(added) {
                throw .spec(
                    spec.file, column.place,
                    "added column \"\(added)\" is named as the object that a path's added columns go into: name it otherwise"
                )
            }
        }
    }

    init(columns: [Column], columnCount: Int) {
        self.columns = columns
        var placedIndex = Array(repeating: -1, count: columnCount)
        for (index, column) in columns.enumerated() { placedIndex[column.column] = index }
        self.placedIndex = placedIndex
        readAtTopLevel = Array(repeating: false, count: columns.count)
        places = Array(repeating: .recordEnd, count: columns.count)
        spans = Array(repeating: 0..<0, count: columns.count)
    }

    /// Starts record `index` of the batch: which placed columns it read by their literal name
    /// (their cells go at its end), where the others' go; and empties the cells.
    func begin(_ index: Int, _ batch: RecordBatch) {
        cells.truncate(to: 0)
        let first = index * columns.count
        for column in columns.indices {
            places[column] = batch.nestedPlaces[first + column]
            readAtTopLevel[column] = places[column].atTopLevel
        }
    }

    /// Whether spec column `column`'s cells go elsewhere than the record's end, and under which
    /// output column then.
    @inline(__always)
    func outputColumn(of column: Int) -> Int? {
        let index = placedIndex[column]
        guard index >= 0, !readAtTopLevel[index] else { return nil }
        return columns[index].firstOutputColumn
    }

    /// One insertion: at `output` (an offset of the output), replacing `replaced` bytes (a
    /// `null` made an object), the objects of column `column`'s container keys from `createFrom`
    /// on, and in the innermost the cells `cells`.
    private struct Insertion {
        var output: Int
        var replaced: Int
        var column: Int
        var createFrom: Int
        var cells: Range<Int>
    }

    /// The objects an insertion creates, outermost first.
    private func created(_ insertion: Insertion) -> ArraySlice<String> {
        columns[insertion.column].containerKeys[insertion.createFrom...]
    }

    /// Reused from record to record.
    @exclusivity(unchecked) private var insertions: [Insertion] = []

    /// Splices the placed columns' cells into the record written at `out[bodyStart...]`.
    func place(bodyStart: Int, _ out: ByteBuffer) {
        insertions.removeAll(keepingCapacity: true)
        for (index, column) in columns.enumerated() where !readAtTopLevel[index] && !spans[index].isEmpty {
            let place = places[index]
            // A `null` stands for the first object missing; those after it are created in it.
            let insertion = Insertion(
                output: place.at < 0 ? out.count : output(of: place.at), replaced: place.replaced,
                column: index,
                createFrom: min(place.existing + (place.replaced > 0 ? 1 : 0), column.containerKeys.count),
                cells: spans[index])
            // In order of place, then of the objects they create, so that each object is
            // created once: an insertion sort, stable, of a few.
            var at = insertions.count
            while at > 0, precedes(insertion, insertions[at - 1]) { at -= 1 }
            insertions.insert(insertion, at: at)
        }
        guard !insertions.isEmpty else { return }
        assembled.truncate(to: 0)
        var copied = bodyStart
        var start = 0
        while start < insertions.count {
            var end = start + 1
            while end < insertions.count, insertions[end].output == insertions[start].output { end += 1 }
            let at = insertions[start].output
            assembled.append(UnsafeBufferPointer(rebasing: out.bytes[copied..<at]))
            write(
                start..<end,
                hasMembers: insertions[start].replaced == 0 && !endsObjectStart(out.bytes, before: at))
            copied = at + insertions[start].replaced
            start = end
        }
        assembled.append(UnsafeBufferPointer(rebasing: out.bytes[copied...]))
        out.truncate(to: bodyStart)
        out.append(assembled.bytes)
    }

    private func precedes(_ left: Insertion, _ right: Insertion) -> Bool {
        left.output < right.output
            || left.output == right.output && created(left).lexicographicallyPrecedes(created(right))
    }

    /// Writes the insertions `group` at one place: the objects they create, opened and closed
    /// as their paths share them, and the cells; `hasMembers`: the object there already has some.
    private func write(_ group: Range<Int>, hasMembers: Bool) {
        let replacesNull = insertions[group.lowerBound].replaced > 0
        // The objects created and open, as (column, index among its container keys).
        var open: [(column: Int, key: Int)] = []
        // Whether the innermost open object has a member yet: after one closes, its parent does.
        var hasContent = hasMembers && !replacesNull
        if replacesNull { assembled.append(UInt8(ascii: "{")) }
        for insertion in insertions[group] {
            let keys = columns[insertion.column].containerKeys
            var shared = 0
            while shared < open.count, insertion.createFrom + shared < keys.count,
                columns[open[shared].column].containerKeys[open[shared].key]
                    == keys[insertion.createFrom + shared]
            {
                shared += 1
            }
            while open.count > shared {
                assembled.append(UInt8(ascii: "}"))
                open.removeLast()
                hasContent = true
            }
            for key in (insertion.createFrom + shared)..<keys.count {
                if hasContent { assembled.append(UInt8(ascii: ",")) }
                columns[insertion.column].quotedKeys[key].withUnsafeBufferPointer { assembled.append($0) }
                assembled.append(UInt8(ascii: ":"))
                assembled.append(UInt8(ascii: "{"))
                open.append((insertion.column, key))
                hasContent = false
            }
            // Each member was written with its leading comma.
            let text = UnsafeBufferPointer(rebasing: cells.bytes[insertion.cells])
            assembled.append(UnsafeBufferPointer(rebasing: text[(hasContent ? 0 : 1)...]))
            hasContent = true
        }
        for _ in open { assembled.append(UInt8(ascii: "}")) }
        if replacesNull { assembled.append(UInt8(ascii: "}")) }
    }

    /// Whether the last byte before `offset` that is not white space is `{`: an empty object.
    private func endsObjectStart(_ bytes: UnsafeBufferPointer<UInt8>, before offset: Int) -> Bool {
        var index = offset - 1
        while index >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index -= 1 }
        return index >= 0 && bytes[index] == UInt8(ascii: "{")
    }

    /// Where offset `input` of the chunk went in the output.
    private func output(of input: Int) -> Int {
        var found = checkpoints[0]
        for checkpoint in checkpoints where checkpoint.input <= input { found = checkpoint }
        return found.output + (input - found.input)
    }
}
