import Foundation
import Testing

@testable import MaskClean

/// The pipeline keeps every worker busy however its chunks are read: the input bytes a claim
/// holds in flight come back once the chunk is written, so the budget never fills with chunks
/// long gone (a chunk read under the claim was counted by its buffer, emptied once masked, and
/// after a few chunks the workers took turns: a `.gz` input ran on one core).
@Suite("Chunk pipeline")
struct ChunkPipelineTests {
    /// Masks nothing; notes how many chunks are being masked at once, chunk by chunk.
    final class Overlap: ChunkProcessor, @unchecked Sendable {
        static let lock = Lock()
        nonisolated(unsafe) static var busy = 0
        nonisolated(unsafe) static var overlapping: Set<Int> = []

        func process(_ chunk: Chunk, into output: ByteBuffer) -> ChunkResult {
            Self.lock.withLock { Self.busy += 1 }
            // Long enough for the other worker to start its chunk meanwhile, if it may.
            for _ in 0..<20 {
                usleep(500)
                if Self.lock.withLock({ Self.busy }) > 1 {
                    Self.lock.withLock { _ = Self.overlapping.insert(chunk.firstLine) }
                }
            }
            Self.lock.withLock { Self.busy -= 1 }
            return ChunkResult(output: output)
        }
    }

    @Test("chunks read under the claim: two workers mask at once from the first chunk to the last")
    func claimedChunksOverlap() throws {
        let pool = BufferPool(initialCapacity: 1000)
        let pipeline = ChunkPipeline(
            workers: 2, makeProcessor: { Overlap() }, inputs: pool, chunkSize: 1000)
        var next = 0
        var written: [Int] = []
        try pipeline.run(
            nextChunk: { (buffer: ByteBuffer?) throws(MaskCleanError) -> ChunkPipeline.Claimed? in
                guard next < 40 else { return nil }
                let bytes = buffer ?? pool.take()
                bytes.append(Array(repeating: UInt8(ascii: "a"), count: 1000))
                next += 1
                return .chunk((Chunk(buffer: bytes, firstLine: next, isLast: next == 40), next * 1000))
            },
            consume: { (_: ChunkResult, bytesRead: Int) throws(MaskCleanError) in written.append(bytesRead) })
        #expect(written == (1...40).map { $0 * 1000 })
        // What kept the workers apart: the budget never emptied. (Deterministic, where the
        // overlap below needs the scheduler to give both workers a thread.)
        #expect(pipeline.inFlightBytes == 0)
        // Past the first in-flight budget (8 chunks of 1000 bytes), chunks still overlap; only
        // when this process has a spare thread for the second worker (a loaded test run, under a
        // sanitizer, may not).
        let late = Overlap.lock.withLock { Overlap.overlapping.filter { $0 > 16 }.count }
        let early = Overlap.lock.withLock { Overlap.overlapping.filter { $0 <= 8 }.count }
        if early > 4 {
            #expect(late > 10, "chunks after the 16th masked alongside another: \(late)")
        }
    }
}
