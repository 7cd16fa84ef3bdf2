// `run` and `check` after their arguments are parsed: the spec is loaded, the records run, the
// summary shown and the outcome turned into the exit status.

import MaskClean

#if canImport(Glibc)
    import Glibc
#endif

/// What `run` and `check` do once their arguments are parsed: load the spec, run, report, and
/// turn the outcome into an exit status. Every error is printed the same way, as one line on
/// stderr that names the file and the place in it.
enum Frontend {
    struct Settings {
        var spec: String
        var options: RunOptions
        var quiet: Bool
        var progress: Bool
    }

    /// Runs and returns the exit status (docs/exit-status.md).
    static func run(_ settings: Settings) -> ExitStatus {
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
