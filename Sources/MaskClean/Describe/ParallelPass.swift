import Dispatch
import FoundationEssentials

/// `describe`'s second reading in several threads (`RecordPass.read(_:workers:...)`): masking
/// every record with what it proposes costs about what a `check` costs, and a check masks its
/// chunks in parallel. One chunk of records is read at a time, in turn; each worker parses the
/// chunk it took and hands its records to its own state, which the caller adds up at the end.
/// The first bad record in input order is the error thrown, as a serial reading would throw it.
extension RecordPass {
    /// Reads `input`'s records as `read(_:header:record:)` does, with one worker per element of
    /// `workers`: `record` gets each record with the state of the worker that parsed it, and its
    /// place in the input. Returns
    /// how many records were read and the workers' states. `--head` reads serially (a limit in
    /// records needs the records in order), as does a single worker.
    func read<Worker>(
        _ input: InputFile, workers: [Worker], header: ([String]) throws(MaskCleanError) -> Void,
        record: (inout Worker, RecordBatch, RecordBatch.Record, Int, [String]?) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) -> (records: Int, workers: [Worker]) {
        var workers = workers
        guard workers.count > 1, limit == Int.max else {
            let records = try read(input, header: header) {
                (batch, one, offset, names) throws(MaskCleanError) in
                try record(&workers[0], batch, one, offset, names)
            }
            return (records, workers)
        }
        let records: Int
        switch format {
        case .csv, .tsv:
            records = try read(CSVSource(input: input, settings), input, &workers, header, record)
        case .ndjson:
            records = try read(NDJSONSource(input: input, settings), input, &workers, header, record)
        case .json:
            records = try read(JSONArraySource(input: input, settings), input, &workers, header, record)
        }
        return (records, workers)
    }

    private func read<Source: RecordSource, Worker>(
        _ source: Source, _ input: InputFile, _ workers: inout [Worker],
        _ header: ([String]) throws(MaskCleanError) -> Void,
        _ body: (inout Worker, RecordBatch, RecordBatch.Record, Int, [String]?) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) -> Int {
        let (start, reader) = try begin(source, input, header)
        let turns = Turns(readers: (0..<workers.count).map { _ in source.makeReader() })
        let names = start.columnNames
        let inputName = input.name
        workers.withUnsafeMutableBufferPointer { states in
            withoutActuallyEscaping(body) { body in
                let shared = Shared(states: states, body: body, reader: reader)
                let loop = WorkerLoop { shared.work($0, turns, names: names, inputName: inputName) }
                DispatchQueue.concurrentPerform(iterations: states.count) { loop.run($0) }
            }
        }
        if let failure = turns.failure { throw failure.error }
        return turns.records
    }
}

/// What the workers of one reading share: the chunk reader, taken in turn, the records counted
/// and the earliest failure in input order.
private final class Turns: @unchecked Sendable {
    let lock = Lock()
    let readers: [any RecordReader]
    private(set) var records = 0
    private(set) var failure: (chunk: Int, error: MaskCleanError)?
    private var nextChunk = 0

    init(readers: [any RecordReader]) { self.readers = readers }

    /// The next chunk and its place in the input, or nil once the input ends or a chunk failed:
    /// a record too long or a broken array is a failure at its place, as a serial reading
    /// stops there.
    func next<Splitter>(_ reader: ChunkReader<Splitter>, into buffer: ByteBuffer?, inputName: String)
        -> (index: Int, chunk: Chunk)?
    {
        lock.withLock {
            guard failure == nil else { return nil }
            let index = nextChunk
            nextChunk += 1
            do throws(MaskCleanError) {
                switch try reader.next(into: buffer) {
                case nil: return nil
                case .chunk(let chunk): return (index, chunk)
                case let event?: throw RecordPass.failure(event, reader, inputName)
                }
            } catch {
                failure = (index, error)
                return nil
            }
        }
    }

    /// Keeps `error` if it comes before any kept so far.
    func fail(_ chunk: Int, _ error: MaskCleanError) {
        lock.withLock {
            if failure == nil || chunk < failure!.chunk { failure = (chunk, error) }
        }
    }

    func count(_ records: Int) { lock.withLock { self.records += records } }
}

/// A worker's loop, without its types: the threads capture it alone.
private struct WorkerLoop: @unchecked Sendable {
    let run: (Int) -> Void
}

/// The workers' states and the caller's body, for the threads of one reading: each worker
/// touches only its own state, and none outlives the reading, which returns once all are done.
private struct Shared<Worker, Splitter: RecordSplitter>: @unchecked Sendable {
    let states: UnsafeMutableBufferPointer<Worker>
    let body: (inout Worker, RecordBatch, RecordBatch.Record, Int, [String]?) throws(MaskCleanError) -> Void
    let reader: ChunkReader<Splitter>

    func work(_ worker: Int, _ turns: Turns, names: [String]?, inputName: String) {
        let recordReader = turns.readers[worker]
        var buffer: ByteBuffer?
        while let (index, chunk) = turns.next(reader, into: buffer.take(), inputName: inputName) {
            recordReader.read(chunk)
            let batch = recordReader.batch
            var records = 0
            do throws(MaskCleanError) {
                for position in 0..<batch.records.count {
                    let record = batch.records[position]
                    if record.problem >= 0 {
                        throw .data(inputName, line: record.line, batch.problems[record.problem].message)
                    }
                    try body(&states[worker], batch, record, chunk.firstOffset + record.raw.lowerBound, names)
                    records += 1
                }
                if let fatal = batch.fatal { throw fatal }
            } catch {
                turns.fail(index, error)
            }
            turns.count(records)
            buffer = chunk.buffer
        }
    }
}
