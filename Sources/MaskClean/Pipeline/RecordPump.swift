/// Moves every chunk of the input through the processors and writes the results in input order:
/// the records and the quarantine to the outputs, the counts into the totals. A record too long
/// to hold is passed over as it is read.
struct RecordPump<Splitter: RecordSplitter> {
    let reader: ChunkReader<Splitter>
    let input: InputFile
    let options: RunOptions
    let outputs: Outputs

    /// Pumps until the input ends; errors end the run once the chunks in flight are done.
    func run(
        spec: Spec, framing: inout RecordFraming, totals: inout RunTotals,
        makeProcessor: @escaping () -> ChunkProcessor
    ) throws(MaskCleanError) {
        reader.recordBudget = Self.recordBudget(spec)
        // Whatever a caller asks for, no more workers than this: each is a thread's worth of
        // buffers, and the cores are far fewer.
        let compression = options.recordsCompression.map {
            ChunkCompression(
                compression: $0, level: options.compressionLevel, separatorApart: framing.format == .json)
        }
        let pipeline = ChunkPipeline(
            workers: min(max(1, options.jobs), 256), makeProcessor: makeProcessor, inputs: reader.pool,
            chunkSize: options.chunkSize, compression: compression, clock: options.pipelineClock)
        var oversizedLine: Int?
        repeat {
            oversizedLine = nil
            try pipeline.run(
                nextChunk: { (buffer: ByteBuffer?) throws(MaskCleanError) -> ChunkPipeline.Input? in
                    guard oversizedLine == nil, let event = try reader.next(into: buffer) else { return nil }
                    switch event {
                    case .chunk(let chunk):
                        return (chunk, input.isCompressed ? input.fileBytesRead : reader.bytesRead)
                    case .oversizedRecord(let line):
                        oversizedLine = line
                        return nil
                    case .brokenStructure(let line):
                        throw .data(
                            input.name, line: line,
                            "the array's structure is broken here (a bracket that closes the wrong one, or a string whose closing quote is missing), so where the records after it start cannot be told"
                        )
                    }
                },
                consume: { (result: ChunkResult, bytesRead: Int) throws(MaskCleanError) in
                    totals.add(result)
                    if compression != nil {
                        try outputs.writeCompressedRecords(
                            UnsafeRawBufferPointer(
                                framing.compressedRecords(
                                    result.output.bytes, separatorMember: result.separatorMemberLength)))
                    } else if !result.output.isEmpty {
                        try outputs.writeRecords(UnsafeRawBufferPointer(framing.records(result.output.bytes)))
                    }
                    if !result.quarantine.isEmpty {
                        try result.quarantine.withBytes { bytes throws(MaskCleanError) in
                            try outputs.writeQuarantine(bytes)
                        }
                    }
                    options.progress?(bytesRead, input.size)
                    if let fatal = result.fatal { throw fatal }
                })
            if let line = oversizedLine { try passOversizedRecord(at: line, &totals) }
        } while oversizedLine != nil
    }

    /// The chunks before it are written; now pass the long record without holding it.
    private func passOversizedRecord(at line: Int, _ totals: inout RunTotals) throws(MaskCleanError) {
        let problem = RecordProblem.tooLong(
            maximum: reader.maximumRecordBytes, insideQuotedField: reader.isInsideQuotedField)
        guard options.policy != .fail else { throw .data(input.name, line: line, problem.message) }
        try reader.skipOversizedRecord { (bytes: UnsafeBufferPointer<UInt8>) throws(MaskCleanError) in
            try outputs.writeQuarantine(UnsafeRawBufferPointer(bytes))
        }
        totals.addOversizedRecord(line: line, problem)
    }

    /// The most records to a chunk when the spec's formats write much per record: each chunk's
    /// output then stays near 4 MiB, whatever the records' length. Nil for ordinary specs, whose
    /// chunks are cut by input size alone.
    static func recordBudget(_ spec: Spec) -> Int? {
        let perRecord = spec.columns.reduce(0) { total, column in
            let texts = [column.formattedColumn, column.extractedColumn, column.templateColumn].count {
                $0 != nil
            }
            return total + column.mask.formatCharacterBytes * (texts + (column.replace != nil ? 1 : 0))
        }
        guard perRecord > 256 else { return nil }
        return max(1, (4 << 20) / perRecord)
    }
}
