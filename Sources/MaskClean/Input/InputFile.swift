#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input opened for reading: a file, or standard input for `-`.
public final class InputFile {
    /// How messages name the input: the path as given, or `stdin`.
    public let name: String
    /// The size in bytes when known (a regular file), for the progress bar.
    let size: Int?
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    public init(path: String) throws(MaskCleanError) {
        if path == "-" {
            name = "stdin"
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            size = nil
            return
        }
        name = path
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw .noInput(path, systemError(errno)) }
        var info = stat()
        if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(opened)
            throw .noInput(path, "is a directory")
        }
        descriptor = opened
        ownsDescriptor = true
        size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int {
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
