/// One reading of `describe`'s input, record by record, with the readers a run uses: the same
/// formats, decompression and errors. `describe` reads its input once to sample it and once more
/// to mask every record with what it proposes (`SpecProposer.measure`).
struct RecordPass {
    let format: RecordFormat
    let options: RunOptions
    private(set) var settings: SourceSettings
    /// The most records read (`--head`); `Int.max` for every one.
    let limit: Int

    init(_ describe: DescribeOptions) throws(MaskCleanError) {
        if let chosen = describe.inputFormat {
            format = chosen
        } else {
            format = try Runner.format(of: describe.input)
        }
        // The records are read by a run's readers, with no masked column.
        var options = RunOptions(input: describe.input, output: nil, jobs: 1)
        options.inputFormat = format
        options.outputFormat = .ndjson
        options.chunkSize = 64 << 10
        options.columnNames = describe.columnNames
        options.delimiter = describe.delimiter
        self.options = options
        settings = SourceSettings(
            spec: Spec(file: "", notations: [], columns: []), options: options, outputFormat: .ndjson,
            delimiter: describe.delimiter ?? format.defaultDelimiter, writesRecords: false)
        limit = describe.head > 0 ? describe.head : Int.max
    }

    /// Settles the delimiter of a CSV or TSV input as a run does (`DelimiterDetection.settle`),
    /// from its first lines when it is detected.
    mutating func settleDelimiter(_ input: InputFile, detects: Bool?) throws(MaskCleanError) {
        guard !format.isJSON, options.delimiter == nil else { return }
        settings.delimiter =
            try DelimiterDetection.settle(
                input, format: format, given: nil, detects: detects, columns: options.columnNames?.count,
                records: limit
            ).byte
    }

    /// The same reading, with a JSON reader that hands over `columns`' values as the batch's
    /// fields, in their order, as a run's reader hands over its masked keys' (a number as a
    /// plain decimal; a key written twice or a number too large a bad record, which the first
    /// reading found: describe failed on it before reading again); a CSV reader hands over every
    /// field as before.
    func reading(_ columns: [ColumnProposal]) throws(MaskCleanError) -> RecordPass {
        guard format.isJSON else { return self }
        var spec = try SpecLoader.parse(Array(SpecProposal.json(columns).utf8), file: "proposed spec")
        // Only the values are wanted: no added key is written, none to check.
        for index in spec.columns.indices {
            spec.columns[index].formattedColumn = nil
            spec.columns[index].extractedColumn = nil
            spec.columns[index].statusColumn = nil
            spec.columns[index].templateColumn = nil
            spec.columns[index].normalizedColumn = nil
            spec.columns[index].countryColumn = nil
        }
        var pass = self
        pass.settings.spec = spec
        return pass
    }

    /// Reads `input`'s records, up to `limit`: `header` gets a CSV header's names before any
    /// record, `record` each record with its batch, its place in the input (`Chunk.firstOffset`)
    /// and the header's names (nil for JSON). The first bad record ends the reading with the error a run stops with.
    /// Returns how many records were read.
    func read(
        _ input: InputFile, header: ([String]) throws(MaskCleanError) -> Void,
        record: (RecordBatch, RecordBatch.Record, Int, [String]?) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) -> Int {
        switch format {
        case .csv, .tsv: try read(CSVSource(input: input, settings), input, header, record)
        case .ndjson: try read(NDJSONSource(input: input, settings), input, header, record)
        case .json: try read(JSONArraySource(input: input, settings), input, header, record)
        }
    }

    private func read<Source: RecordSource>(
        _ source: Source, _ input: InputFile, _ header: ([String]) throws(MaskCleanError) -> Void,
        _ body: (RecordBatch, RecordBatch.Record, Int, [String]?) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) -> Int {
        let (start, reader) = try begin(source, input, header)
        let recordReader = source.makeReader()
        var returned: ByteBuffer?
        var records = 0
        while records < limit {
            // With --head, chunks of about the records still wanted: the reader hands them out
            // as soon as they are in, and a pipe that trickles (or never ends) is not waited on.
            if limit < Int.max { reader.recordBudget = limit - records }
            guard let event = try reader.next(into: returned) else { break }
            switch event {
            case .chunk(let chunk):
                recordReader.read(chunk)
                let batch = recordReader.batch
                for index in 0..<batch.records.count {
                    guard records < limit else { break }
                    let record = batch.records[index]
                    if record.problem >= 0 {
                        throw .data(input.name, line: record.line, batch.problems[record.problem].message)
                    }
                    try body(batch, record, chunk.firstOffset + record.raw.lowerBound, start.columnNames)
                    records += 1
                }
                // A bad record past the --head records is none of describe's business.
                if let fatal = batch.fatal, records < limit { throw fatal }
                returned = chunk.buffer
            case .oversizedRecord, .brokenStructure:
                throw Self.failure(event, reader, input.name)
            }
        }
        return records
    }

    /// The input's start, with `header` given its names, and a chunk reader from there: what
    /// every reading of the input begins with.
    func begin<Source: RecordSource>(
        _ source: Source, _ input: InputFile, _ header: ([String]) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) -> (InputStart, ChunkReader<Source.Splitter>) {
        let start = source.start
        if let names = start.columnNames { try header(names) }
        let reader = ChunkReader(
            input: input, splitter: source.makeSplitter(), chunkSize: options.chunkSize,
            maximumRecordBytes: options.maximumRecordBytes, leftover: start.leftover,
            firstLine: start.nextLine)
        return (start, reader)
    }

    /// The error a reading stops with at a record too long or an array whose structure broke.
    static func failure<Splitter>(
        _ event: ChunkReader<Splitter>.Event, _ reader: ChunkReader<Splitter>, _ file: String
    ) -> MaskCleanError {
        switch event {
        case .oversizedRecord(let line):
            let problem = RecordProblem.tooLong(
                maximum: reader.maximumRecordBytes, insideQuotedField: reader.isInsideQuotedField)
            return .data(file, line: line, problem.message)
        case .brokenStructure(let line):
            return .data(
                file, line: line,
                "the array's structure is broken here (a bracket that closes the wrong one, or a string whose closing quote is missing)"
            )
        case .chunk: preconditionFailure("a chunk is not a failure")
        }
    }
}
