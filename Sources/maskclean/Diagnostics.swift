// Standard error: every message the command line shows there (errors, the run's summary, the
// progress bar) is written by `Diagnostics`, one format for all of them.

import MaskClean

#if canImport(Glibc)
    import Glibc
#endif

/// Writes messages to stderr, one format for all of them.
enum Diagnostics {
    /// The error's one line, its outputs named by their flags, made safe for a terminal
    /// (`visible`).
    static func error(_ error: MaskCleanError) {
        print(visible(error.shown))
    }

    static func print(_ text: String, terminator: String = "\n") {
        let bytes = Array((text + terminator).utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
