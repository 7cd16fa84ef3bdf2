/// The options of `maskclean merge` (docs/command-line.md).
public struct MergeOptions: Sendable {
    /// The partial reports, as the user named them.
    public var reports: [String]
    /// Where the merged report goes in each format asked for (`ReportFormat`).
    public var reportPaths: [ReportFormat: String] = [:]
    /// Samples show their values' shape only (`--samples redacted`, the command line's default).
    public var redactSamples = false
    /// A previous report of the same spec to compare the merged one with (`--baseline`).
    public var baseline: String?
    /// What the reports call the whole input (JUnit's suite, the annotations' file): `-` for none.
    public var input = "-"
    /// The row the partial reports' rows start at (`--first-row`): 1 for a whole input, later
    /// for some of its partitions, merged on their own (one node of a tree of merges).
    public var firstRow = 1

    public init(reports: [String]) {
        self.reports = reports
    }

    /// The merged report goes through the outputs a run writes, without records.
    var outputOptions: RunOptions {
        var options = RunOptions(input: "-", output: nil, jobs: 1)
        options.reportPaths = reportPaths
        return options
    }

    /// Whether the merged report, in any format, goes to standard output (`-`).
    public var writesStandardOutput: Bool { outputOptions.writesStandardOutput }
}

extension MergeOptions {
    /// Writes the report of a merge whose spec did not load (78), as `Runner` does a run's.
    public func report(specError error: MaskCleanError, spec: String) -> Report {
        var options = outputOptions
        options.input = input
        return Runner.report(
            specError: error, spec: spec, options,
            protecting: [(spec, "spec")] + reports.map { ($0, "partial report") })
    }
}

/// One merge: read every partial report, check that they belong together, combine them
/// (`Report.merging`), and write the merged report in every format asked for, all committed
/// together or not at all, like a run's outputs.
public enum ReportMerger {
    /// `stopped` is told the report written when a partial report cannot be read or merged,
    /// before the error is thrown, as `Runner.run` tells a run's.
    public static func merge(
        _ spec: Spec, _ options: MergeOptions, stopped: (Report) -> Void = { _ in }
    ) throws(MaskCleanError) -> Report {
        try merge(spec, options, partials: nil, stopped: stopped)
    }

    /// The merge of `partials` already in memory (the inputs of one run, `Runner.run(_:_:each:)`),
    /// or, when nil, of the reports `options` names, read from their files.
    /// `timer` started when the work did (a run's, whose inputs' reports are merged).
    static func merge(
        _ spec: Spec, _ options: MergeOptions, partials given: [Report.Partial]?,
        timer: ReportTimer = ReportTimer(),
        stopped: (Report) -> Void
    ) throws(MaskCleanError) -> Report {
        let outputOptions = options.outputOptions
        try Outputs.checkPaths(
            outputOptions,
            protecting: [(spec.file, "spec")] + options.reports.map { ($0, "partial report") })
        // A report made without --part carries nothing else that could tell it was given twice.
        try FilePlace.refuseRepeats(among: options.reports)
        let outputs = try Outputs(outputOptions)
        var committing = false
        do throws(MaskCleanError) {
            var partials = given ?? []
            for path in given == nil ? options.reports : [] {
                partials.append(
                    Report.Partial(file: path, report: try ReportReader.load(path: path, spec: spec)))
            }
            let baseline = try options.baseline.map { (path) throws(MaskCleanError) in
                try Baseline.load(path: path, spec: spec)
            }
            var report = try Report.merging(partials, spec: spec, firstRow: options.firstRow)
            if let baseline { report.compare(with: baseline) }
            report.input = options.input
            // The whole input's size, when every partition's report knew its own.
            let sizes = partials.compactMap(\.report.origin.inputBytes)
            report.origin = timer.origin(
                inputBytes: sizes.count == partials.count ? sizes.reduce(0, +) : nil, spec: spec.file)
            // How the partitions were read, when they all say the same.
            let origins = partials.map(\.report.origin)
            if let first = origins.first,
                origins.allSatisfy({
                    $0.delimiter == first.delimiter && $0.delimiterDetected == first.delimiterDetected
                })
            {
                report.origin.delimiter = first.delimiter
                report.origin.delimiterDetected = first.delimiterDetected
            }
            if let first = origins.first, origins.allSatisfy({ $0.encoding == first.encoding }) {
                report.origin.encoding = first.encoding
            }
            if options.redactSamples { report.redactSamples() }
            committing = true
            try outputs.commit(report)
            return report
        } catch {
            guard !error.isBrokenPipe, !committing else {
                outputs.discard()
                throw error
            }
            // Nothing is merged from partial reports that did not all read: the report says why.
            var report = Report(spec: spec).stopped(by: RunError(error, spec: spec.file))
            if options.redactSamples { report.error = report.error?.redactingData() }
            report.input = options.input
            report.origin = timer.origin(inputBytes: nil, spec: spec.file)
            let baselinePlace = options.baseline.map { FilePlace($0) }
            let sparing = Set(
                ReportFormat.allCases.filter { format in
                    options.reportPaths[format].map { FilePlace($0) == baselinePlace } ?? false
                })
            outputs.commitReports(report, sparing: sparing)
            stopped(report)
            throw error
        }
    }
}
