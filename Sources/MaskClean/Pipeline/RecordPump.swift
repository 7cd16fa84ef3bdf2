/// Moves every chunk of the input through the processors and writes the results in input order:
/// the records and the quarantine to the outputs, the counts into the totals. A record too long
/// to hold is passed over as it is read.
///
/// A plain file is read in ranges, each by the worker that masks it (`RangedChunks`); anything
/// else (standard input, a compressed or converted input, a JSON array, a spec whose records are
/// cut by count), and the rest of a file where a range finds no line end within the longest
/// record, is read in order (`ChunkReader`).
struct RecordPump<Splitter: RecordSplitter> {
    let input: InputFile
    /// The splitter at the first record's start.
    let splitter: Splitter
    /// What the source read of the input before its first record.
    let start: InputStart
    let options: RunOptions
    let outputs: Outputs

    /// Pumps until the input ends; errors end the run once the chunks in flight are done.
    func run(
        spec: Spec, framing: inout RecordFraming, totals: inout RunTotals,
        makeProcessor: @escaping () -> ChunkProcessor
    ) throws(MaskCleanError) {
        let recordBudget = Self.recordBudget(spec)
        // Whatever a caller asks for, no more workers than this: each is a thread's worth of
        // buffers, and the cores are far fewer.
        let compression = options.recordsCompression.map {
            ChunkCompression(
                compression: $0, level: options.compressionLevel, separatorApart: framing.format == .json)
        }
        let pool = BufferPool(initialCapacity: options.chunkSize * 2)
        let pipeline = ChunkPipeline(
            workers: min(max(1, options.jobs), 256), makeProcessor: makeProcessor, inputs: pool,
            chunkSize: options.chunkSize, compression: compression, clock: options.pipelineClock)
        func consume(_ result: ChunkResult, bytesRead: Int) throws(MaskCleanError) {
            totals.add(result)
            if compression != nil {
                try outputs.writeCompressedRecords(
                    UnsafeRawBufferPointer(
                        framing.compressedRecords(
                            result.output.bytes, separatorMember: result.separatorMemberLength))
                )
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
        }
        var leftover = start.leftover
        var firstLine = start.nextLine
        var firstOffset = 0
        if recordBudget == nil, let dataStart = input.offsetOfUnreadText.map({ $0 - leftover.count }),
            let claim = rangedClaims(pool: pool)
        {
            guard let handOver = try pipeline.run(nextChunk: claim, consume: consume) else {
                try input.checkUnchangedAfterReadingAtOffsets()
                return
            }
            try input.continueReading(at: handOver.offset)
            leftover = []
            firstLine = handOver.line
            firstOffset = handOver.offset - dataStart
        }
        let reader = ChunkReader(
            input: input, splitter: splitter, chunkSize: options.chunkSize,
            maximumRecordBytes: options.maximumRecordBytes, leftover: leftover, firstLine: firstLine,
            firstOffset: firstOffset, pool: pool)
        reader.recordBudget = recordBudget
        // Several workers take chunks faster than one core decompresses them: decompressing
        // apart lets the one holding the reader's lock only copy and cut (issue 32). One job
        // reads the same blocks, decompressed as it needs them.
        input.startReadingAhead(onThread: options.jobs > 1)
        var oversizedLine: Int?
        repeat {
            oversizedLine = nil
            try pipeline.run(
                nextChunk: { (buffer: ByteBuffer?) throws(MaskCleanError) -> ChunkPipeline.Claimed? in
                    guard oversizedLine == nil, let event = try reader.next(into: buffer) else { return nil }
                    switch event {
                    case .chunk(let chunk):
                        return .chunk(
                            (chunk, input.isCompressed ? input.fileBytesReadByNow : reader.bytesRead))
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
                consume: consume)
            if let line = oversizedLine { try passOversizedRecord(at: line, reader, &totals) }
        } while oversizedLine != nil
    }

    /// Claims of ranges of the input, when it is a plain file whose records a worker can find
    /// from any line's start.
    private func rangedClaims(pool: BufferPool) -> (
        (ByteBuffer?) throws(MaskCleanError) -> ChunkPipeline.Claimed?
    )? {
        guard let lineStart = splitter as? any LineStartSplitter else { return nil }
        return rangedClaims(lineStart, pool: pool)
    }

    private func rangedClaims<Lines: LineStartSplitter>(_ splitter: Lines, pool: BufferPool)
        -> ((ByteBuffer?) throws(MaskCleanError) -> ChunkPipeline.Claimed?)?
    {
        guard
            let ranges = RangedChunks(
                input: input, recordStart: splitter, leftover: start.leftover.count,
                firstLine: start.nextLine,
                chunkSize: options.chunkSize, maximumRecordBytes: options.maximumRecordBytes, pool: pool)
        else { return nil }
        return { (buffer) throws(MaskCleanError) in try ranges.claim(into: buffer) }
    }

    /// The chunks before it are written; now pass the long record without holding it.
    private func passOversizedRecord(at line: Int, _ reader: ChunkReader<Splitter>, _ totals: inout RunTotals)
        throws(MaskCleanError)
    {
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
