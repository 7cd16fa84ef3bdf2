// `run` and `check` after their arguments are parsed: the spec is loaded, the records run, the
// summary shown and the outcome turned into the exit status.

import FoundationEssentials
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
        /// Print GitHub Actions workflow commands (`--annotations`, or GITHUB_ACTIONS=true).
        var annotations = false
        /// The file GITHUB_STEP_SUMMARY names: the Markdown summary is appended to it.
        var stepSummary: String?
        /// A WARN exits 1 too (`--fail-on warn`).
        var failsOnWarn = false
        /// Several inputs, each its own (docs/command-line.md#many-inputs); nil for one.
        var many: ManyInputs?

        var shown: Shown {
            var shown = Shown(spec: spec, quiet: quiet, annotations: annotations, stepSummary: stepSummary)
            for input in many?.inputs ?? [options.input] { shown.reads.append((input, "input")) }
            shown.failsOnWarn = failsOnWarn
            return shown
        }
    }

    /// How a report is shown once made, by every command that makes one.
    struct Shown {
        var spec: String
        var quiet: Bool
        var annotations: Bool
        var stepSummary: String?
        /// The files the command reads, which the step summary may not be appended to: the spec,
        /// and the input or the partial reports.
        var reads: [(path: String, what: String)]
        /// A WARN exits 1 too (`--fail-on warn`).
        var failsOnWarn = false

        /// Annotations as `--annotations` says, else when GitHub Actions runs us
        /// (GITHUB_ACTIONS=true); the step summary where GITHUB_STEP_SUMMARY says.
        init(spec: String, quiet: Bool, annotations choice: AnnotationsChoice?) {
            let environment = ProcessInfo.processInfo.environment
            self.spec = spec
            self.quiet = quiet
            annotations = choice.map { $0 == .github } ?? (environment["GITHUB_ACTIONS"] == "true")
            stepSummary = environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
            reads = [(spec, "spec")]
        }

        init(spec: String, quiet: Bool, annotations: Bool, stepSummary: String?) {
            self.spec = spec
            self.quiet = quiet
            self.annotations = annotations
            self.stepSummary = stepSummary
            reads = [(spec, "spec")]
        }
    }

    /// GitHub shows at most 1 MiB of a step's summary.
    static let stepSummaryLimit = 1 << 20

    /// Runs and returns the exit status (docs/exit-status.md), or the error that stopped it.
    static func run(_ settings: Settings) throws(MaskCleanError) -> ExitStatus {
        if let many = settings.many { return try runEach(settings, many) }
        var options = settings.options
        let bar = settings.progress && !settings.quiet && isatty(STDERR_FILENO) != 0 ? ProgressBar() : nil
        if let bar { options.progress = { read, size in bar.update(read: read, size: size) } }
        defer { if let clock = options.pipelineClock { printPipelineTimes(clock) } }
        return try report(
            settings.shown, standardOutputTaken: options.writesStandardOutput, bar: bar,
            specError: { error in Runner.report(specError: error, spec: settings.spec, options) },
            making: { (spec, stopped) throws(MaskCleanError) in
                try Runner.run(spec, options, stopped: stopped)
            })
    }

    /// `--pipeline-times` (hidden, for `make bench`): the CPU time where no other worker can
    /// run, as a share of the process's, on one line that bench/run.py reads.
    private static func printPipelineTimes(_ clock: PipelineClock) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let process =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let outside = max(0, process - clock.workers)
        let serial = clock.reading + clock.writing + outside
        func seconds(_ value: Double) -> String {
            let tenThousandths = Int((value * 10_000).rounded())
            let fraction = String(tenThousandths % 10_000)
            return "\(tenThousandths / 10_000)." + String(repeating: "0", count: 4 - fraction.count)
                + fraction
        }
        Diagnostics.print(
            "pipeline: cpu \(seconds(process)) s, serial \(seconds(serial)) s: reading \(seconds(clock.reading)) s, writing in order \(seconds(clock.writing)) s, outside the workers \(seconds(outside)) s"
        )
    }

    /// Runs every input of `many`: a line per input on stderr (its rows and verdict), then the
    /// total's summary, whose verdict is the exit status.
    private static func runEach(_ settings: Settings, _ many: ManyInputs) throws(MaskCleanError) -> ExitStatus
    {
        var options = settings.options
        options.input = many.name ?? (many.inputs.count == 1 ? many.inputs[0] : "\(many.inputs.count) inputs")
        return try report(
            settings.shown, standardOutputTaken: options.writesStandardOutput, bar: nil,
            specError: { error in Runner.report(specError: error, spec: settings.spec, options) },
            making: { (spec, stopped) throws(MaskCleanError) in
                let outcome = try Runner.run(spec, settings.options, each: many, stopped: stopped)
                if !settings.quiet {
                    for (input, report) in outcome.files {
                        let rows = "\(report.rows) row\(report.rows == 1 ? "" : "s")"
                        Diagnostics.print(
                            visible("\(input): \(rows): \(report.passed ? "passed" : "FAILED")"))
                    }
                }
                return outcome.total
            })
    }

    /// Merges partial reports (`maskclean merge`) and returns the exit status, as `check` would.
    static func merge(_ settings: Shown, _ options: MergeOptions) throws(MaskCleanError) -> ExitStatus {
        try report(
            settings, standardOutputTaken: options.writesStandardOutput, bar: nil,
            specError: { error in options.report(specError: error, spec: settings.spec) },
            making: { (spec, stopped) throws(MaskCleanError) in
                try ReportMerger.merge(spec, options, stopped: stopped)
            })
    }

    /// Loads the spec, makes the report, shows it (summary, annotations, step summary) and turns
    /// its verdict into the exit status; the error that stopped it goes on to `ExitPath`, once
    /// the progress bar is cleared and the report it left (`specError`, or the one `making`
    /// tells of) is shown as annotations and a step summary (docs/report.md#a-run-that-stopped).
    private static func report(
        _ settings: Shown, standardOutputTaken: Bool, bar: ProgressBar?,
        specError: (MaskCleanError) -> Report,
        making: (Spec, (Report) -> Void) throws(MaskCleanError) -> Report
    ) throws(MaskCleanError) -> ExitStatus {
        var stopped: Report?
        do throws(MaskCleanError) {
            let spec: Spec
            do throws(MaskCleanError) {
                spec = try SpecLoader.load(path: settings.spec)
            } catch {
                stopped = specError(error)
                throw error
            }
            let report = try making(spec) { stopped = $0 }
            bar?.finish()
            if !settings.quiet {
                Diagnostics.print(report.summary, terminator: "")
            }
            show(report, settings, standardOutputTaken: standardOutputTaken)
            guard report.passed else { return .thresholdNotMet }
            guard settings.failsOnWarn, report.warnedColumns > 0 else { return .success }
            // The summary says WARN; the status is the gate's as `--fail-on warn` sets it.
            if !settings.quiet {
                let columns = report.warnedColumns == 1 ? "1 column" : "\(report.warnedColumns) columns"
                Diagnostics.print("exit 1: \(columns) below warnComplete, and --fail-on warn")
            }
            return .thresholdNotMet
        } catch {
            bar?.finish()
            if let stopped { show(stopped, settings, standardOutputTaken: standardOutputTaken) }
            throw error
        }
    }

    /// The report where CI shows it: annotations, and the step summary.
    private static func show(_ report: Report, _ settings: Shown, standardOutputTaken: Bool) {
        if settings.annotations { annotate(report, standardOutputTaken: standardOutputTaken) }
        if let path = settings.stepSummary { appendSummary(report, to: path, sparing: settings.reads) }
    }

    /// Annotations go to standard output when it carries nothing else (`check`, `run -o FILE`),
    /// where a runner reads them; otherwise (the records, or a report in any format, on `-`) to
    /// standard error, so that what is on standard output stays intact.
    private static func annotate(_ report: Report, standardOutputTaken: Bool) {
        let commands = report.workflowCommands
        guard !commands.isEmpty else { return }
        if standardOutputTaken {
            Diagnostics.print(commands, terminator: "")
            return
        }
        var standardOutput = StandardOutput()
        do {
            try standardOutput.write(commands)
            try standardOutput.flush()
        } catch {
            if !error.isBrokenPipe { Diagnostics.error(error) }
        }
    }

    /// Appends the Markdown summary to GitHub's step summary file, kept within the 1 MiB a step
    /// may show with what is there already. A file that cannot be written is a warning: the
    /// run's verdict stands.
    private static func appendSummary(
        _ report: Report, to path: String, sparing reads: [(path: String, what: String)]
    ) {
        do throws(MaskCleanError) {
            try OutputPaths.check([(.stepSummary, path)], protecting: reads)
        } catch {
            Diagnostics.warning(error, "the summary is not appended")
            return
        }
        // O_APPEND: each write lands at the end, after whatever the step's other tools wrote.
        let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            Diagnostics.warning(
                "cannot append the summary to \(path) (GITHUB_STEP_SUMMARY): \(errorText(errno))")
            return
        }
        defer { close(file) }
        var status = stat()
        let existing = fstat(file, &status) == 0 ? Int(status.st_size) : 0
        let room = stepSummaryLimit - existing - 1
        guard room > 0 else { return }
        var bytes = Array(report.markdown(limit: room).utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let reason = written == 0 ? "nothing was written" : errorText(errno)
                Diagnostics.warning("cannot append the summary to \(path): \(reason)")
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
