import Dispatch
import Foundation

/// Runs chunks through processors in parallel and hands their results back strictly in input
/// order. At most `2 × jobs` chunks are in flight, so memory is bounded by the chunk size, not
/// the file size, and the chunks' buffers are reused. With one job everything runs on the calling thread, in the same chunks, so
/// the output is byte for byte the same.
final class ChunkPipeline: @unchecked Sendable {
    private let processors: [ChunkProcessor]
    /// Where the chunks' buffers go back to once masked.
    private let inputs: BufferPool
    /// The buffers the processors write into, back from the writer once written.
    private let outputs: BufferPool
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var idle: [Int]
    private var finished: [Int: ChunkResult] = [:]

    init(processors: [ChunkProcessor], inputs: BufferPool, outputCapacity: Int) {
        precondition(!processors.isEmpty)
        self.processors = processors
        self.inputs = inputs
        self.outputs = BufferPool(initialCapacity: outputCapacity)
        self.idle = Array(processors.indices)
    }

    /// Feeds every chunk `nextChunk` gives to the processors and passes the results, in order,
    /// to `consume`. Errors from either end the run once the chunks in flight are done.
    func run(
        nextChunk: () throws(MaskCleanError) -> Chunk?,
        consume: (ChunkResult) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) {
        if processors.count == 1 {
            while let chunk = try nextChunk() {
                let result = process(chunk, with: processors[0])
                try consume(result)
                outputs.give(result.output)
            }
            return
        }
        let window = processors.count * 2
        var submitted = 0
        var written = 0
        var failure: MaskCleanError?
        // An input that fails after good chunks: those are consumed first, so that an error in
        // them (earlier in the file) is the one reported.
        var inputFailure: MaskCleanError?
        var inputDone = false
        while failure == nil {
            while !inputDone && submitted - written < window {
                do {
                    guard let chunk = try nextChunk() else {
                        inputDone = true
                        break
                    }
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
            while idle.isEmpty { condition.wait() }
            let worker = idle.removeLast()
            condition.unlock()
            let result = process(chunk, with: processors[worker])
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
