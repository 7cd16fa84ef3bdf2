import Foundation

/// What `maskclean describe` reads (docs/command-line.md): the input, read as `run` reads it, how
/// many of its records to read and how many of them to judge the proposal from.
public struct DescribeOptions: Sendable {
    public var input: String
    public var inputFormat: RecordFormat?
    /// The CSV field delimiter; by default `,` (tab for TSV).
    public var delimiter: UInt8?
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
/// spread over every record read (`Reservoir`), each column's values added up (`ColumnTally`)
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
    /// Each column's sampled values, added up; `unmaskable` counts every record read.
    var tallies: [ColumnTally] = []
    /// What a column keeps in memory.
    var limits = ColumnTally.Limits()
    /// How the input is read, for `SpecProposer.measure` to read it again.
    let pass: RecordPass
    /// Threads of the second reading (`DescribeOptions.jobs`).
    var workers = 1
    /// An input that is not a regular file (standard input, a pipe) as it was read, for the
    /// second reading.
    private var copy: InputCopy?
    private let input: String
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
    /// on every run, in memory (every record for 0); their values are then added up in input
    /// order, so that an input of no more records than the sample is judged from all of them.
    static func read(
        _ options: DescribeOptions, limits: ColumnTally.Limits = .init()
    ) throws(MaskCleanError) -> RecordSample {
        let pass = try RecordPass(options)
        let input = try InputFile(path: options.input)
        var sample = RecordSample(file: input.name, input: options.input, pass: pass)
        sample.limits = limits
        sample.workers = max(1, options.jobs)
        // A pipe (standard input, a process substitution, a FIFO) cannot be read twice.
        if input.size == nil {
            let copy = try InputCopy()
            input.copy = copy
            sample.copy = copy
        }
        var reservoir = Reservoir<[(Int, String?)]>(size: options.sample)
        var slots: [Int] = []
        let records = try pass.read(input) { (names: [String]) throws(MaskCleanError) in
            slots = names.map { sample.column($0) }
        } record: { (batch, record, number, names) throws(MaskCleanError) in
            // Every JSON record's keys are columns, whether sampled or not.
            let members = names == nil ? sample.members(batch, record) : []
            let slot = options.sample == 0 ? nil : reservoir.slot(for: number)
            guard options.sample == 0 || slot != nil else { return }
            let cells: [(Int, String?)]
            if let names {
                cells = try sample.cells(batch, record, names, slots)
            } else {
                cells = sample.cells(batch, members)
            }
            if let slot {
                reservoir.keep(cells, number: number, at: slot)
            } else {
                sample.add(cells)
            }
        }
        sample.records = records
        for (_, cells) in reservoir.kept.sorted(by: { $0.number < $1.number }) { sample.add(cells) }
        return sample
    }

    /// The input from its start, for a second reading: a regular file opened again, or a pipe's
    /// bytes as they were read.
    func reopened() throws(MaskCleanError) -> InputFile {
        if let copy { return try copy.reopened(as: file) }
        return try InputFile(path: input)
    }

    /// A CSV record's fields under the header's names: their columns (`slots`) and texts.
    private func cells(_ batch: RecordBatch, _ record: RecordBatch.Record, _ names: [String], _ slots: [Int])
        throws(MaskCleanError) -> [(Int, String?)]
    {
        var cells: [(Int, String?)] = []
        cells.reserveCapacity(names.count)
        for (slot, name) in names.enumerated() {
            guard let cell = String(validating: batch.text(record, slot), as: UTF8.self) else {
                throw .data(file, line: record.line, RecordProblem.invalidUTF8InColumn(name).message)
            }
            cells.append((slots[slot], cell))
        }
        return cells
    }

    /// A JSON record's top-level members (the object as read, which the reader checked: it
    /// scans), each key's column made if new; objects, arrays and booleans, which no run masks,
    /// are counted as they are met.
    private mutating func members(_ batch: RecordBatch, _ record: RecordBatch.Record)
        -> [(column: Int, value: JSONToken)]
    {
        var members: [(column: Int, value: JSONToken)] = []
        for (key, value) in JSONMembers(batch, record).all {
            let index = column(JSONScanner(batch.bytes).decodeString(key) ?? "")
            switch value.kind {
            case .object, .array, .bool: tallies[index].unmaskable += 1
            case .string, .number, .null: break
            }
            members.append((index, value))
        }
        return members
    }

    /// A JSON record's members as cells: strings decoded, numbers as written, `null` empty, and
    /// nil for what no run masks.
    private func cells(_ batch: RecordBatch, _ members: [(column: Int, value: JSONToken)]) -> [(Int, String?)]
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

    /// The index of the column `name`, added (empty for the records before) if new.
    private mutating func column(_ name: String) -> Int {
        if let index = columnIndex[name] { return index }
        columnIndex[name] = columns.count
        columns.append(name)
        tallies.append(ColumnTally())
        return columns.count - 1
    }
}

/// A JSON record's top-level members as tokens into its batch.
struct JSONMembers {
    var all: [(key: JSONToken, value: JSONToken)] = []

    init(_ batch: RecordBatch, _ record: RecordBatch.Record) {
        let object = record.content.lowerBound..<(record.content.upperBound + 1)
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: batch.bytes[..<object.upperBound]))
        scanner.position = object.lowerBound
        var members: [(key: JSONToken, value: JSONToken)] = []
        _ = try? scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
            members.append((key, value))
        }
        all = members
    }
}
