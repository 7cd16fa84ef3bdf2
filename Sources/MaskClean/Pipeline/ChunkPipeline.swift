import Dispatch
import Foundation

/// Runs chunks through processors in parallel and hands their results back strictly in input
/// order. At most `2 × jobs` chunks, and about `2 × jobs` chunk sizes of input, are in flight,
/// so memory is bounded by the chunk size, not the file size nor its longest record (a chunk of
/// one 30 MB record is masked alone), and the chunks' buffers are reused. With one job everything
/// runs on the calling thread, in the same chunks, so the output is byte for byte the same.
final class ChunkPipeline: @unchecked Sendable {
    /// How many chunks may be masked at once.
    private let workers: Int
    /// Makes a processor when a chunk needs one and none is idle: workers cost nothing until a
    /// chunk is there for them (`--jobs 256` on a small file makes one).
    private let makeProcessor: () -> ChunkProcessor
    /// Where the chunks' buffers go back to once masked.
    private let inputs: BufferPool
    /// The buffers the processors write into, back from the writer once written.
    private let outputs: BufferPool
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var idle: [ChunkProcessor] = []
    private var created = 0
    private var finished: [Int: ChunkResult] = [:]

    /// Input bytes in flight past which no more chunk is read.
    private let inFlightBudget: Int

    init(
        workers: Int, makeProcessor: @escaping () -> ChunkProcessor, inputs: BufferPool, chunkSize: Int
    ) {
        self.workers = max(1, workers)
        self.inFlightBudget = self.workers * 2 * chunkSize
        self.makeProcessor = makeProcessor
        self.inputs = inputs
        self.outputs = BufferPool(initialCapacity: chunkSize * 2)
    }

    /// Feeds every chunk `nextChunk` gives to the processors and passes the results, in order,
    /// to `consume`. Errors from either end the run once the chunks in flight are done.
    func run(
        nextChunk: () throws(MaskCleanError) -> Chunk?,
        consume: (ChunkResult) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) {
        if workers == 1 {
            var processor: ChunkProcessor?
            while let chunk = try nextChunk() {
                if processor == nil { processor = makeProcessor() }
                let result = process(chunk, with: processor!)
                try consume(result)
                outputs.give(result.output)
            }
            return
        }
        let window = workers * 2
        var submitted = 0
        var written = 0
        var failure: MaskCleanError?
        // An input that fails after good chunks: those are consumed first, so that an error in
        // them (earlier in the file) is the one reported.
        var inputFailure: MaskCleanError?
        var inputDone = false
        var inFlightBytes = 0
        var sizes: [Int: Int] = [:]
        while failure == nil {
            while !inputDone && submitted - written < window
                && (inFlightBytes < inFlightBudget || submitted == written)
            {
                do {
                    guard let chunk = try nextChunk() else {
                        inputDone = true
                        break
                    }
                    inFlightBytes += chunk.bytes.count
                    sizes[submitted] = chunk.bytes.count
                    submit(chunk, index: submitted)
                    submitted += 1
                } catch {
                    inputFailure = error
                    inputDone = true
                    break
                }
            }
            if failure != nil || written == submitted { break }
            let result = waitFor(written)
            inFlightBytes -= sizes.removeValue(forKey: written) ?? 0
            written += 1
            do {
                try consume(result)
                outputs.give(result.output)
            } catch {
                failure = error
            }
        }
        // Let the chunks in flight finish before their processors and buffers go away.
        while written < submitted {
            _ = waitFor(written)
            written += 1
        }
        if let failure { throw failure }
        if let inputFailure { throw inputFailure }
    }

    private func submit(_ chunk: Chunk, index: Int) {
        DispatchQueue.global().async { [self] in
            condition.lock()
            while idle.isEmpty && created == workers { condition.wait() }
            let reused = idle.popLast()
            if reused == nil { created += 1 }
            condition.unlock()
            let worker = reused ?? makeProcessor()
            let result = process(chunk, with: worker)
            condition.lock()
            idle.append(worker)
            finished[index] = result
            condition.broadcast()
            condition.unlock()
        }
    }

    private func process(_ chunk: Chunk, with processor: ChunkProcessor) -> ChunkResult {
        let result = processor.process(chunk, into: outputs.take())
        inputs.give(chunk.buffer)
        return result
    }

    private func waitFor(_ index: Int) -> ChunkResult {
        condition.lock()
        defer { condition.unlock() }
        while finished[index] == nil { condition.wait() }
        return finished.removeValue(forKey: index)!
    }
}
