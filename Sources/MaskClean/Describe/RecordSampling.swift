/// What `maskclean describe` reads (docs/command-line.md): the input, read as `run` reads it, and
/// how many of its records to look at.
public struct DescribeOptions: Sendable {
    public var input: String
    public var inputFormat: RecordFormat?
    /// The CSV field delimiter; by default `,` (tab for TSV).
    public var delimiter: UInt8?
    /// The columns of a CSV or TSV input without a header line (`--no-header --columns`).
    public var columnNames: [String]?
    /// The most records to read; 0 reads them all.
    public var sample = RecordSample.defaultSize
    /// Propose only these columns (`--only`), in the input's order; nil for every column.
    public var only: [String]?

    public init(input: String) {
        self.input = input
    }
}

/// The first records of an input, column by column, added up as they are read: each column's
/// tally of its values (`ColumnTally`), never the cells, so that memory does not grow with the
/// records. A cell that is missing, JSON `null` or the empty string is empty, as a run counts it.
struct RecordSample {
    static let defaultSize = 10_000

    /// The input's name in messages (`stdin` for `-`).
    var file: String
    /// Records read.
    var records = 0
    /// The columns in input order: a CSV header's names, or JSON keys as first met.
    var columns: [String] = []
    /// Each column's values, added up.
    var tallies: [ColumnTally] = []
    /// The values beyond a column's first distinct ones, made when the first such value comes.
    var spool: ValueSpool?
    /// What a column keeps in memory.
    var limits = ColumnTally.Limits()
    private var columnIndex: [String: Int] = [:]

    /// Reads up to `options.sample` records (all for 0) with the readers `run` uses: the same
    /// formats, decompression and errors. Records are read a chunk at a time and reading stops
    /// once enough are in, so a huge input is not read to its end.
    static func read(
        _ options: DescribeOptions, limits: ColumnTally.Limits = .init()
    ) throws(MaskCleanError) -> RecordSample {
        let format: RecordFormat
        if let chosen = options.inputFormat {
            format = chosen
        } else {
            format = try Runner.format(of: options.input)
        }
        let input = try InputFile(path: options.input)
        // The records are read by a run's readers, with no masked column.
        var runOptions = RunOptions(input: options.input, output: nil, jobs: 1)
        runOptions.inputFormat = format
        runOptions.outputFormat = .ndjson
        runOptions.chunkSize = 64 << 10
        runOptions.columnNames = options.columnNames
        let settings = SourceSettings(
            spec: Spec(file: "", notations: [], columns: []), options: runOptions, outputFormat: .ndjson,
            delimiter: options.delimiter ?? format.defaultDelimiter)
        var sample = RecordSample(file: input.name)
        sample.limits = limits
        let limit = options.sample > 0 ? options.sample : Int.max
        switch format {
        case .csv, .tsv: try sample.read(CSVSource(input: input, settings), input, runOptions, limit: limit)
        case .ndjson: try sample.read(NDJSONSource(input: input, settings), input, runOptions, limit: limit)
        case .json: try sample.read(JSONArraySource(input: input, settings), input, runOptions, limit: limit)
        }
        return sample
    }

    private mutating func read<Source: RecordSource>(
        _ source: Source, _ input: InputFile, _ options: RunOptions, limit: Int
    ) throws(MaskCleanError) {
        let start = source.start
        for name in start.columnNames ?? [] { _ = column(name) }
        let reader = ChunkReader(
            input: input, splitter: source.makeSplitter(), chunkSize: options.chunkSize,
            maximumRecordBytes: options.maximumRecordBytes, leftover: start.leftover,
            firstLine: start.nextLine)
        let recordReader = source.makeReader()
        var returned: ByteBuffer?
        while records < limit {
            // Chunks of about the records still wanted: the reader hands them out as soon as
            // they are in, and a pipe that trickles (or never ends) is not waited on for more.
            if limit < Int.max { reader.recordBudget = limit - records }
            guard let event = try reader.next(into: returned) else { break }
            switch event {
            case .chunk(let chunk):
                recordReader.read(chunk)
                try add(recordReader.batch, columns: start.columnNames, limit: limit)
                // A bad record past the records wanted is none of the sample's business.
                if let fatal = recordReader.batch.fatal, records < limit { throw fatal }
                returned = chunk.buffer
            case .oversizedRecord(let line):
                let problem = RecordProblem.tooLong(
                    maximum: reader.maximumRecordBytes, insideQuotedField: reader.isInsideQuotedField)
                throw .data(input.name, line: line, problem.message)
            case .brokenStructure(let line):
                throw .data(
                    input.name, line: line,
                    "the array's structure is broken here (a bracket that closes the wrong one, or a string whose closing quote is missing)"
                )
            }
        }
    }

    /// Adds the batch's records, up to `limit` in all: a CSV record's fields under `columns`
    /// (the header's names), a JSON record's top-level members (strings decoded, numbers as
    /// written). The first bad record ends the sample with the error a run would stop with.
    private mutating func add(_ batch: RecordBatch, columns names: [String]?, limit: Int)
        throws(MaskCleanError)
    {
        for index in 0..<batch.records.count {
            let record = batch.records[index]
            guard records < limit else { return }
            if record.problem >= 0 {
                throw .data(file, line: record.line, batch.problems[record.problem].message)
            }
            var cells: [(Int, String?)] = []
            if let names {
                for (slot, name) in names.enumerated() {
                    let text = batch.text(record, slot)
                    guard let cell = String(validating: text, as: UTF8.self) else {
                        throw .data(
                            file, line: record.line, RecordProblem.invalidUTF8InColumn(name).message)
                    }
                    cells.append((column(name), cell))
                }
            } else {
                // The object as read, which the reader checked: it scans.
                let object = record.content.lowerBound..<(record.content.upperBound + 1)
                var scanner = JSONScanner(UnsafeBufferPointer(rebasing: batch.bytes[..<object.upperBound]))
                scanner.position = object.lowerBound
                let reader = JSONScanner(batch.bytes)
                var members: [(key: JSONToken, value: JSONToken)] = []
                _ = try? scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
                    members.append((key, value))
                }
                for (key, value) in members {
                    let index = column(reader.decodeString(key) ?? "")
                    switch value.kind {
                    case .string: cells.append((index, reader.decodeString(value) ?? ""))
                    case .number: cells.append((index, reader.plainDecimal(value) ?? ""))
                    case .null: cells.append((index, ""))
                    case .object, .array, .bool: cells.append((index, nil))
                    }
                }
            }
            // The last cell of a column named twice is the one a run reads: counted from the end.
            for (index, cell) in cells.reversed() {
                guard let cell else {
                    tallies[index].unmaskable += 1
                    continue
                }
                guard tallies[index].lastRecord != records else { continue }
                tallies[index].lastRecord = records
                guard !cell.isEmpty else { continue }
                if !tallies[index].add(cell, limits) {
                    try madeSpool().append(column: index, cell)
                }
            }
            records += 1
        }
    }

    /// The index of the column `name`, added (empty for the records before) if new.
    private mutating func column(_ name: String) -> Int {
        if let index = columnIndex[name] { return index }
        columnIndex[name] = columns.count
        columns.append(name)
        tallies.append(ColumnTally())
        return columns.count - 1
    }

    /// The spool, made the first time a value needs it.
    private mutating func madeSpool() throws(MaskCleanError) -> ValueSpool {
        if let spool { return spool }
        let made = try ValueSpool()
        spool = made
        return made
    }
}
