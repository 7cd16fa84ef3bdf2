import CZlib
import CZstd

/// Compresses output a piece at a time, each piece into a whole gzip member or zstd frame.
///
/// Pieces compressed apart, on any worker, and written one after the other form one file that
/// every gzip or zstd reader reads whole: that is what lets compression run on the workers, chunk
/// by chunk, and scale with `--jobs` (docs/record-formats.md). One compressor per thread.
public final class Compressor {
    let compression: Compression
    let level: Int
    private var gzipStream: ZlibStream?
    private var gzip: UnsafeMutablePointer<z_stream>? { gzipStream?.pointer }
    private var zstd: OpaquePointer?

    /// Fast levels by default: a nightly export is compressed for transfer and storage, and
    /// gzip's usual 6 costs about three times level 1's CPU for a few percent less size.
    public static func defaultLevel(_ compression: Compression) -> Int {
        switch compression {
        case .gzip: 1
        case .zstd: 1
        }
    }

    /// The levels a user may ask for.
    public static func levels(_ compression: Compression) -> ClosedRange<Int> {
        switch compression {
        case .gzip: 1...9
        case .zstd: 1...Int(ZSTD_maxCLevel())
        }
    }

    /// A compressor at `level`, or the compression's default level.
    init(_ compression: Compression, level: Int? = nil) {
        let level = level ?? Self.defaultLevel(compression)
        self.compression = compression
        self.level = level
        switch compression {
        case .gzip:
            // 15 + 16: a 32 KiB window and gzip framing (header, CRC-32, length).
            let stream = ZlibStream(
                start: { maskclean_deflate_init($0, Int32(level), 15 + 16) }, end: deflateEnd)
            precondition(stream != nil, "zlib could not start a gzip stream")
            gzipStream = stream
        case .zstd:
            let context = ZSTD_createCCtx()
            precondition(context != nil, "libzstd could not make a compression context")
            ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, Int32(level))
            // Each frame carries its checksum, as the zstd tool's do: a damaged copy is caught.
            ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
            zstd = context
        }
    }

    deinit {
        if let zstd { ZSTD_freeCCtx(zstd) }
    }

    /// Appends `bytes`, compressed into one member or frame, to `output`.
    func compress(_ bytes: UnsafeRawBufferPointer, appendingTo output: ByteBuffer) {
        if let gzip {
            deflateReset(gzip)
            let bound = Int(deflateBound(gzip, uLong(bytes.count)))
            _ = output.appendFilling(upTo: bound) { target in
                gzip.pointee.next_in = UnsafeMutablePointer(
                    mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
                gzip.pointee.avail_in = uInt(bytes.count)
                gzip.pointee.next_out = target.baseAddress!.assumingMemoryBound(to: Bytef.self)
                gzip.pointee.avail_out = uInt(target.count)
                // With deflateBound's room, one call with Z_FINISH compresses it all.
                let status = deflate(gzip, Z_FINISH)
                precondition(status == Z_STREAM_END, "zlib did not finish a member (\(status))")
                return target.count - Int(gzip.pointee.avail_out)
            }
        } else if let zstd {
            let bound = ZSTD_compressBound(bytes.count)
            _ = output.appendFilling(upTo: bound) { target in
                let written = ZSTD_compress2(
                    zstd, target.baseAddress, target.count, bytes.baseAddress, bytes.count)
                precondition(ZSTD_isError(written) == 0, String(cString: ZSTD_getErrorName(written)))
                return written
            }
        }
    }

    /// `bytes` compressed into one member or frame.
    func compressed(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let output = ByteBuffer(capacity: bytes.count / 2 + 64)
        compress(bytes, appendingTo: output)
        return Array(output.bytes)
    }
}
