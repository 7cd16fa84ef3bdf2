// Standard output for `apply`: its rows are written here, buffered, and a failed write becomes
// the error (and exit status) every other write failure is.

import MaskClean

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output, buffered and checked: a write error is exit 74, and a reader that went away
/// (`maskclean apply … | head`) ends the command quietly, as a Unix filter does.
struct StandardOutput {
    private var pending: [UInt8] = []

    mutating func write(_ text: String) throws(MaskCleanError) {
        pending += text.utf8
        if pending.count >= 1 << 16 { try flush() }
    }

    mutating func flush() throws(MaskCleanError) {
        var offset = 0
        while offset < pending.count {
            let written = pending.withUnsafeBytes {
                Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw MaskCleanError.brokenPipe }
                let system = String(cString: strerror(errno))
                let reason =
                    errno == EBADF
                    ? "standard output is closed" : system.prefix(1).lowercased() + system.dropFirst()
                throw MaskCleanError.write("stdout", "cannot write: \(reason)")
            }
            offset += written
        }
        pending.removeAll(keepingCapacity: true)
    }
}
