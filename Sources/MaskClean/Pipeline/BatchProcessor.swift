/// Masks chunks with one worker's reader, masking stage and writer: the reader fills a batch, the
/// stage masks it and has it written.
final class BatchProcessor<Reader: RecordReader>: ChunkProcessor {
    let reader: Reader
    let stage: MaskingStage

    init(reader: Reader, stage: MaskingStage) {
        self.reader = reader
        self.stage = stage
    }

    func process(_ chunk: Chunk, into output: ByteBuffer) -> ChunkResult {
        reader.read(chunk)
        return stage.process(reader.batch, into: output)
    }
}
