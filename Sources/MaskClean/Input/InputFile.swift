#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input opened for reading: a file, or standard input for `-`.
///
/// A gzip or zstd input (by its name's extension or its first bytes) is decompressed as it is
/// read: every reader sees the records' text, and messages name the file as given
/// (docs/record-formats.md).
public final class InputFile {
    /// How messages name the input: the path as given, or `stdin`.
    public let name: String
    /// The size in bytes when known (a regular file), for the progress bar.
    let size: Int?
    /// A regular file's modification time when opened: one rewritten to the same size while it
    /// is read changes it.
    private let modifiedWhenOpened: timespec?
    /// A regular file as it was when opened: the file it is (device and inode), its size and
    /// its modification time. Two openings of one path with the same version read the same
    /// bytes; `describe`, which reads its input twice, compares them.
    struct Version: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var seconds: Int
        var nanoseconds: Int
    }
    /// Nil for standard input, a pipe or a copy.
    let version: Version?
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// What the name's extension says the input is compressed with.
    private let namedCompression: Compression?
    /// Whether the first bytes have been looked at for a compression's magic number.
    private var sniffed = false
    /// Set when the input is compressed.
    private var decompressor: Decompressor?
    /// What inflates the input if it is gzip; set before the first read.
    var gzipInflater: GzipInflater?
    /// Set once a compressed input is decompressed ahead of the reads (`startReadingAhead`).
    private var readAhead: ReadAhead?
    /// Bytes read from the file but not yet handed on (or decompressed).
    private var pending = PendingBytes()
    /// The file's bytes read so far: for a compressed input, how far the progress bar is.
    private(set) var fileBytesRead = 0
    /// Whether the input is decompressed as it is read (known once reading has begun).
    var isCompressed: Bool { decompressor != nil }
    /// Where every byte read from the file goes too: `describe` reads standard input twice.
    var copy: InputCopy?
    /// Text read ahead by `peek`, which the next reads return first.
    private var peeked: ArraySlice<UInt8> = []
    /// Set when the input's text is in another encoding than UTF-8.
    private var decoder: TextDecoder?

    public init(path: String) throws(MaskCleanError) {
        if path == "-" {
            name = "stdin"
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            size = nil
            modifiedWhenOpened = nil
            version = nil
            namedCompression = nil
            return
        }
        name = path
        namedCompression = Compression.fromSuffix(of: path)
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw .noInput(path, systemError(errno)) }
        var info = stat()
        if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(opened)
            throw .noInput(path, "is a directory")
        }
        descriptor = opened
        ownsDescriptor = true
        let regular = (info.st_mode & S_IFMT) == S_IFREG
        size = regular ? Int(info.st_size) : nil
        modifiedWhenOpened = regular ? info.st_mtim : nil
        version =
            regular
            ? Version(
                device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
                seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
            : nil
    }

    /// A copy of what another input read (`InputCopy`), read as that input: named as it was,
    /// its size unknown, as standard input's is.
    init(copy: Int32, name: String) {
        self.name = name
        descriptor = copy
        ownsDescriptor = true
        size = nil
        modifiedWhenOpened = nil
        version = nil
        namedCompression = nil
    }

    deinit {
        readAhead?.stop()
        if ownsDescriptor { close(descriptor) }
    }

    /// Decompresses the rest of a compressed input ahead of the reads, on a thread of its own
    /// (`ReadAhead`): for a run whose workers take the input faster than one core inflates it.
    /// Without `onThread`, in the same blocks, by the reads: a run with one job reads the text
    /// in the same pieces as one with several, so that one that fails on a damaged stream has
    /// counted the same records whatever its jobs.
    func startReadingAhead(onThread: Bool = true) {
        guard let decompressor, readAhead == nil else { return }
        // The thread is stopped in `deinit` before anything of this input goes away.
        unowned(unsafe) let file = self
        readAhead = ReadAhead(
            onThread: onThread, fileBytesRead: { file.fileBytesRead },
            fill: { (buffer) throws(MaskCleanError) in try file.decompress(with: decompressor, into: buffer) }
        )
    }

    /// The file's bytes read so far, as far as the reads have come: for a compressed input, how
    /// far the progress bar is.
    var fileBytesReadByNow: Int { readAhead?.fileBytesReadSoFar ?? fileBytesRead }

    /// Reads up to `buffer.count` bytes of the input's text; 0 at its end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int {
        if peeked.startIndex < peeked.endIndex {
            let count = min(buffer.count, peeked.count)
            peeked.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            peeked.removeFirst(count)
            return count
        }
        return try readText(into: buffer)
    }

    /// Reads the input's first `count` bytes of text (fewer when it is shorter, or once they
    /// hold `lines` line feeds: a pipe that stays open is not waited on for more) without taking
    /// them: the reads after return them first. For what must be known of the text before it is
    /// read (`DelimiterDetection`). Returns them, and whether they are the whole input.
    func peek(_ count: Int, lines: Int = .max) throws(MaskCleanError) -> (bytes: [UInt8], isWhole: Bool) {
        var bytes = Array(peeked)
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { block.deallocate() }
        var ended = false
        var lineFeeds = bytes.count { $0 == 0x0A }
        while bytes.count < count, lineFeeds < lines {
            let read = try readText(into: block)
            if read == 0 {
                ended = true
                break
            }
            let more = UnsafeRawBufferPointer(rebasing: block[..<read])
            lineFeeds += more.count { $0 == 0x0A }
            bytes += more
        }
        peeked = bytes[...]
        return (bytes, ended)
    }

    /// Reads the input's text as `encoding` (docs/record-formats.md#encoding), converted to
    /// UTF-8 as it is read. Before the first read.
    func decode(as encoding: TextEncoding?) throws(MaskCleanError) {
        guard let encoding, !encoding.isUTF8 else { return }
        decoder = try TextDecoder(encoding)
    }

    /// The encoding the input is read as.
    var encoding: TextEncoding { decoder?.encoding ?? .utf8 }

    /// Reads up to `buffer.count` bytes of the input's text, past what was peeked at: converted
    /// to UTF-8 when it is in another encoding.
    private func readText(into buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int {
        guard let decoder else { return try readBytes(into: buffer) }
        return try decoder.read(into: buffer, file: name) { (raw) throws(MaskCleanError) in
            try readBytes(into: raw)
        }
    }

    /// Reads up to `buffer.count` of the input's bytes, decompressed.
    private func readBytes(into buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int {
        if let readAhead { return try readAhead.read(into: buffer) }
        if !sniffed { try sniff() }
        if let decompressor { return try decompress(with: decompressor, into: buffer) }
        if !pending.isEmpty { return pending.take(into: buffer) }
        return try readFile(into: buffer)
    }

    /// Looks at the first bytes: a compression's magic number makes the input one to decompress.
    private func sniff() throws(MaskCleanError) {
        sniffed = true
        while pending.count < Compression.magicLength, try pending.fill(from: self) > 0 {}
        let compression = pending.withBytes { Compression.fromMagic($0) }
        if let namedCompression, compression == nil {
            if pending.isEmpty {
                throw .data(
                    name, line: nil, UsageMessage(Decompressor.Problem.truncated.reason(namedCompression)))
            }
            throw .data(
                name, line: nil,
                "not \(namedCompression.rawValue) data, though its name ends in \(namedCompression.suffix)")
        }
        guard let compression else { return }
        do throws(Decompressor.Problem) {
            decompressor = try Decompressor(compression, inflater: gzipInflater)
        } catch {
            throw .data(name, line: nil, UsageMessage(error.reason(compression)))
        }
    }

    private func decompress(
        with decompressor: Decompressor, into buffer: UnsafeMutableRawBufferPointer
    ) throws(MaskCleanError) -> Int {
        func problem(_ problem: Decompressor.Problem) -> MaskCleanError {
            .data(name, line: nil, UsageMessage(problem.reason(decompressor.compression)))
        }
        while true {
            var fileEnded = false
            if pending.isEmpty || pending.needsMore { fileEnded = try pending.fill(from: self) == 0 }
            let written: Int
            do throws(Decompressor.Problem) {
                written = try pending.decompress(with: decompressor, into: buffer)
            } catch {
                throw problem(error)
            }
            if written > 0 { return written }
            if !fileEnded { continue }
            // The file ended: only where a member or frame does, with nothing left over.
            if !pending.isEmpty {
                throw problem(.trailingData)
            }
            if !decompressor.isAtEnd { throw problem(.truncated) }
            return 0
        }
    }

    /// Reads up to `buffer.count` bytes of the file itself; 0 at its end.
    fileprivate func readFile(into buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int {
        let count = try readDescriptor(into: buffer)
        fileBytesRead += count
        if count > 0, let copy { try copy.append(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
        if count == 0, let size { try checkUnchanged(sizeWhenOpened: size) }
        return count
    }

    /// At the end of a regular file: it was read whole, as it was when opened. A file cut short
    /// while it was read (a download restarted, an export rewritten) would otherwise pass with
    /// the records read before the cut; one that grew (a writer still at work) may end inside a
    /// record, and holds records the run did not see. Either is refused.
    private func checkUnchanged(sizeWhenOpened size: Int) throws(MaskCleanError) {
        try checkUnchanged(sizeWhenOpened: size, read: fileBytesRead)
    }

    /// The same, once the file was read to `read` bytes from its start, at offsets or not.
    private func checkUnchanged(sizeWhenOpened size: Int, read fileBytesRead: Int) throws(MaskCleanError) {
        var info = stat()
        let sizeNow = fstat(descriptor, &info) == 0 ? Int(info.st_size) : fileBytesRead
        if fileBytesRead == size && sizeNow == size {
            guard let opened = modifiedWhenOpened,
                info.st_mtim.tv_sec != opened.tv_sec || info.st_mtim.tv_nsec != opened.tv_nsec
            else { return }
            throw .data(
                name, line: nil,
                "was written while it was read (the same \(size) bytes, but modified since it was opened): run again once whatever writes it is done, or on a copy"
            )
        }
        let change = sizeNow < size || fileBytesRead < size ? "shrank" : "grew"
        let atEnd =
            sizeNow == fileBytesRead ? "\(sizeNow) at its end" : "\(fileBytesRead) read, \(sizeNow) now"
        throw .data(
            name, line: nil,
            "\(change) while it was read (\(size) bytes when opened, \(atEnd)): run again once whatever writes it is done, or on a copy"
        )
    }

    private func readDescriptor(into buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            if errno == EBADF && descriptor == STDIN_FILENO {
                throw .noInput(name, "cannot read: standard input is closed")
            }
            throw .noInput(name, "cannot read: \(systemError(errno))")
        }
    }

    // MARK: Reading at offsets (`RangedChunks`)

    /// Where in the file the text not yet read starts, when the rest can be read at offsets, by
    /// several workers at once: a regular file whose bytes are its text, neither decompressed,
    /// converted from another encoding, nor copied as they are read. Nil otherwise.
    var offsetOfUnreadText: Int? {
        guard sniffed, size != nil, decompressor == nil, decoder == nil, copy == nil else { return nil }
        return fileBytesRead - pending.count - peeked.count
    }

    /// Reads `buffer.count` bytes of the file from `offset` (a regular file's); any thread may.
    /// Fewer bytes there than that: the file shrank while it was read.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) {
        var done = 0
        while done < buffer.count {
            let count = pread(
                descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count > 0 {
                done += count
            } else if count == 0 {
                // Reads at offsets skip ahead (a claim looks for a line end a chunk on), so where
                // this one found the end is no measure of what was read: the file ends there now.
                var info = stat()
                let sizeNow = fstat(descriptor, &info) == 0 ? Int(info.st_size) : offset + done
                try checkUnchanged(sizeWhenOpened: size ?? .max, read: min(offset + done, sizeNow))
                // The file is its size at its end, yet held less there: it was rewritten.
                throw .data(
                    name, line: nil,
                    "shrank while it was read: run again once whatever writes it is done, or on a copy")
            } else if errno != EINTR {
                throw .noInput(name, "cannot read: \(systemError(errno))")
            }
        }
    }

    /// Goes on reading in order from `offset`, where the reading at offsets stopped.
    func continueReading(at offset: Int) throws(MaskCleanError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw .noInput(name, "cannot read: \(systemError(errno))")
        }
        fileBytesRead = offset
        pending = PendingBytes()
        peeked = []
    }

    /// Once every byte was read at offsets: the file is as it was when opened.
    func checkUnchangedAfterReadingAtOffsets() throws(MaskCleanError) {
        guard let size else { return }
        try checkUnchanged(sizeWhenOpened: size, read: size)
    }

    /// Reads up to 64 KiB more onto the end of `bytes`; 0 at the end of the input. For what is
    /// read before the records (a spec, a header, the array's opening), not for the records.
    func read(appendingTo bytes: inout [UInt8]) throws(MaskCleanError) -> Int {
        // Read into uninitialized memory: filling 64 KiB with zeros element by element first
        // made a debug build's header read take milliseconds.
        var failure: MaskCleanError?
        let block = [UInt8](unsafeUninitializedCapacity: 64 * 1024) { buffer, initialized in
            do throws(MaskCleanError) {
                initialized = try read(into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        bytes += block
        return block.count
    }

    /// Reads a whole (small) file, such as the spec; past `limit` bytes, `tooLarge` says why not.
    static func readAll(
        path: String, limit: Int = .max, tooLarge: () throws(MaskCleanError) -> Void = {}
    ) throws(MaskCleanError) -> [UInt8] {
        let file = try InputFile(path: path)
        var bytes: [UInt8] = []
        while try file.read(appendingTo: &bytes) > 0 {
            if bytes.count > limit { try tooLarge() }
        }
        return bytes
    }
}

/// The file's bytes read ahead of their use: the first bytes while the magic number is looked
/// for, and the compressed bytes the decompressor has not used yet.
private struct PendingBytes: ~Copyable {
    private let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    private var start = 0
    private var end = 0
    /// The decompressor used nothing of what is here: it needs more bytes after them.
    private(set) var needsMore = false

    deinit { storage.deallocate() }

    var isEmpty: Bool { start == end }
    var count: Int { end - start }

    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(rebasing: storage[start..<end]))
    }

    /// Moves what is here to the front and reads more of the file after it; 0 at its end.
    mutating func fill(from file: InputFile) throws(MaskCleanError) -> Int {
        if start > 0 {
            storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: end - start)
            end -= start
            start = 0
        }
        let count = try file.readFile(into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]))
        end += count
        needsMore = false
        return count
    }

    mutating func take(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, end - start)
        buffer.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: count)
        start += count
        return count
    }

    mutating func decompress(
        with decompressor: Decompressor, into buffer: UnsafeMutableRawBufferPointer
    ) throws(Decompressor.Problem) -> Int {
        var input = UnsafeRawBufferPointer(rebasing: storage[start..<end])
        let written = try decompressor.decompress(&input, into: buffer)
        let used = (end - start) - input.count
        start += used
        needsMore = written == 0 && used == 0
        return written
    }
}

/// The system's words for an errno value, lower-cased as they read in a sentence.
func systemError(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "no such file or directory"
    case EACCES: return "permission denied"
    case EISDIR: return "is a directory"
    case ENOSPC: return "no space left on device"
    case EROFS: return "read-only file system"
    default:
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
