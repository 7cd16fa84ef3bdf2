import ArgumentParser
import FoundationEssentials
import MaskClean

/// The options `run` and `check` share.
struct RecordOptions: ParsableArguments {
    @Argument(help: "The spec file, JSON or YAML (.yaml, .yml): the columns to mask and how.")
    var spec: String

    @Argument(
        help: ArgumentHelp(
            "The records to clean: a .csv, .tsv, .json (array of objects) or .ndjson/.jsonl file, or - for stdin. Several files, or a directory (its files with those extensions, by name), are each read as their own input, reported per file and in total.",
            valueName: "input"))
    var inputs: [String] = []

    /// The first input: the only one, unless several are given.
    var input: String { inputs.first ?? "-" }

    /// Several inputs, or a directory: each is its own input (docs/command-line.md#many-inputs).
    var isMany: Bool { inputs.count > 1 || inputs.contains { $0 != "-" && ManyInputs.namesDirectory($0) } }

    @OptionGroup var reportOutputs: ReportOptions

    @OptionGroup var reader: ReaderOptions

    @Option(
        help:
            "Worker threads, 1 to 256 (default: the number of active cores, at most 64). Any number gives the same output."
    )
    var jobs: Int?

    @Flag(help: "Print no summary on stderr.")
    var quiet = false

    @Flag(help: "Draw a progress bar on stderr (only when stderr is a terminal).")
    var progress = false

    /// For `make bench --jobs-sweep` (issue 32): the serial stages' share of the run's CPU time.
    @Flag(help: .hidden)
    var pipelineTimes = false

    /// For `make bench` (issue 32): a gzip input inflated by zlib, to compare with ISA-L's igzip.
    @Option(help: .hidden)
    var inflate: GzipInflater?

    @Option(
        help:
            "What to do with a record that cannot be read: fail (exit 65) or skip it and count it in the report (more than the spec's maxRejected fail the run)."
    )
    var onError: ErrorChoice?

    @Option(help: "Keep going past bad records, writing each to this file exactly as it was read.")
    var quarantine: String?

    @Flag(
        help: """
            Prefix ' to every output cell that starts with = + - @, a tab or a CR, so that spreadsheet \
            programs do not run it as a formula (a phone like +1 (555)… is one).
            """)
    var escapeFormulas = false

    @Option(
        help: ArgumentHelp(
            "The input is one partition of a larger one: name it in the report (its samples and rejected records carry it), for `maskclean merge`.",
            valueName: "id"))
    var part: String?

    @Option(
        help: ArgumentHelp(
            "Number the input's first record as row N in the report, for a partition whose place in the whole input is known (default 1).",
            valueName: "n"))
    var firstRow: Int?

    /// More workers than this only cost memory: the work is split among the cores.
    static let maximumJobs = 256

    mutating func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Missing expected argument '<input>'") }
        if isMany {
            if inputs.contains("-") {
                throw ValidationError("standard input is one input: it cannot be read with others")
            }
            for (flag, given) in [
                ("--quarantine", quarantine != nil), ("--part", part != nil),
                ("--first-row", firstRow != nil),
            ]
            where given {
                throw ValidationError(
                    "\(flag) is for one input; with several, each input is a partition named by its path")
            }
        }
        if spec == "-" && input == "-" {
            throw ValidationError("the spec and the input cannot both be standard input")
        }
        if reportOutputs.baseline == "-" && (spec == "-" || input == "-") {
            throw ValidationError(
                "--baseline and the \(spec == "-" ? "spec" : "input") cannot both be standard input")
        }
        if let jobs, !(1...Self.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs must be from 1 to \(Self.maximumJobs)")
        }
        if onError == .fail && quarantine != nil {
            throw ValidationError(
                "--quarantine keeps going past bad records; it cannot go with --on-error fail")
        }
        if let part,
            part.isEmpty || part.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            throw ValidationError("--part needs an identifier: a non-empty name without control characters")
        }
        if let firstRow, !(1...Count.maximum).contains(firstRow) {
            throw ValidationError(
                "--first-row must be from 1 to \(Count.maximum) (the row number of the input's first record)")
        }
        _ = try reader.columnNames(input: input)
    }

    /// With several inputs: the files they are, and where each one's records and report go.
    /// `output` must then name a directory (`-o DIR/`); so may `--report` (each input's JSON
    /// report, and the total as total.json).
    func manyInputs(output: String?) throws -> ManyInputs? {
        guard isMany || output.map(ManyInputs.namesDirectory) == true else { return nil }
        if let output, !ManyInputs.namesDirectory(output) {
            throw ValidationError(
                "-o \(output): with several inputs, -o names a directory for their outputs (end it with /)")
        }
        let expanded: [String]
        do {
            expanded = try ManyInputs.expand(inputs, leavingOut: [spec])
        } catch {
            throw ValidationError(visible(error.shown))
        }
        let reportDirectory = reportOutputs.report.flatMap {
            $0 != "-" && ManyInputs.namesDirectory($0) ? $0 : nil
        }
        let name = inputs.count == 1 ? inputs[0] : nil
        return ManyInputs(
            inputs: expanded, outputDirectory: output, reportDirectory: reportDirectory, name: name)
    }

    /// The input has no header line (`--no-header`).
    var noHeader: Bool { reader.noHeader }

    /// The settings for the frontend; `output` is nil for `check`.
    func settings(output: String?, outputFormat: RecordFormat?) throws -> Frontend.Settings {
        var options = RunOptions(
            input: input, output: output, jobs: jobs ?? min(64, ProcessInfo.processInfo.activeProcessorCount))
        options.reportPaths = reportOutputs.paths
        let many = try manyInputs(output: output)
        // A directory for the reports holds each input's; the total goes to total.json there.
        if many?.reportDirectory != nil { options.reportPaths[.json] = nil }
        options.inputFormat = reader.inputFormat
        options.outputFormat = outputFormat
        options.delimiter = try reader.delimiterByte()
        options.detectsDelimiter = reader.detectsDelimiter
        options.encoding = try reader.textEncoding()
        options.columnNames = try reader.columnNames(input: input)
        options.writesHeader = !noHeader
        options.policy = quarantine != nil ? .quarantine : onError == .skip ? .skip : .fail
        options.quarantine = quarantine
        options.escapeFormulas = escapeFormulas
        options.redactSamples = reportOutputs.redactsSamples
        options.baseline = reportOutputs.baseline
        options.part = part
        options.firstRow = firstRow
        if pipelineTimes { options.pipelineClock = PipelineClock() }
        if let inflate {
            // Asked for by name, igzip is there or the figures would be zlib's under its name.
            guard inflate != .igzip || GzipInflater.fastest == .igzip else {
                throw ValidationError("--inflate igzip: ISA-L's libisal.so.2 cannot be loaded on this system")
            }
            options.gzipInflater = inflate
        }
        let shown = Frontend.Shown(spec: spec, quiet: quiet, annotations: reportOutputs.annotations)
        var settings = Frontend.Settings(spec: spec, options: options, quiet: quiet, progress: progress)
        settings.annotations = shown.annotations
        settings.stepSummary = shown.stepSummary
        settings.failsOnWarn = reportOutputs.failOn == .warn
        settings.many = many
        return settings
    }
}

/// `--input-format`, `--output-format`: the library's record formats, as they are named.
extension RecordFormat: ExpressibleByArgument {}

enum AnnotationsChoice: String, ExpressibleByArgument, CaseIterable {
    case github, none
}

enum ErrorChoice: String, ExpressibleByArgument, CaseIterable {
    case fail, skip
}

extension GzipInflater: ExpressibleByArgument {}
