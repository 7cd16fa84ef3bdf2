import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `run` and `check` do once their arguments are parsed: load the spec, run, report, and
/// turn the outcome into an exit status. Every error is printed the same way, as one line on
/// stderr that names the file and the place in it.
public enum Frontend {
    public struct Settings: Sendable {
        public var spec: String
        public var options: RunOptions
        public var quiet: Bool
        public var progress: Bool

        public init(spec: String, options: RunOptions, quiet: Bool, progress: Bool) {
            self.spec = spec
            self.options = options
            self.quiet = quiet
            self.progress = progress
        }
    }

    /// Runs and returns the exit status (DESIGN §4).
    public static func run(_ settings: Settings) -> ExitStatus {
        var options = settings.options
        let bar = settings.progress && !settings.quiet && isatty(STDERR_FILENO) != 0 ? ProgressBar() : nil
        if let bar { options.progress = { read, size in bar.update(read: read, size: size) } }
        do {
            let spec = try SpecLoader.load(path: settings.spec)
            let report = try Runner.run(spec, options)
            bar?.finish()
            if !settings.quiet {
                Diagnostics.print(report.summary, terminator: "")
            }
            return report.passed ? .success : .thresholdNotMet
        } catch {
            bar?.finish()
            if error.isBrokenPipe { return .success }
            Diagnostics.error(error)
            return error.status
        }
    }
}

/// Writes messages to stderr, one format for all of them.
public enum Diagnostics {
    public static func error(_ error: MaskCleanError) {
        print(visible(error.message))
    }

    public static func print(_ text: String, terminator: String = "\n") {
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

/// `--progress`: a bar on stderr, redrawn at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private let start = Date()
    private var drawn = false

    func update(read: Int, size: Int?) {
        lock.withLock {
            let now = Date()
            guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            let megabytes = Double(read) / 1_048_576
            let rate = megabytes / max(now.timeIntervalSince(start), 0.001)
            var line: String
            if let size, size > 0 {
                let fraction = min(1, Double(read) / Double(size))
                let filled = Int(fraction * 30)
                line =
                    "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
                    + "]"
                line += String(format: " %3.0f%%", fraction * 100)
            } else {
                line = "read"
            }
            line += String(format: " %.1f MB, %.1f MB/s", megabytes, rate)
            Diagnostics.print("\r\u{1B}[K" + line, terminator: "")
            drawn = true
        }
    }

    func finish() {
        lock.withLock {
            if drawn { Diagnostics.print("\r\u{1B}[K", terminator: "") }
            drawn = false
        }
    }
}
