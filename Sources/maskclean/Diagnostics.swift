// Standard error: every message the command line shows there (errors, warnings, the run's
// summary, the progress bar) is written by `Diagnostics`, one format for all of them.

import MaskClean

#if canImport(Glibc)
    import Glibc
#endif

/// Writes messages to stderr, one format for all of them: the diagnostics engine every
/// subcommand shows its errors and warnings through.
enum Diagnostics {
    /// The error's one line, its outputs named by their flags, made safe for a terminal
    /// (`visible`).
    static func error(_ error: MaskCleanError) {
        print(visible(error.shown))
    }

    /// A warning: something the command could not do that leaves its outcome and exit status as
    /// they are (the step summary not appended). One line, `warning: ` and the text, made safe
    /// for a terminal.
    static func warning(_ text: String) {
        print(visible("warning: " + text))
    }

    /// A warning about an error that does not end the command.
    static func warning(_ error: MaskCleanError, _ consequence: String) {
        warning("\(error.shown); \(consequence)")
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
