/// The options of `maskclean merge` (docs/command-line.md).
public struct MergeOptions: Sendable {
    /// The partial reports, as the user named them.
    public var reports: [String]
    /// Where the merged report goes in each format asked for (`ReportFormat`).
    public var reportPaths: [ReportFormat: String] = [:]
    public var redactSamples = false
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

/// One merge: read every partial report, check that they belong together, combine them
/// (`Report.merging`), and write the merged report in every format asked for, all committed
/// together or not at all, like a run's outputs.
public enum ReportMerger {
    public static func merge(_ spec: Spec, _ options: MergeOptions) throws(MaskCleanError) -> Report {
        let clock = ContinuousClock()
        let started = clock.now
        let outputOptions = options.outputOptions
        try Outputs.checkPaths(
            outputOptions,
            protecting: [(spec.file, "spec")] + options.reports.map { ($0, "partial report") })
        // One report named twice (`a.json ./a.json`, a link) would count its records twice, and
        // a report made without --part carries nothing else that could tell.
        var named: [(path: String, place: FilePlace)] = []
        for path in options.reports where path != "-" {
            let place = FilePlace(path)
            if let other = named.first(where: { $0.place == place }) {
                throw .usage(
                    path == other.path
                        ? "\(path) is named twice: its records would be counted twice"
                        : "\(other.path) and \(path) are the same file: its records would be counted twice")
            }
            named.append((path, place))
        }
        var partials: [Report.Partial] = []
        for path in options.reports {
            partials.append(Report.Partial(file: path, report: try ReportReader.load(path: path, spec: spec)))
        }
        var report = try Report.merging(partials, spec: spec, firstRow: options.firstRow)
        report.input = options.input
        if options.redactSamples { report.redactSamples() }
        let outputs = try Outputs(outputOptions)
        do throws(MaskCleanError) {
            try outputs.commit(
                report, ReportContext(input: options.input, spec: spec.file, elapsed: clock.now - started))
        } catch {
            outputs.discard()
            throw error
        }
        return report
    }
}
