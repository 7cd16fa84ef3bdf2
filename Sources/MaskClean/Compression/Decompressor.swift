import CISAL
import CZlib
import CZstd

/// How a file's bytes are compressed (docs/record-formats.md): by its name's last extension, or
/// by its first bytes.
public enum Compression: String, Sendable, CaseIterable {
    case gzip, zstd

    /// The extension that names it: `.gz`, `.zst`.
    public var suffix: String {
        switch self {
        case .gzip: ".gz"
        case .zstd: ".zst"
        }
    }

    /// The compression a path's last extension names, if any: `x.csv.gz` is gzip.
    public static func fromSuffix(of path: String) -> Compression? {
        allCases.first { path.lowercased().hasSuffix($0.suffix) && path.count > $0.suffix.count }
    }

    /// The path without its compression extension: `x.csv.gz` is `x.csv`, whose own extension
    /// then says the record format.
    static func strippingSuffix(of path: String) -> String {
        guard let compression = fromSuffix(of: path) else { return path }
        return String(path.dropLast(compression.suffix.count))
    }

    /// As many bytes as `fromMagic` needs to decide.
    static let magicLength = 4

    /// The compression a stream's first bytes announce: gzip's `1f 8b`, a zstd frame's
    /// `28 b5 2f fd` or a zstd skippable frame's `5? 2a 4d 18`.
    static func fromMagic(_ bytes: UnsafeRawBufferPointer) -> Compression? {
        if bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B { return .gzip }
        guard bytes.count >= 4 else { return nil }
        if bytes[0] == 0x28 && bytes[1] == 0xB5 && bytes[2] == 0x2F && bytes[3] == 0xFD { return .zstd }
        if bytes[0] & 0xF0 == 0x50 && bytes[1] == 0x2A && bytes[2] == 0x4D && bytes[3] == 0x18 {
            return .zstd
        }
        return nil
    }
}

/// Turns a compressed stream back into its bytes, a buffer at a time, in bounded memory.
///
/// The stream may be several gzip members or zstd frames one after the other (`cat a.gz b.gz`,
/// split-and-compress tools): they are read as one text. It may end only where a member or frame
/// does; anything else after the last one is an error, never ignored.
final class Decompressor {
    /// Why the compressed bytes cannot be read: the words of a message about the input.
    enum Problem: Error, Equatable {
        case truncated
        case corrupt(String)
        case trailingData
        case outOfMemory
        /// A zstd frame needs a window of this many bytes (nil: more than the limit, how much
        /// unknown), more than `Decompressor.zstdWindowLimit`.
        case windowTooLarge(Int?)

        func reason(_ compression: Compression) -> String {
            switch self {
            case .truncated: "compressed data ends early (truncated download?)"
            case .corrupt(let detail): "\(compression.rawValue) data is corrupt (\(detail))"
            case .trailingData:
                "data after the last \(compression == .gzip ? "gzip member" : "zstd frame") is not \(compression.rawValue) (trailing garbage)"
            case .outOfMemory: "not enough memory to decompress it"
            case .windowTooLarge(let bytes):
                "a zstd frame needs \(bytes.map { "a window of \(byteCount($0))" } ?? "a larger window") to decompress"
                    + (bytes.map { " (made with zstd --long=\(Decompressor.windowLog(of: $0))?)" } ?? "")
                    + ", more than the \(byteCount(Decompressor.zstdWindowLimit)) maskclean reads: recompress it"
                    + " with a smaller window (zstd --long=\(Decompressor.zstdWindowLog))"
            }
        }
    }

    /// The largest window a zstd frame may need, 2^27 bytes (128 MiB): zstd's own default limit,
    /// and what `zstd --long` makes. The window is memory held while the frame is read; a frame
    /// that needs more (`zstd --long=31` makes 2 GiB windows) is refused before any is allocated.
    static let zstdWindowLog = 27
    static var zstdWindowLimit: Int { 1 << zstdWindowLog }

    let compression: Compression
    /// Set when gzip is inflated by ISA-L (`GzipInflater.igzip`), with its state.
    private var igzip: (library: Igzip, state: UnsafeMutablePointer<inflate_state>)?
    /// igzip: the header of the member being read, which maskclean reads (`GzipHeader`).
    private var memberHeader = GzipHeader()
    private var gzipStream: ZlibStream?
    private var gzip: UnsafeMutablePointer<z_stream>? { gzipStream?.pointer }
    private var zstd: OpaquePointer?
    /// The stream so far ends where a member or frame ends: the input may end here.
    private(set) var isAtEnd = false
    /// The first bytes of the zstd frame being read, as many as its header may take: what a
    /// frame's window is read from when libzstd refuses it as too large.
    private var frameHeader: [UInt8] = []

    /// `inflater` nil: the fastest the system has.
    init(_ compression: Compression, inflater: GzipInflater? = nil) throws(Problem) {
        self.compression = compression
        switch compression {
        case .gzip where (inflater ?? .fastest) == .igzip && Igzip.library != nil:
            let state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
            Igzip.library!.start(state)
            // The member's data and trailer only: its header is read by `memberHeader`.
            state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR_VER)
            igzip = (Igzip.library!, state)
        case .gzip:
            // 15 + 16: a 32 KiB window, gzip framing only (its header and CRC are checked).
            guard let stream = ZlibStream(start: { maskclean_inflate_init($0, 15 + 16) }, end: inflateEnd)
            else {
                throw .outOfMemory
            }
            gzipStream = stream
        case .zstd:
            guard let stream = ZSTD_createDStream() else { throw .outOfMemory }
            zstd = stream
            ZSTD_DCtx_setParameter(stream, ZSTD_d_windowLogMax, Int32(Self.zstdWindowLog))
        }
    }

    deinit {
        if let zstd { ZSTD_freeDStream(zstd) }
        igzip?.state.deallocate()
    }

    /// Decompresses from the front of `input`, which is advanced past the bytes used, into
    /// `output`; returns how many bytes it wrote. Nothing written and nothing used means it needs
    /// more input than `input` holds to go on.
    func decompress(
        _ input: inout UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(Problem) -> Int {
        if let igzip { return try inflate(igzip.state, with: igzip.library, &input, into: output) }
        if let gzip { return try inflate(gzip, &input, into: output) }
        return try decompressFrames(zstd!, &input, into: output)
    }

    /// After a member, what follows must be another one, or the input's end: whether `input`
    /// (not empty) begins one, or (false) more bytes must tell; refused when it is not gzip.
    private func beginsAnotherMember(_ input: UnsafeRawBufferPointer) throws(Problem) -> Bool {
        if input.count < 2 && input[0] == 0x1F { return false }  // half a magic number: read on
        guard Compression.fromMagic(input) == .gzip else { throw .trailingData }
        return true
    }

    private func inflate(
        _ stream: UnsafeMutablePointer<z_stream>, _ input: inout UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(Problem) -> Int {
        var written = 0
        while written < output.count && !input.isEmpty {
            if isAtEnd {
                guard try beginsAnotherMember(input) else { break }
                inflateReset(stream)
                isAtEnd = false
            }
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(min(input.count, Int(UInt32.max)))
            stream.pointee.next_out = (output.baseAddress! + written).assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(min(output.count - written, Int(UInt32.max)))
            let before = (input: Int(stream.pointee.avail_in), output: Int(stream.pointee.avail_out))
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let used = before.input - Int(stream.pointee.avail_in)
            written += before.output - Int(stream.pointee.avail_out)
            input = UnsafeRawBufferPointer(rebasing: input[used...])
            switch status {
            case Z_STREAM_END: isAtEnd = true
            case Z_OK: continue
            case Z_BUF_ERROR: return written  // no progress possible: more input is needed
            case Z_MEM_ERROR: throw .outOfMemory
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                throw .corrupt(detail)
            }
        }
        return written
    }

    /// The same as zlib's, with ISA-L: members one after the other, each checked (its header,
    /// read by `GzipHeader`, and the CRC-32 and length of what it holds, by ISA-L).
    private func inflate(
        _ state: UnsafeMutablePointer<inflate_state>, with library: Igzip,
        _ input: inout UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(Problem) -> Int {
        var written = 0
        while written < output.count && !input.isEmpty {
            if isAtEnd {
                guard try beginsAnotherMember(input) else { break }
                library.reset(state)
                state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR_VER)
                isAtEnd = false
                memberHeader = GzipHeader()
            }
            if !memberHeader.isRead {
                guard try memberHeader.read(&input) else { break }
                continue
            }
            state.pointee.next_in = UnsafeMutablePointer(
                mutating: input.baseAddress!.assumingMemoryBound(to: UInt8.self))
            state.pointee.avail_in = UInt32(min(input.count, Int(UInt32.max)))
            state.pointee.next_out = (output.baseAddress! + written).assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_out = UInt32(min(output.count - written, Int(UInt32.max)))
            let before = (input: Int(state.pointee.avail_in), output: Int(state.pointee.avail_out))
            let status = library.inflate(state)
            let used = before.input - Int(state.pointee.avail_in)
            let produced = before.output - Int(state.pointee.avail_out)
            written += produced
            input = UnsafeRawBufferPointer(rebasing: input[used...])
            guard status >= 0 else { throw .corrupt(Igzip.detail(status)) }
            if state.pointee.block_state == ISAL_BLOCK_FINISH {
                isAtEnd = true
            } else if used == 0 && produced == 0 {
                return written  // no progress possible: more input is needed
            }
        }
        return written
    }

    private func decompressFrames(
        _ stream: OpaquePointer, _ input: inout UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(Problem) -> Int {
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var target = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        while target.pos < target.size && source.pos < source.size {
            let betweenFrames = isAtEnd
            let before = source.pos
            let result = ZSTD_decompressStream(stream, &target, &source)
            if ZSTD_isError(result) != 0 {
                if ZSTD_getErrorCode(result) == ZSTD_error_frameParameter_windowTooLarge {
                    // libzstd leaves the input where it was on an error: the header's rest is there.
                    keepFrameHeader(UnsafeRawBufferPointer(rebasing: input[before...]))
                    throw .windowTooLarge(Self.windowSize(frameHeader))
                }
                // After a whole frame, bytes that do not begin another are not zstd at all.
                if betweenFrames { throw .trailingData }
                throw .corrupt(String(cString: ZSTD_getErrorName(result)).lowercased())
            }
            keepFrameHeader(UnsafeRawBufferPointer(rebasing: input[before..<source.pos]))
            isAtEnd = result == 0
            if isAtEnd { frameHeader.removeAll(keepingCapacity: true) }
        }
        input = UnsafeRawBufferPointer(rebasing: input[source.pos...])
        return target.pos
    }

    /// Keeps what `used` holds of the current frame's header.
    private func keepFrameHeader(_ used: UnsafeRawBufferPointer) {
        let wanted = Self.largestFrameHeader - frameHeader.count
        if wanted > 0 { frameHeader += used.prefix(wanted) }
    }

    /// A zstd frame header's largest size: magic number, descriptor, window, dictionary, size.
    private static let largestFrameHeader = 18

    /// The window a zstd frame header asks for (RFC 8878, 3.1.1.1): its window descriptor, or
    /// for a single-segment frame its content's size. Nil when the header is not all there.
    static func windowSize(_ header: [UInt8]) -> Int? {
        guard header.count >= 6 else { return nil }
        let descriptor = header[4]
        guard descriptor & 0x20 != 0 else {
            let exponent = Int(header[5] >> 3)
            let mantissa = Int(header[5] & 7)
            let base = 1 << (10 + exponent)
            return base + base / 8 * mantissa
        }
        // Single segment: the window is the content, whose size follows the dictionary's id.
        let start = 5 + [0, 1, 2, 4][Int(descriptor & 3)]
        let length = [1, 2, 4, 8][Int(descriptor >> 6)]
        guard header.count >= start + length else { return nil }
        let size = header[start..<start + length].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(clamping: length == 2 ? size + 256 : size)
    }

    /// The `zstd --long=N` that makes a window of `bytes`: the base-2 logarithm, rounded up.
    static func windowLog(of bytes: Int) -> Int {
        Int.bitWidth - (bytes - 1).leadingZeroBitCount
    }
}
