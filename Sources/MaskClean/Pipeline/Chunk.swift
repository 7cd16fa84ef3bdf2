/// A run of whole records cut from the input, with where it starts.
struct Chunk: Sendable {
    /// The chunk's bytes; the buffer goes back to the reader's pool once the chunk is masked.
    var buffer: ByteBuffer
    /// The physical line of the input its first byte is on.
    var firstLine: Int
    /// The last chunk of the input: a record may end without a line break.
    var isLast: Bool
    /// The first chunk of the input; every other one starts just after a record boundary.
    var isFirst = false
    /// Where its first byte is among the bytes the chunk reader read, counted from the first
    /// after the header: a record's place in the input, however the input is cut into chunks.
    var firstOffset = 0

    var bytes: UnsafeBufferPointer<UInt8> { buffer.bytes }
}

/// What masking a chunk gives: the output bytes in order, and the counts to merge.
struct ChunkResult: Sendable {
    var output = ByteBuffer()
    /// The bad records, byte for byte as read (`--quarantine`).
    var quarantine: [UInt8] = []
    /// Records read, rejected ones included.
    var rows = 0
    var stats: [ColumnStats] = []
    var rejections: [Rejection] = []
    /// CSV with several columns: blank lines skipped, and the first few of their line numbers.
    var blankLines = 0
    var blankLineNumbers: [Int] = []
    /// JSON: for each masked key, whether a record of the chunk has it (null included), and the
    /// keys of the chunk's first record, to suggest a name when a masked key is in no record.
    var maskedKeysSeen: [Bool] = []
    var keysSeen: [String] = []
    /// With `--on-error fail`: the first bad record ends the run.
    var fatal: MaskCleanError?
    /// Set when the worker compressed `output` (`ChunkCompression`) with the record separator
    /// before the chunk's first record in a member of its own: that member's length, which the
    /// output's first record goes without.
    var separatorMemberLength: Int?
}

/// How the workers compress the records they mask, chunk by chunk (docs/record-formats.md).
struct ChunkCompression: Sendable {
    var compression: Compression
    var level: Int?
    /// A JSON array's first record loses the separator before it, and only the writer knows
    /// which chunk holds that record: the separator goes in a member of its own.
    var separatorApart: Bool

    /// Compresses `result`'s records into `packed`, which it then carries; returns the buffer
    /// the records were in.
    func compress(_ result: inout ChunkResult, into packed: ByteBuffer, with compressor: Compressor)
        -> ByteBuffer
    {
        let plain = result.output
        let bytes = UnsafeRawBufferPointer(plain.bytes)
        if !bytes.isEmpty {
            var rest = bytes
            if separatorApart {
                compressor.compress(UnsafeRawBufferPointer(rebasing: bytes.prefix(1)), appendingTo: packed)
                result.separatorMemberLength = packed.count
                rest = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
            }
            compressor.compress(rest, appendingTo: packed)
        }
        result.output = packed
        return plain
    }
}

/// What to do with a record that cannot be read (`--on-error`, `--quarantine`).
public enum ErrorPolicy: Sendable, Equatable {
    /// Stop the run with exit 65 (the default).
    case fail
    /// Leave the record out and keep going; the report counts it.
    case skip
    /// Like skip, and write the record as it was read to the quarantine file.
    case quarantine
}

/// Masks chunks. One instance per worker thread: it owns the parser and buffers it reuses.
protocol ChunkProcessor: AnyObject {
    /// Masks `chunk`, writing the records to `output` (empty), which the result carries.
    func process(_ chunk: Chunk, into output: ByteBuffer) -> ChunkResult
}
