/// Reads chunks of one record format into record batches: `CSVRecordReader`,
/// `JSONRecordReader`. A reader owns everything about its format (framing, quoting or escapes,
/// a broken record) and nothing about masking or output (docs/architecture.md).
protocol RecordReader: AnyObject {
    /// The batch `read` fills, the reader's own.
    var batch: RecordBatch { get }

    /// Fills `batch` with `chunk`'s records; its spans then point into the chunk.
    func read(_ chunk: Chunk)
}
