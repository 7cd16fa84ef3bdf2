import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `maskclean describe` reads (docs/command-line.md): the input, read as `run` reads it, how
/// many of its records to read and how many of them to judge the proposal from.
public struct DescribeOptions: Sendable {
    public var input: String
    public var inputFormat: RecordFormat?
    /// The CSV field delimiter given; nil for the format's (tab for TSV) or, for CSV, the one
    /// detected, as for a run.
    public var delimiter: UInt8?
    /// Whether the delimiter is detected when none is given (`--delimiter auto`): nil for the
    /// default, which detects it for CSV and not for TSV.
    public var detectsDelimiter: Bool?
    /// The encoding of the input's text (`--encoding`); nil for UTF-8.
    public var encoding: TextEncoding?
    /// The columns of a CSV or TSV input without a header line (`--no-header --columns`).
    public var columnNames: [String]?
    /// The records the proposal is judged from, spread over every record read (`--sample`);
    /// 0 judges it from every one.
    public var sample = RecordSample.defaultSize
    /// The most records to read (`--head`); 0 reads them all.
    public var head = 0
    /// Propose only these columns (`--only`), in the input's order; nil for every column.
    public var only: [String]?
    /// Threads that mask the records in the second reading, as `run --jobs` masks them.
    public var jobs = min(64, ProcessInfo.processInfo.activeProcessorCount)

    public init(input: String) {
        self.input = input
    }
}

/// The records of an input `describe` judges its proposal from: a sample of `--sample` records
/// spread over every record read (`SampleKeeper`), each column's values added up (`ColumnTally`)
/// in input order. The whole input is read: a key first met in its last record is a column, and
/// a bad record anywhere fails describe as it would fail a run. A cell that is missing, JSON
/// `null` or the empty string is empty, as a run counts it.
struct RecordSample {
    static let defaultSize = 10_000

    /// The input's name in messages (`stdin` for `-`).
    var file: String
    /// Records read: every record, or the first `--head`.
    var records = 0
    /// Records whose values were added up: the sample.
    var sampled = 0
    /// The columns in input order: a CSV header's names, or JSON keys as first met.
    var columns: [String] = []
    /// The encoding the input is read as, both times.
    var encoding: TextEncoding?
    /// Names the header gives more than one column: a spec cannot name them.
    var repeatedNames: Set<String> = []
    /// Each column's sampled values, added up; `unmaskable` counts every record read.
    var tallies: [ColumnTally] = []
    /// What a column keeps in memory.
    var limits = ColumnTally.Limits()
    /// JSON: each column's first record a run masking it rejects (`SampleWorker.rejected`).
    var rejected: [Int: SampleWorker.Rejection] = [:]
    /// How the input is read, for `SpecProposer.measure` to read it again.
    let pass: RecordPass
    /// Threads of the second reading (`DescribeOptions.jobs`).
    var workers = 1
    /// An input that is not a regular file (standard input, a pipe) as it was read, for the
    /// second reading.
    private var copy: InputCopy?
    private let input: String
    /// The regular file the first reading read, as it was (`InputFile.Version`).
    private var version: InputFile.Version?
    private var columnIndex: [String: Int] = [:]

    /// Whether every record read is in the sample.
    var isWhole: Bool { sampled == records }

    private init(file: String, input: String, pass: RecordPass) {
        self.file = file
        self.input = input
        self.pass = pass
    }

    /// Reads the input with the readers `run` uses (the same formats, decompression and errors)
    /// and keeps `options.sample` of its records, chosen uniformly over all of them and the same
    /// on every run (`SampleKeeper`), in memory; their values are then added up in input order,
    /// so that an input of no more records than the sample is judged from all of them. With
    /// `--sample 0` every record's values are added up as they are read.
    static func read(
        _ options: DescribeOptions, limits: ColumnTally.Limits = .init()
    ) throws(MaskCleanError) -> RecordSample {
        let pass = try RecordPass(options)
        let input = try InputFile(path: options.input)
        try input.decode(as: options.encoding)
        var copy: InputCopy?
        // A pipe (standard input, a process substitution, a FIFO) cannot be read twice.
        if input.size == nil {
            copy = try InputCopy()
            input.copy = copy
        }
        // The delimiter is settled once, from the first reading: the second reads with it.
        var settled = pass
        try settled.settleDelimiter(input, detects: options.detectsDelimiter)
        var sample = RecordSample(file: input.name, input: options.input, pass: settled)
        sample.encoding = options.encoding
        sample.copy = copy
        sample.limits = limits
        sample.workers = max(1, options.jobs)
        sample.version = input.version
        if options.sample == 0 {
            try sample.addEvery(input)
        } else {
            try sample.keep(options.sample, of: input)
        }
        return sample
    }

    /// Adds every record's values up as it is read, in input order (`--sample 0`).
    private mutating func addEvery(_ input: InputFile) throws(MaskCleanError) {
        var slots: [Int] = []
        var reader = SampleWorker(id: 0)
        var cells: [(Int, String?)] = []
        let file = file
        records = try pass.read(input) { (names: [String]) throws(MaskCleanError) in
            slots = names.map { column($0) }
            repeatedNames = Self.repeated(names)
        } record: { (batch, record, offset, names) throws(MaskCleanError) in
            if let names {
                let sampled = Self.sampled(batch, record, names, slots, worker: nil)
                if let name = sampled.invalidColumn {
                    throw .data(file, line: record.line, RecordProblem.invalidUTF8InColumn(name).message)
                }
                cells = sampled.cells
            } else {
                reader.read(batch, record, at: offset)
                // One reader: its columns are the sample's, in the order first met.
                for name in reader.columns.dropFirst(columns.count) { _ = column(name) }
                cells = Self.cells(batch, reader.members)
            }
            add(cells)
        }
        for (index, count) in reader.unmaskable.enumerated() { tallies[index].unmaskable += count }
        for (index, count) in reader.objects.enumerated() { tallies[index].objects += count }
        rejected = reader.rejected
        blockPaths([reader], columnOf: [Array(columns.indices)])
    }

    /// Keeps `size` records of the input, read by `workers` threads (`SampleKeeper`), and adds
    /// their values up in input order; a JSON key is a column whether or not a record of the
    /// sample has it, in the order the keys are first met.
    private mutating func keep(_ size: Int, of input: InputFile) throws(MaskCleanError) {
        let keeper = SampleKeeper<SampledRecord>(size: size)
        var slots: [Int] = []
        let (count, readers) = try pass.read(input, workers: (0..<workers).map { SampleWorker(id: $0) }) {
            (names: [String]) throws(MaskCleanError) in
            slots = names.map { column($0) }
            repeatedNames = Self.repeated(names)
        } record: { (worker: inout SampleWorker, batch, record, offset, names) throws(MaskCleanError) in
            if names == nil { worker.read(batch, record, at: offset) }
            let key = SampleKeeper<SampledRecord>.key(offset)
            guard key < worker.bar else { return }
            let id = worker.id
            let members = worker.members
            worker.bar = keeper.offer(key, offset: offset) {
                if let names { return Self.sampled(batch, record, names, slots, worker: nil) }
                return SampledRecord(worker: id, line: record.line, cells: Self.cells(batch, members))
            }
        }
        records = count
        // Each reader's JSON keys, as the sample's columns in the order the input first has them.
        var met: [(place: SampleWorker.Place, worker: Int, column: Int)] = []
        for reader in readers {
            for (column, place) in reader.firstMet.enumerated() { met.append((place, reader.id, column)) }
        }
        met.sort { $0.place < $1.place }
        var columnOf = readers.map { Array(repeating: 0, count: $0.columns.count) }
        for (_, worker, local) in met { columnOf[worker][local] = column(readers[worker].columns[local]) }
        for reader in readers {
            for (local, count) in reader.unmaskable.enumerated() {
                tallies[columnOf[reader.id][local]].unmaskable += count
            }
            for (local, count) in reader.objects.enumerated() {
                tallies[columnOf[reader.id][local]].objects += count
            }
            for (local, rejection) in reader.rejected {
                let column = columnOf[reader.id][local]
                if rejected[column].map({ rejection.offset < $0.offset }) ?? true {
                    rejected[column] = rejection
                }
            }
        }
        blockPaths(readers, columnOf: columnOf)
        for (_, record) in keeper.kept {
            if let name = record.invalidColumn {
                throw .data(file, line: record.line, RecordProblem.invalidUTF8InColumn(name).message)
            }
            if let worker = record.worker {
                add(record.cells.map { (columnOf[worker][$0.0], $0.1) })
            } else {
                add(record.cells)
            }
        }
    }

    /// A record where a column held a string, a number, a boolean or an array is one a run
    /// rejects for every path through it (`contact.phone` where `"contact": "call the desk"`):
    /// each such column under it gets that record as its first rejection, if none comes
    /// earlier, so that describe does not propose a spec the data fails.
    private mutating func blockPaths(_ readers: [SampleWorker], columnOf: [[Int]]) {
        var parent: [Int: Int] = [:]
        var scalar: [Int: SampleWorker.Rejection] = [:]
        for reader in readers {
            for (local, up) in reader.parentOf {
                parent[columnOf[reader.id][local]] = columnOf[reader.id][up]
            }
            for (local, first) in reader.scalarAt {
                let column = columnOf[reader.id][local]
                if scalar[column].map({ first.offset < $0.offset }) ?? true { scalar[column] = first }
            }
        }
        for column in parent.keys {
            var up = parent[column]
            while let ancestor = up {
                if let first = scalar[ancestor], rejected[column].map({ first.offset < $0.offset }) ?? true,
                    case .pathBlocked(_, let at, let needsArray, let found) = first.problem
                {
                    rejected[column] = SampleWorker.Rejection(
                        offset: first.offset, line: first.line,
                        problem: .pathBlocked(
                            path: columns[column], at: at, needsArray: needsArray, found: found))
                }
                up = parent[ancestor]
            }
        }
    }

    /// The input from its start, for a second reading: a regular file opened again, or a pipe's
    /// bytes as they were read.
    func reopened() throws(MaskCleanError) -> InputFile {
        if let copy {
            let again = try copy.reopened(as: file)
            try again.decode(as: encoding)
            return again
        }
        let again = try InputFile(path: input)
        try again.decode(as: encoding)
        // Replaced or rewritten since the first reading (each reading checks itself): the
        // figures would count records the proposal was not judged from.
        guard again.version == version else {
            throw .data(
                file, line: nil,
                "changed between describe's two readings of it (another file, size or modification time): run describe again once whatever writes it is done, or on a copy"
            )
        }
        return again
    }

    /// A CSV record's fields under the header's names: their columns (`slots`) and texts; the
    /// name of the first column whose text is not UTF-8, if any, for the error describe stops
    /// with if the record stays in the sample.
    private static func sampled(
        _ batch: RecordBatch, _ record: RecordBatch.Record, _ names: [String], _ slots: [Int], worker: Int?
    ) -> SampledRecord {
        var sampled = SampledRecord(worker: worker, line: record.line, cells: [])
        sampled.cells.reserveCapacity(names.count)
        for (slot, name) in names.enumerated() {
            let cell = String(validating: batch.text(record, slot), as: UTF8.self)
            if cell == nil, sampled.invalidColumn == nil { sampled.invalidColumn = name }
            sampled.cells.append((slots[slot], cell ?? ""))
        }
        return sampled
    }

    /// A JSON record's members as cells: strings decoded, numbers as written, `null` empty, and
    /// nil for what no run masks.
    private static func cells(_ batch: RecordBatch, _ members: [(column: Int, value: JSONToken)])
        -> [(Int, String?)]
    {
        let reader = JSONScanner(batch.bytes)
        return members.map { member in
            switch member.value.kind {
            case .string: (member.column, reader.decodeString(member.value) ?? "")
            case .number: (member.column, reader.plainDecimal(member.value) ?? "")
            case .null: (member.column, "")
            case .object, .array, .bool: (member.column, nil)
            }
        }
    }

    /// Adds a sampled record's cells to their columns' tallies.
    private mutating func add(_ cells: [(Int, String?)]) {
        // The last cell of a column named twice is the one a run reads: counted from the end.
        for (index, cell) in cells.reversed() {
            guard let cell else { continue }
            guard tallies[index].lastRecord != sampled else { continue }
            tallies[index].lastRecord = sampled
            guard !cell.isEmpty else { continue }
            // A value beyond a column's distinct ones is counted by shape and kind; it is
            // masked when every record is read again (`SpecProposer.measure`).
            _ = tallies[index].add(cell, limits)
        }
        sampled += 1
    }

    /// The names a CSV header (or `--columns`) gives more than one field.
    private static func repeated(_ names: [String]) -> Set<String> {
        var seen: Set<String> = []
        var repeated: Set<String> = []
        for name in names where !seen.insert(name).inserted { repeated.insert(name) }
        return repeated
    }

    /// The index of the column `name`, added (empty for the records before) if new.
    private mutating func column(_ name: String) -> Int {
        if let index = columnIndex[name] { return index }
        columnIndex[name] = columns.count
        columns.append(name)
        tallies.append(ColumnTally())
        return columns.count - 1
    }
}

/// A record of `describe`'s sample, out of its chunk: its cells by column, the worker whose
/// columns they are (nil: the sample's own, a CSV header's), its line, and the first column
/// whose text is not UTF-8.
struct SampledRecord {
    var worker: Int?
    var line: Int
    var cells: [(Int, String?)]
    var invalidColumn: String?
}

/// One thread's share of `describe`'s first reading: the bar its records' keys must be below to
/// be offered to the sample, and the JSON keys it met (where first, and how many of each's values
/// no run masks), which become the sample's columns once every thread is done.
struct SampleWorker {
    /// A key's first place: its record's place in the input and its rank among the members.
    struct Place: Comparable {
        var offset: Int
        var member: Int
        static func < (left: Place, right: Place) -> Bool {
            (left.offset, left.member) < (right.offset, right.member)
        }
    }

    let id: Int
    var bar = UInt64.max
    var columns: [String] = []
    var firstMet: [Place] = []
    var unmaskable: [Int] = []
    var objects: [Int] = []
    private var index: [String: Int] = [:]
    /// The last record's keys by rank, as written, with their columns: most records have the
    /// keys of the one before in the same order, which are then not decoded again.
    private var lastKeys: [(written: [UInt8], column: Int)] = []
    /// For each column, the first record (by place) that a run masking it rejects, and why
    /// (docs/record-formats.md): its key written twice, a number too large to write out, a
    /// string that cannot be decoded. describe fails on it if it proposes the column.
    var rejected: [Int: Rejection] = [:]
    struct Rejection {
        var offset: Int
        var line: Int
        var problem: RecordProblem
    }
    /// The columns that are members of objects, named by their paths, and the column of the
    /// object each is a member of.
    private var nestedColumns: Set<Int> = []
    private(set) var parentOf: [Int: Int] = [:]
    /// For each column, the first record where it held a string, a number, a boolean or an
    /// array: a path through it there makes that record bad (`RecordSample.blockPaths`).
    private(set) var scalarAt: [Int: Rejection] = [:]
    /// For each column, whether the last record had it by a path only (`seenAt`).
    private var seenNestedAt: [Bool] = []
    /// For each column, the place of the last record that had it.
    private var seenAt: [Int] = []

    init(id: Int) {
        self.id = id
    }

    /// The last JSON record read's top-level members, each by this worker's column for its key:
    /// refilled record after record, in place.
    private(set) var members: [(column: Int, value: JSONToken)] = []

    /// Reads a JSON record's top-level members (the object as read, which the reader checked:
    /// it scans) into `members`, each key's column made if new; objects, arrays and booleans,
    /// which no run masks, are counted as they are met.
    mutating func read(_ batch: RecordBatch, _ record: RecordBatch.Record, at offset: Int) {
        members.removeAll(keepingCapacity: true)
        let object = record.content.lowerBound..<(record.content.upperBound + 1)
        let bytes = batch.bytes
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[..<object.upperBound]))
        scanner.position = object.lowerBound
        var rank = 0
        _ = try? scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
            let column = self.column(of: key, rank: rank, in: bytes, at: offset)
            rank += 1
            member(column, value, bytes, offset, record.line, rank: &rank, nested: false)
        }
    }

    /// The path naming the value of `column`: its name, or for a top-level key that a bare
    /// step cannot spell, `["a.b"]`.
    private func path(of column: Int) -> String {
        let name = columns[column]
        return nestedColumns.contains(column) ? name : JSONPath.member(name, of: nil)
    }

    /// Notes the value of `column` in a record; an object's members become columns of their own,
    /// named by their paths (`contact.phone`, docs/record-formats.md#nested-values).
    private mutating func member(
        _ column: Int, _ value: JSONToken, _ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ line: Int,
        rank: inout Int, nested: Bool
    ) {
        // A top-level key spelled as a path (`"x.y"`) wins over the path in its record, as a
        // run reads it: the value at the path is not this column's there.
        if nested && seenAt[column] == offset && !seenNestedAt[column] {
            return
        }
        if !nested && seenAt[column] == offset && seenNestedAt[column] {
            members.removeAll { $0.column == column }
            seenNestedAt[column] = false
        } else if seenAt[column] == offset {
            reject(column, .maskedKeyTwice(columns[column]), offset, line)
        }
        if seenAt[column] != offset { seenNestedAt[column] = nested }
        seenAt[column] = offset
        if value.kind != .object && value.kind != .null
            && scalarAt[column].map({ offset < $0.offset }) ?? true
        {
            scalarAt[column] = Rejection(
                offset: offset, line: line,
                problem: .pathBlocked(path: "", at: columns[column], needsArray: false, found: value.kind))
        }
        switch value.kind {
        case .object:
            unmaskable[column] += 1
            objects[column] += 1
            let parent = path(of: column)
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[..<value.range.upperBound]))
            scanner.position = value.range.lowerBound
            _ = try? scanner.scanObject { (key: JSONToken, inner: JSONToken) throws(JSONSyntaxError) in
                let name = JSONPath.member(JSONScanner(bytes).decodeString(key) ?? "", of: parent)
                let nested = self.column(named: name, rank: rank, at: offset)
                nestedColumns.insert(nested)
                if parentOf[nested] == nil { parentOf[nested] = column }
                rank += 1
                member(nested, inner, bytes, offset, line, rank: &rank, nested: true)
            }
        case .array, .bool: unmaskable[column] += 1
        case .number:
            // As a run's reader writes a number out (`plainDecimal`): only one with an
            // exponent can be too large.
            if bytes[value.range].contains(where: { $0 | 0x20 == UInt8(ascii: "e") }),
                JSONScanner(bytes).plainDecimal(value) == nil
            {
                reject(column, .numberTooLarge(key: columns[column]), offset, line)
            }
        case .string:
            if value.hasEscapes, JSONScanner(bytes).decodeString(value) == nil {
                reject(column, .invalidUTF8InKey(columns[column]), offset, line)
            }
        case .null: break
        }
        members.append((column, value))
    }

    /// Keeps `problem` as `column`'s first rejection if its record comes before the one kept.
    private mutating func reject(_ column: Int, _ problem: RecordProblem, _ offset: Int, _ line: Int) {
        guard rejected[column].map({ offset < $0.offset }) ?? true else { return }
        rejected[column] = Rejection(offset: offset, line: line, problem: problem)
    }

    /// The column named `name`, made if new: first met at `rank` of the record at `offset`.
    private mutating func column(named name: String, rank: Int, at offset: Int) -> Int {
        if let known = index[name] { return known }
        let column = columns.count
        index[name] = column
        columns.append(name)
        firstMet.append(Place(offset: offset, member: rank))
        unmaskable.append(0)
        objects.append(0)
        seenAt.append(-1)
        seenNestedAt.append(false)
        return column
    }

    /// The column of the key at `rank` among a record's members, made if new.
    private mutating func column(
        of key: JSONToken, rank: Int, in bytes: UnsafeBufferPointer<UInt8>, at offset: Int
    )
        -> Int
    {
        let written = UnsafeBufferPointer(rebasing: bytes[key.range])
        if rank < lastKeys.count, lastKeys[rank].written.count == written.count,
            lastKeys[rank].written.withUnsafeBufferPointer({
                memcmp($0.baseAddress!, written.baseAddress!, written.count)
            })
                == 0
        {
            return lastKeys[rank].column
        }
        let column = column(named: JSONScanner(bytes).decodeString(key) ?? "", rank: rank, at: offset)
        if rank < lastKeys.count {
            lastKeys[rank] = (Array(written), column)
        } else if rank == lastKeys.count {
            lastKeys.append((Array(written), column))
        }
        return column
    }
}
