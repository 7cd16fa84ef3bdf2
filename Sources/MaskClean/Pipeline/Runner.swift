import FoundationEssentials

/// The options of `maskclean run` and `check` (docs/command-line.md).
public struct RunOptions: Sendable {
    public var input: String
    /// Where records go: a path, `-` for stdout, or nil to write none (`check`).
    public var output: String?
    /// Where the report goes in each format asked for (`ReportFormat`).
    public var reportPaths: [ReportFormat: String] = [:]
    /// A previous report of the same spec to compare with (`--baseline`): read before the run,
    /// so that it may be the file the new report replaces.
    public var baseline: String?
    /// Samples show their values' shape only (`--samples redacted`, the command line's default).
    public var redactSamples = false
    public var inputFormat: RecordFormat?
    public var outputFormat: RecordFormat?
    /// The CSV field delimiter given; nil for the format's (tab for TSV) or, for CSV, the one
    /// detected (`DelimiterDetection`).
    public var delimiter: UInt8?
    /// Whether the delimiter is detected when none is given (`--delimiter auto`): nil for the
    /// default, which detects it for CSV and not for TSV.
    public var detectsDelimiter: Bool?
    /// The encoding of the input's text (`--encoding`); nil for UTF-8.
    public var encoding: TextEncoding?
    /// The columns of a CSV or TSV input without a header line (`--no-header --columns`), whose
    /// first line is then a record; nil when the input's first line is its header.
    public var columnNames: [String]?
    /// A CSV or TSV output starts with its header line; off for `--no-header` without `--header`.
    public var writesHeader = true
    public var jobs: Int
    public var policy: ErrorPolicy = .fail
    public var quarantine: String?
    public var escapeFormulas = false
    /// Called now and then with the input bytes read so far and the input's size, if known.
    public var progress: (@Sendable (Int, Int?) -> Void)?
    /// Measures the CPU time of the pipeline's serial stages, when given (`make bench`).
    public var pipelineClock: PipelineClock?
    /// Bytes per chunk of work.
    public var chunkSize = 1 << 20
    /// What inflates a gzip input; nil: the fastest the system has, looked for only when a gzip
    /// input is read (a plain run does not load ISA-L).
    public var gzipInflater: GzipInflater?
    /// A longer record is malformed input (a runaway quote, a 100 MB cell), not data.
    public var maximumRecordBytes = 32 << 20
    /// How the records output is compressed: by its extension (`.gz`, `.zst`), or as asked.
    public var compression: OutputCompression = .byExtension
    /// The compression level; nil for the compression's default (`Compressor.defaultLevel`).
    public var compressionLevel: Int?
    /// The input is one partition of a larger one: its identifier (`--part`), and the row its
    /// first record is (`--first-row`), which the report's samples are numbered from.
    public var part: String?
    public var firstRow: Int?

    /// Every output asked for, by its role: the one list that the checks of the outputs' paths
    /// and the rule for standard output read. In the order messages about two of them follow:
    /// the records, the JSON report, the quarantine, then every other report format in the
    /// registry's order.
    var namedOutputs: [(role: OutputRole, path: String)] {
        let roles: [OutputRole] =
            [.records, .report(.json), .quarantine]
            + ReportFormat.allCases.filter { $0 != .json }.map { .report($0) }
        return roles.compactMap { role in path(of: role).map { (role, $0) } }
    }

    /// Where the output in `role` goes, if it is asked for.
    func path(of role: OutputRole) -> String? {
        switch role {
        case .records: output
        case .quarantine: quarantine
        case .report(let format): reportPaths[format]
        case .proposedSpec, .stepSummary: nil
        }
    }

    /// Whether any output goes to standard output: the records or a report in any format, named
    /// `-` or by a path to the file standard output is (`/dev/stdout`, `/proc/self/fd/1`).
    public var writesStandardOutput: Bool { OutputPaths.anyIsStandardOutput(namedOutputs.map(\.path)) }

    /// How the records are compressed, if they are: as asked, or by the output's extension.
    var recordsCompression: Compression? {
        switch compression {
        case .byExtension: output.flatMap(Compression.fromSuffix)
        case .none: nil
        case .with(let compression): compression
        }
    }
    /// CSV records that lie whole on a line with simple quoting are split without libcsv. Off
    /// only in tests, which check that both ways give the same bytes.
    var splitsPlainLines = true

    /// `report` is where the JSON report goes, if anywhere: the report `merge` reads back.
    public init(input: String, output: String?, report: String? = nil, jobs: Int) {
        self.input = input
        self.output = output
        if let report { reportPaths[.json] = report }
        self.jobs = jobs
    }
}

/// How `run` compresses its records (docs/command-line.md: `--compress`).
public enum OutputCompression: Sendable, Equatable {
    /// By the output's extension: `.gz` gzip, `.zst` zstd, anything else none.
    case byExtension
    case none
    case with(Compression)
}

/// One run: resolve the formats, check and open the outputs, read the input's start and check
/// the spec against it, pump the records through the masks, then commit. A failed run leaves no
/// output behind.
public enum Runner {
    /// `stopped` is told the report written when an error stops the run once its outputs are
    /// open (docs/report.md#a-run-that-stopped), before the error is thrown: the executable
    /// shows it as annotations and a step summary.
    public static func run(
        _ spec: Spec, _ options: RunOptions, stopped: (Report) -> Void = { _ in }
    ) throws(MaskCleanError) -> Report {
        let timer = ReportTimer()
        let inputFormat: RecordFormat
        if let format = options.inputFormat {
            inputFormat = format
        } else {
            inputFormat = try format(of: options.input)
        }
        let outputFormat = options.outputFormat ?? inputFormat
        if let firstRow = options.firstRow, !(1...Count.maximum).contains(firstRow) {
            throw .usage(
                "\(Setting.firstRow) must be from 1 to \(Count.maximum) (the row number of the input's first record)"
            )
        }
        try options.checkColumnNames(inputFormat: inputFormat)
        try Outputs.checkPaths(options, spec: spec.file)
        let outputs = try Outputs(options)
        var totals = RunTotals(spec: spec)
        var inputBytes: Int?
        var delimiter: (byte: UInt8, detected: Bool)?
        var baseline: Baseline?
        // Set once the outputs are being committed: an error then is one of theirs, and no
        // report of it can be written where the finished one was going.
        var committing = false
        func finished(_ report: Report) -> Report {
            var report = report
            if let baseline { report.compare(with: baseline) }
            report.input = options.input
            report.origin = timer.origin(inputBytes: inputBytes, spec: spec.file)
            report.origin.delimiter = delimiter?.byte
            report.origin.delimiterDetected = delimiter?.detected ?? false
            report.origin.encoding = options.encoding ?? .utf8
            report.placeInPartition(part: options.part, firstRow: options.firstRow)
            if options.redactSamples { report.redactSamples() }
            return report
        }
        do throws(MaskCleanError) {
            if let path = options.baseline { baseline = try Baseline.load(path: path, spec: spec) }
            let input = try InputFile(path: options.input)
            input.gzipInflater = options.gzipInflater
            try input.decode(as: options.encoding)
            inputBytes = input.size
            if !inputFormat.isJSON {
                delimiter = try DelimiterDetection.settle(
                    input, format: inputFormat, given: options.delimiter, detects: options.detectsDelimiter,
                    columns: options.columnNames?.count)
            }
            let settings = SourceSettings(
                spec: spec, options: options, outputFormat: outputFormat,
                delimiter: delimiter?.byte ?? inputFormat.defaultDelimiter)
            // The input's delimiter is the output's too while the format stays.
            var outputDelimiter = outputFormat.defaultDelimiter
            if outputFormat == inputFormat, let delimiter { outputDelimiter = delimiter.byte }
            let run = RunSetup(
                spec: spec, options: options, input: input, outputs: outputs,
                framing: RecordFraming(format: outputFormat, delimiter: outputDelimiter))
            switch inputFormat {
            case .csv, .tsv: try run.mask(CSVSource(input: input, settings), &totals)
            case .ndjson: try run.mask(NDJSONSource(input: input, settings), &totals)
            case .json: try run.mask(JSONArraySource(input: input, settings), &totals)
            }
            // Its samples' rows must stay row numbers a report can hold (docs/report.md).
            if let problem = Partition(
                part: options.part, firstRow: options.firstRow, rows: totals.report.rows
            )
            .rowsPastMaximum {
                throw .data(input.name, line: nil, UsageMessage(problem))
            }
            let report = finished(totals.report)
            committing = true
            try outputs.commit(report)
            return report
        } catch {
            // A reader of standard output that went away ends the run quietly: nothing to say.
            guard !error.isBrokenPipe, !committing else {
                outputs.discard()
                throw error
            }
            var counted = totals.report
            if Partition(part: options.part, firstRow: options.firstRow, rows: counted.rows).rowsPastMaximum
                != nil
            {
                counted = Report(spec: spec)
            }
            var report = finished(counted).stopped(by: RunError(error, spec: spec.file))
            if options.redactSamples { report.error = report.error?.redactingData() }
            // A stopped run never replaces its own baseline: tomorrow compares with the last
            // report that finished (docs/report.md#against-a-baseline).
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

    /// Writes the report of a run whose spec did not load (78), in every format asked for, and
    /// returns it: the records and the quarantine are not written. Outputs that cannot be
    /// written are left alone; the spec's error is the one to show.
    public static func report(specError error: MaskCleanError, spec: String, _ options: RunOptions) -> Report
    {
        report(specError: error, spec: spec, options, protecting: [(options.input, "input"), (spec, "spec")])
    }

    /// The report of a run or a merge whose spec did not load, written where `options` say
    /// unless that would destroy one of the files `protected` names.
    static func report(
        specError error: MaskCleanError, spec: String, _ options: RunOptions,
        protecting protected: [(path: String, what: String)]
    ) -> Report {
        var reportsOnly = options
        reportsOnly.output = nil
        reportsOnly.quarantine = nil
        var report = Report(specError: RunError(error, spec: spec), input: options.input)
        report.origin = ReportTimer().origin(inputBytes: nil, spec: spec)
        guard (try? Outputs.checkPaths(reportsOnly, protecting: protected)) != nil,
            let outputs = try? Outputs(reportsOnly)
        else { return report }
        outputs.commitReports(report)
        return report
    }

    /// The input format a path's extension says, or a usage error.
    static func format(of path: String) throws(MaskCleanError) -> RecordFormat {
        if let format = RecordFormat.fromExtension(of: path) { return format }
        let what = path == "-" ? "standard input" : "\(path) from its extension"
        throw .usage("cannot tell the format of \(what); use \(Setting.inputFormat) csv|tsv|json|ndjson")
    }
}

/// What a run has settled before its records: where they come from and how they go out.
private struct RunSetup {
    let spec: Spec
    let options: RunOptions
    let input: InputFile
    let outputs: Outputs
    /// The output format's framing; its line end is settled by the input's start.
    let framing: RecordFraming

    /// Writes the records of `source`, framed in the output format, counting them into `totals`:
    /// what it holds when an error stops the run is what the stopped run's report says.
    func mask<Source: RecordSource>(_ source: Source, _ totals: inout RunTotals) throws(MaskCleanError) {
        let start = source.start
        var framing = framing
        framing.lineEnd = start.lineEnd
        let columns = (start.columnNames ?? []) + spec.addedColumns
        let escapeFormulas = options.escapeFormulas
        let makeWriter = { [framing] in
            framing.makeWriter(columnNames: columns, escapeFormulas: escapeFormulas)
        }
        let writer = makeWriter()
        if outputs.writesRecords {
            try outputs.writeRecords(
                framing.preamble(
                    columns: options.writesHeader ? columns : nil, byteOrderMark: start.byteOrderMark,
                    writer: writer))
        }
        try RecordPump(
            input: input, splitter: source.makeSplitter(), start: start, options: options, outputs: outputs
        ).run(
            spec: spec, framing: &framing, totals: &totals,
            // Each processor has an writer of its own: one shared by the workers had its
            // reference count bumped by both cores, so reading it for every cell missed the cache.
            makeProcessor: { source.makeProcessor(makeWriter()) })
        try source.finish(&totals)
        try outputs.writeRecords(framing.closing)
    }
}
