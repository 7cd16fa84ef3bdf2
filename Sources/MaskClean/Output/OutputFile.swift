import Dispatch
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A file maskclean writes: records or a report.
///
/// A regular file (or one that does not exist yet) is written to a temporary file beside it and
/// renamed into place by `commit()`, so that a failed run never leaves half a file behind
/// (docs/exit-status.md). Standard output and existing non-regular targets (`/dev/null`, a FIFO, a
/// terminal) are written directly.
final class OutputFile {
    /// How messages name the output: the path as given, or `stdout`.
    let name: String
    private var descriptor: Int32
    private let temporaryPath: String?
    private let finalPath: String?
    private var finished = false
    private var flushed = false
    /// Bytes written, and how many of them the disk has been asked to take so far (a file
    /// written through a temporary only).
    private var bytesWritten = 0
    private var writeBackStart = 0
    /// Every this many bytes, the disk is asked to start writing what came before, so that
    /// it writes while the records are made and the closing `fsync` has little left to do.
    private static let writeBackStep = 16 << 20

    init(path: String) throws(MaskCleanError) {
        if path == "-" {
            name = "stdout"
            descriptor = STDOUT_FILENO
            temporaryPath = nil
            finalPath = nil
            return
        }
        name = path
        // A link is followed: what it points to is written or replaced, never the link itself
        // (`-o /dev/stdout` when standard output is a file, or any symlink to a report).
        var info = stat()
        let exists = stat(path, &info) == 0
        var target = Self.resolvingLinks(path)
        var resolved = stat()
        if exists,
            stat(target, &resolved) != 0 || resolved.st_dev != info.st_dev || resolved.st_ino != info.st_ino
        {
            // A link the kernel follows but no path names (a deleted file behind /proc/self/fd):
            // nothing to rename onto, so it is written in place.
            target = path
        }
        if exists, (info.st_mode & S_IFMT) == S_IFDIR {
            throw .cannotCreate(path, "is a directory")
        }
        if exists, (info.st_mode & S_IFMT) != S_IFREG || target == path && Self.isLink(path) {
            let opened = open(path, O_WRONLY | O_CLOEXEC | ((info.st_mode & S_IFMT) == S_IFREG ? O_TRUNC : 0))
            guard opened >= 0 else { throw .cannotCreate(path, systemError(errno)) }
            descriptor = opened
            temporaryPath = nil
            finalPath = nil
            return
        }
        let temporary = Self.temporaryPath(beside: target)
        // The user's umask applies to a new file. A replaced one keeps its permission bits, but
        // not setuid, setgid or sticky: the records are data, not a program.
        let mode: mode_t = exists ? info.st_mode & 0o777 : 0o666
        TemporaryFiles.shared.register(temporary)
        let opened = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard opened >= 0 else {
            let problem = errno
            TemporaryFiles.shared.unregister(temporary)
            let directory = PathParts(temporary).directory
            var info = stat()
            // The folder exists but takes no new file (`/proc/self/status`, a read-only mount):
            // say so, rather than "no such file or directory".
            if stat(directory.isEmpty ? "." : directory, &info) == 0 {
                throw .cannotCreate(
                    path,
                    "cannot create a file in \(directory.isEmpty ? "." : directory) to write it through (\(systemError(problem)))"
                )
            }
            throw .cannotCreate(path, systemError(problem))
        }
        if exists {
            // Keep the owner and group where the process may (as root), or the group alone, so
            // that the consumers who could read the old file can read the new one.
            if fchown(opened, info.st_uid, info.st_gid) != 0 {
                _ = fchown(opened, uid_t.max, info.st_gid)
            }
            fchmod(opened, mode)
        }
        descriptor = opened
        temporaryPath = temporary
        finalPath = target
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The path a chain of symbolic links ends at (the path itself when it is not a link). A
    /// dangling link gives the path it points to, which the output then creates.
    static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else {
                let directory = PathParts(current).directory
                current = directory.isEmpty ? link : directory + "/" + link
            }
        }
        return current
    }

    /// A new name beside `path` for the temporary file, within the file system's limit on a
    /// name's length: a long file name is shortened in the temporary one, not refused.
    static func temporaryPath(beside path: String) -> String {
        let (directory, base) = (PathParts(path).directory, PathParts(path).name)
        let suffix = ".maskclean-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let limit = pathconf(directory.isEmpty ? "." : directory, Int32(_PC_NAME_MAX))
        let room = (limit > 0 ? limit : 255) - 1 - suffix.utf8.count
        var kept = Substring(base)
        while kept.utf8.count > room { kept.removeLast() }
        return (directory.isEmpty ? "" : directory + "/") + "." + kept + suffix
    }

    deinit {
        discard()
    }

    /// Writes all the bytes, or throws a write error (exit 74). A reader of standard output that
    /// went away (`maskclean run … | head`) is `brokenPipe`, which ends the run quietly, as a Unix
    /// filter does; a report or quarantine whose reader went away is a write error.
    func write(_ bytes: UnsafeRawBufferPointer) throws(MaskCleanError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE {
                    if descriptor == STDOUT_FILENO { throw MaskCleanError.brokenPipe }
                    throw .write(name, "cannot write: its reader closed the pipe")
                }
                if errno == EBADF && descriptor == STDOUT_FILENO {
                    throw .write(name, "cannot write: standard output is closed")
                }
                throw .write(name, "cannot write: \(systemError(errno))")
            }
            offset += written
        }
        bytesWritten += bytes.count
        if temporaryPath != nil && bytesWritten - writeBackStart >= Self.writeBackStep { startWriteBack() }
    }

    /// Asks the disk to start writing the bytes written since the last time, without waiting
    /// for it: their durability still comes from `flush()`'s `fsync`.
    private func startWriteBack() {
        guard let syncFileRange else { return }
        _ = syncFileRange(
            descriptor, Int64(writeBackStart), Int64(bytesWritten - writeBackStart), syncFileRangeWrite)
        writeBackStart = bytesWritten
    }

    func write(_ bytes: [UInt8]) throws(MaskCleanError) {
        try bytes.withBytes { buffer throws(MaskCleanError) in try write(buffer) }
    }

    /// Flushes the output to disk and closes it, without making it visible yet: a run flushes
    /// every output before renaming any, so that one that fails leaves the others untouched.
    func flush() throws(MaskCleanError) {
        guard !flushed, !finished else { return }
        flushed = true
        guard temporaryPath != nil else { return }
        // The file this one replaces goes once it is renamed over, and its cached pages with
        // it: dropping them, which leaves its bytes as they are, takes a core while `fsync`
        // waits for the disk, not after it.
        let replaced = finalPath.map { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } ?? -1
        let dropping = DispatchGroup()
        if replaced >= 0 {
            DispatchQueue.global().async(group: dropping) {
                var info = stat()
                if fstat(replaced, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG {
                    _ = posix_fadvise(replaced, 0, 0, POSIX_FADV_DONTNEED)
                }
                close(replaced)
            }
        }
        defer { dropping.wait() }
        if fsync(descriptor) != 0 && errno != EINVAL && errno != EROFS {
            throw .write(name, "cannot write: \(systemError(errno))")
        }
        let closed = close(descriptor)
        descriptor = -1
        if closed != 0 { throw .write(name, "cannot write: \(systemError(errno))") }
    }

    /// Makes the output final: flushes it, then renames the temporary into place.
    func commit() throws(MaskCleanError) {
        guard !finished else { return }
        try flush()
        finished = true
        guard let temporaryPath, let finalPath else {
            if descriptor > STDOUT_FILENO { close(descriptor) }
            return
        }
        defer { TemporaryFiles.shared.unregister(temporaryPath) }
        if rename(temporaryPath, finalPath) != 0 {
            let message = systemError(errno)
            unlink(temporaryPath)
            throw .cannotCreate(name, message)
        }
    }

    /// Abandons the output: the temporary file is removed and the target is left as it was.
    func discard() {
        guard !finished else { return }
        finished = true
        if descriptor > STDOUT_FILENO { close(descriptor) }
        if let temporaryPath {
            unlink(temporaryPath)
            TemporaryFiles.shared.unregister(temporaryPath)
        }
    }
}

/// `sync_file_range(2)`, which Glibc's Swift module leaves out (a GNU extension): looked up
/// once, nil where the C library has none.
private let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
    guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
}()
/// `SYNC_FILE_RANGE_WRITE`: start writing the range's dirty pages, without waiting.
private let syncFileRangeWrite: UInt32 = 2

/// The temporary files in use, so that a signal that ends the process can remove them first.
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()
    private let lock = Lock()
    /// Held while outputs are renamed into place, so that a signal lands before the first rename
    /// or after the last: never between two.
    private let commitLock = Lock()
    private var paths: Set<String> = []
    private var abandoned = false

    func register(_ path: String) {
        lock.lock()
        guard !abandoned else {
            // The process is ending on a signal and its temporary files are gone: a new one
            // would outlive it. This thread waits for the end instead of creating it.
            lock.unlock()
            while true { pause() }
        }
        paths.insert(path)
        lock.unlock()
    }

    func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// Runs `commits` (the renames of one run's outputs) with no abandonment in between.
    func committing<Result>(_ commits: () throws(MaskCleanError) -> Result) throws(MaskCleanError) -> Result {
        commitLock.lock()
        defer { commitLock.unlock() }
        return try commits()
    }

    /// Removes every temporary file, once any commit under way is done, and keeps further
    /// commits from starting: for a process about to end on a signal.
    public func abandon() {
        commitLock.lock()
        lock.withLock { abandoned = true }
        removeAll()
    }

    /// Removes every temporary file now.
    func removeAll() {
        lock.withLock {
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }
}

/// A path's folder (empty for a bare name) and last component, split at the last slash.
struct PathParts {
    var directory: String
    var name: String

    init(_ path: String) {
        guard let slash = path.lastIndex(of: "/") else {
            directory = ""
            name = path
            return
        }
        directory = slash == path.startIndex ? "/" : String(path[..<slash])
        name = String(path[path.index(after: slash)...])
    }
}
