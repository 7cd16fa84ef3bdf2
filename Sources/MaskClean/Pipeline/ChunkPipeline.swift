import Dispatch
import FoundationEssentials

/// Masks chunks in parallel and hands their results on strictly in input order, each chunk's
/// whole life on one thread: a worker claims it (one at a time, in input order), reads it
/// (straight into the chunk's own buffer: under the claim for a stream, after it for a range of
/// a plain file, `RangedChunks`), masks it, and writes it when every chunk before it is written.
///
/// Exactly `jobs` workers run, the calling thread one of them, so no reader or writer thread
/// competes with them for a core: a chunk read on one core and masked on another, or written by
/// a thread of its own, cost a tenth more CPU than one job. A worker whose chunk is done before
/// the one ahead of it leaves its result for that chunk's worker to write, and reads on.
///
/// At most `2 × jobs` chunks, and about `2 × jobs` chunk sizes of input, are in flight, so memory
/// is bounded by the chunk size, not the file size nor its longest record (a chunk of one 30 MB
/// record is masked alone), and the chunks' buffers are reused. With one job everything runs on
/// the calling thread, in the same chunks, so the output is byte for byte the same.
final class ChunkPipeline: @unchecked Sendable {
    /// A chunk read, with the input bytes read by then (for the progress bar).
    typealias Input = (chunk: Chunk, bytesRead: Int)

    /// A chunk claimed under the reader's lock: read already, or a range of the file that the
    /// claiming worker reads once it has let go of the lock.
    enum Claimed {
        case chunk(Input)
        case range(inputBytes: Int, load: () throws(MaskCleanError) -> Loaded)

        /// The input bytes the claim holds in flight.
        var inputBytes: Int {
            switch self {
            case .chunk(let input): input.chunk.bytes.count
            case .range(let inputBytes, _): inputBytes
            }
        }
    }

    /// A range read: its chunk, or where the reading in order takes over instead.
    enum Loaded {
        case chunk(Input)
        case handOver(HandOver)
    }

    /// Where the records not yet read start: the file offset, and the physical line.
    struct HandOver: Equatable {
        var offset: Int
        var line: Int
    }

    /// How many chunks may be masked at once.
    private let workers: Int
    /// Makes a processor when a worker has a chunk and none is idle: workers cost nothing until
    /// a chunk is there for them (`--jobs 256` on a small file makes one).
    private let makeProcessor: () -> ChunkProcessor
    /// Where the chunks' buffers go back to once masked.
    private let inputs: BufferPool
    /// The buffers the processors write into, back from the writer once written.
    private let outputs: BufferPool
    /// Input bytes in flight past which no more chunk is read.
    private let inFlightBudget: Int
    /// Set when the records are written compressed: each worker compresses its own chunks, so
    /// compression scales with the workers.
    private let compression: ChunkCompression?
    /// Given when the serial stages' CPU time is measured (`PipelineClock`).
    private let clock: PipelineClock?

    /// Held by the one worker reading: chunks are cut in input order.
    private let reading = Lock()
    private let condition = Condition()
    // Guarded by `condition`:
    private var idle: [ChunkProcessor] = []
    /// Output buffers written out, by the worker that filled them, for it to fill again.
    private var outputsOf: [Int: [ByteBuffer]] = [:]
    private var state = RunState()

    /// Where one run of the pipeline stands.
    private struct RunState {
        /// Chunks read (the next one's index), and chunks written or given up.
        var read = 0
        var written = 0
        var inFlightBytes = 0
        /// Results done before the chunks ahead of them, by chunk index.
        var waiting: [Int: Outcome] = [:]
        /// A worker is writing results in order; others leave theirs to it.
        var writing = false
        var inputDone = false
        /// The first error in input order; nothing after it is written.
        var failure: MaskCleanError?
        /// Where the reading in order takes over; nothing after it is written.
        var handOver: HandOver?

        var isStopped: Bool { failure != nil || handOver != nil }
    }

    /// What became of one chunk of the input.
    private enum Outcome {
        case masked(ChunkResult, inputBytes: Int, bytesRead: Int, worker: Int)
        /// Reading failed where this chunk would have begun.
        case unreadable(MaskCleanError)
        /// The chunk's records are left to the reading in order, from where they start.
        case handOver(HandOver)
    }

    init(
        workers: Int, makeProcessor: @escaping () -> ChunkProcessor, inputs: BufferPool, chunkSize: Int,
        compression: ChunkCompression? = nil, clock: PipelineClock? = nil
    ) {
        self.compression = compression
        self.clock = clock
        self.workers = max(1, workers)
        self.inFlightBudget = self.workers * 4 * chunkSize
        self.makeProcessor = makeProcessor
        self.inputs = inputs
        self.outputs = BufferPool(initialCapacity: chunkSize * 2)
    }

    /// Masks every chunk `nextChunk` gives and passes the results, in order, to `consume`.
    /// `nextChunk` is called by one worker at a time, `consume` likewise and in input order. An
    /// error from either ends the run once the chunks in flight are done; the earliest in input
    /// order is the one thrown. Returns where the reading in order takes over, when a range
    /// said so.
    @discardableResult
    func run(
        nextChunk: (_ into: ByteBuffer?) throws(MaskCleanError) -> Claimed?,
        consume: (ChunkResult, _ bytesRead: Int) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) -> HandOver? {
        state = RunState()
        withoutActuallyEscaping(nextChunk) { nextChunk in
            withoutActuallyEscaping(consume) { consume in
                let ends = Ends(nextChunk: nextChunk, consume: consume)
                if workers == 1 {
                    work(ends, worker: 0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: workers) { work(ends, worker: $0) }
                }
            }
        }
        if let failure = state.failure { throw failure }
        return state.handOver
    }

    /// The run's two ends, shared by its workers: the pipeline calls `nextChunk` only while it
    /// holds `reading`, and `consume` only as the one writer, in turn; neither outlives the run,
    /// which returns once every worker is done.
    private struct Ends: @unchecked Sendable {
        let nextChunk: (ByteBuffer?) throws(MaskCleanError) -> Claimed?
        let consume: (ChunkResult, Int) throws(MaskCleanError) -> Void
    }

    /// One worker: read a chunk, mask it, write it in its turn, until the input ends.
    ///
    /// A worker reads its next chunk into the buffer it read the last one into, and masks into
    /// an output buffer it filled before: the bytes stay in its core's cache, where a buffer
    /// last filled by another core would have to be fetched from that one's.
    private func work(_ ends: Ends, worker: Int) {
        let started = clock != nil ? PipelineClock.threadNow() : 0
        defer { clock?.addWorker(since: started) }
        var processor: ChunkProcessor?
        var compressor: Compressor?
        var buffer: ByteBuffer?
        // A buffer given to the reader is the reader's.
        while let (index, claimed) = read(ends, into: buffer.take()) {
            // Taken now: a chunk read under the claim is counted by its buffer, which is emptied
            // for the next read once the chunk is masked.
            let inputBytes = claimed.inputBytes
            let input: Input
            switch claimed {
            case .chunk(let read):
                input = read
            case .range(_, let load):
                do throws(MaskCleanError) {
                    switch try load() {
                    case .chunk(let read):
                        input = read
                    case .handOver(let handOver):
                        finish(index, .handOver(handOver), ends)
                        continue
                    }
                } catch {
                    finish(index, .unreadable(error), ends)
                    continue
                }
            }
            if processor == nil { processor = condition.withLock { idle.popLast() } ?? makeProcessor() }
            let output = condition.withLock { outputsOf[worker]?.popLast() } ?? outputs.take()
            var result = processor!.process(input.chunk, into: output)
            if let compression {
                if compressor == nil {
                    compressor = Compressor(compression.compression, level: compression.level)
                }
                let packed = condition.withLock { outputsOf[worker]?.popLast() } ?? outputs.take()
                outputs.give(compression.compress(&result, into: packed, with: compressor!))
            }
            buffer = inputs.recycled(input.chunk.buffer)
            finish(
                index,
                .masked(result, inputBytes: inputBytes, bytesRead: input.bytesRead, worker: worker),
                ends)
        }
        condition.withLock {
            if let processor { idle.append(processor) }
            for output in outputsOf.removeValue(forKey: worker) ?? [] { outputs.give(output) }
        }
    }

    /// The next chunk and its index, once the chunks in flight leave room for it; nil when the
    /// input is done or the run failed.
    private func read(_ ends: Ends, into buffer: ByteBuffer?) -> (Int, Claimed)? {
        reading.lock()
        defer { reading.unlock() }
        condition.lock()
        while !state.inputDone && !state.isStopped && !hasRoom { condition.wait() }
        let done = state.inputDone || state.isStopped
        condition.unlock()
        guard !done else { return nil }
        let started = clock != nil ? PipelineClock.threadNow() : 0
        defer { clock?.addReading(since: started) }
        do {
            guard let claimed = try ends.nextChunk(buffer) else {
                condition.withLock {
                    state.inputDone = true
                    condition.broadcast()
                }
                return nil
            }
            let index = condition.withLock {
                state.read += 1
                state.inFlightBytes += claimed.inputBytes
                return state.read - 1
            }
            return (index, claimed)
        } catch {
            // The chunks before it are written first, so that an error in them (earlier in the
            // file) is the one reported.
            let index = condition.withLock {
                state.inputDone = true
                state.read += 1
                condition.broadcast()
                return state.read - 1
            }
            finish(index, .unreadable(error), ends)
            return nil
        }
    }

    /// The input bytes counted in flight: 0 once a run is done, or chunks read long ago keep
    /// the budget full (a chunk read under its claim was counted again at 0 bytes).
    var inFlightBytes: Int { condition.withLock { state.inFlightBytes } }

    /// Room for one more chunk: the window is not full, and the input in flight is within the
    /// budget (or none is in flight: a chunk of one huge record goes alone).
    private var hasRoom: Bool {
        let unwritten = state.read - state.written
        return unwritten < 2 * workers && (state.inFlightBytes < inFlightBudget || unwritten == 0)
    }

    /// Hands on a chunk's outcome: written now if every chunk before it is, and then the ones
    /// after it that were waiting; otherwise left for the worker of the chunk ahead.
    private func finish(_ index: Int, _ outcome: Outcome, _ ends: Ends) {
        condition.lock()
        defer { condition.unlock() }
        guard !state.isStopped else {
            release(outcome)
            return
        }
        state.waiting[index] = outcome
        guard !state.writing && index == state.written else { return }
        state.writing = true
        while let next = state.waiting.removeValue(forKey: state.written) {
            condition.unlock()
            var failure: MaskCleanError?
            var handOver: HandOver?
            var inputBytes = 0
            switch next {
            case .masked(let result, let size, let bytesRead, let worker):
                inputBytes = size
                let started = clock != nil ? PipelineClock.threadNow() : 0
                do throws(MaskCleanError) {
                    try ends.consume(result, bytesRead)
                } catch {
                    failure = error
                }
                clock?.addWriting(since: started)
                if let output = outputs.recycled(result.output) {
                    condition.withLock { outputsOf[worker, default: []].append(output) }
                }
            case .unreadable(let error):
                failure = error
            case .handOver(let resumed):
                handOver = resumed
            }
            condition.lock()
            state.written += 1
            state.inFlightBytes -= inputBytes
            if failure != nil || handOver != nil {
                state.failure = failure
                state.handOver = handOver
                for outcome in state.waiting.values { release(outcome) }
                state.waiting.removeAll()
                break
            }
        }
        state.writing = false
        condition.broadcast()
    }

    /// A result that will not be written: its buffer goes back.
    private func release(_ outcome: Outcome) {
        if case .masked(let result, _, _, _) = outcome { outputs.give(result.output) }
    }
}
