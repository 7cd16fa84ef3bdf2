import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file maskclean writes: records or a report.
///
/// A regular file (or one that does not exist yet) is written to a temporary file beside it and
/// renamed into place by `commit()`, so that a failed run never leaves half a file behind
/// (DESIGN §4). Standard output and existing non-regular targets (`/dev/null`, a FIFO, a
/// terminal) are written directly.
public final class OutputFile {
    /// How messages name the output: the path as given, or `stdout`.
    public let name: String
    private var descriptor: Int32
    private let temporaryPath: String?
    private let finalPath: String?
    private var finished = false
    private var flushed = false

    public init(path: String) throws(MaskCleanError) {
        if path == "-" {
            name = "stdout"
            descriptor = STDOUT_FILENO
            temporaryPath = nil
            finalPath = nil
            return
        }
        name = path
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists, (info.st_mode & S_IFMT) == S_IFDIR {
            throw .cannotCreate(path, "is a directory")
        }
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            let opened = open(path, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else { throw .cannotCreate(path, systemError(errno)) }
            descriptor = opened
            temporaryPath = nil
            finalPath = nil
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        let temporary =
            (directory.isEmpty ? "" : directory + "/")
            + ".\(base).maskclean-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        // The user's umask applies; an existing file keeps its permissions.
        let mode: mode_t = exists ? info.st_mode & 0o7777 : 0o666
        TemporaryFiles.shared.register(temporary)
        let opened = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard opened >= 0 else {
            TemporaryFiles.shared.unregister(temporary)
            throw .cannotCreate(path, systemError(errno))
        }
        if exists { fchmod(opened, mode) }
        descriptor = opened
        temporaryPath = temporary
        finalPath = path
    }

    deinit {
        discard()
    }

    /// Writes all the bytes, or throws a write error (exit 74). A reader that went away
    /// (`maskclean run … | head`) is `BrokenPipe`, which ends the run quietly.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(MaskCleanError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw MaskCleanError.brokenPipe }
                throw .write(name, "cannot write: \(systemError(errno))")
            }
            offset += written
        }
    }

    public func write(_ bytes: [UInt8]) throws(MaskCleanError) {
        try bytes.withBytes { buffer throws(MaskCleanError) in try write(buffer) }
    }

    /// Flushes the output to disk and closes it, without making it visible yet: a run flushes
    /// every output before renaming any, so that one that fails leaves the others untouched.
    public func flush() throws(MaskCleanError) {
        guard !flushed, !finished else { return }
        flushed = true
        guard temporaryPath != nil else { return }
        if fsync(descriptor) != 0 && errno != EINVAL && errno != EROFS {
            throw .write(name, "cannot write: \(systemError(errno))")
        }
        let closed = close(descriptor)
        descriptor = -1
        if closed != 0 { throw .write(name, "cannot write: \(systemError(errno))") }
    }

    /// Makes the output final: flushes it, then renames the temporary into place.
    public func commit() throws(MaskCleanError) {
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
    public func discard() {
        guard !finished else { return }
        finished = true
        if descriptor > STDOUT_FILENO { close(descriptor) }
        if let temporaryPath {
            unlink(temporaryPath)
            TemporaryFiles.shared.unregister(temporaryPath)
        }
    }
}

extension MaskCleanError {
    /// Standard output was closed by its reader: the run stops without a message.
    public static let brokenPipe = MaskCleanError(.success, "")

    public var isBrokenPipe: Bool { status == .success && message.isEmpty }
}

/// The temporary files in use, so that SIGINT and SIGTERM can remove them before the process
/// ends.
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var sources: [DispatchSourceSignal] = []

    func register(_ path: String) {
        lock.withLock { _ = paths.insert(path) }
    }

    func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// Removes every temporary file now.
    public func removeAll() {
        lock.withLock {
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }

    /// On SIGINT or SIGTERM: remove the temporary files, then end as the signal would have.
    /// SIGPIPE is ignored, so that a closed standard output is a write error to handle.
    public func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                removeAll()
                // Dispatch keeps the signal blocked: unblock it here and raise it again, so that
                // the process ends as the signal would have ended it.
                signal(number, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, number)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(number)
                _exit(128 + number)
            }
            source.resume()
            lock.withLock { sources.append(source) }
        }
    }
}
