import ArgumentParser
import Foundation
import MaskClean

/// The options `run` and `check` share.
struct RecordOptions: ParsableArguments {
    @Argument(help: "The spec file (JSON): the columns to mask and how.")
    var spec: String

    @Argument(
        help:
            "The records to clean: a .csv, .tsv, .json (array of objects) or .ndjson/.jsonl file, or - for stdin."
    )
    var input: String

    @OptionGroup var reportOutputs: ReportOptions

    @Option(help: "The input's format, when its extension does not say it.")
    var inputFormat: FormatChoice?

    @Option(help: "The CSV field delimiter: one character, or 'tab' (default: , or tab for TSV).")
    var delimiter: String?

    @Flag(
        name: .customLong("no-header"),
        help: "The CSV or TSV input has no header line: its first line is a record. Needs --columns.")
    var noHeader = false

    @Option(
        help: ArgumentHelp(
            "With --no-header: the input's column names, as its header line would give them (one CSV line with the input's delimiter).",
            valueName: "names"))
    var columns: String?

    @Option(
        help:
            "Worker threads, 1 to 256 (default: the number of active cores, at most 64). Any number gives the same output."
    )
    var jobs: Int?

    @Flag(help: "Print no summary on stderr.")
    var quiet = false

    @Flag(help: "Draw a progress bar on stderr (only when stderr is a terminal).")
    var progress = false

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
        if spec == "-" && input == "-" {
            throw ValidationError("the spec and the input cannot both be standard input")
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
        if let firstRow, firstRow < 1 {
            throw ValidationError(
                "--first-row must be 1 or more (the row number of the input's first record)")
        }
        _ = try delimiterByte()
        if noHeader && columns == nil {
            throw ValidationError(
                "--no-header needs --columns to name the input's columns: --columns id,name,phone")
        }
        if columns != nil && !noHeader {
            throw ValidationError(
                "--columns names the columns of an input without a header line; add --no-header (a header names its own)"
            )
        }
        _ = try columnNames()
    }

    func delimiterByte() throws -> UInt8? {
        guard let delimiter else { return nil }
        switch delimiter {
        case "tab", "\\t", "\t": return 0x09
        default:
            guard delimiter.utf8.count == 1, let byte = delimiter.utf8.first, byte != 0x22, byte != 0x0A,
                byte != 0x0D
            else {
                throw ValidationError(
                    "--delimiter must be one ASCII character other than a quote or a line break, or 'tab'")
            }
            return byte
        }
    }

    /// The names `--columns` gives, read with the input's delimiter (docs/command-line.md); nil
    /// when the input has a header line.
    func columnNames() throws -> [String]? {
        guard noHeader, let columns else { return nil }
        let format = inputFormat?.format ?? RecordFormat.fromExtension(of: input)
        let delimiter = try delimiterByte() ?? (format == .tsv ? 0x09 : UInt8(ascii: ","))
        do {
            return try ColumnList.parse(columns, delimiter: delimiter)
        } catch {
            throw ValidationError(visible(error.message))
        }
    }

    /// The settings for the frontend; `output` is nil for `check`.
    func settings(output: String?, outputFormat: FormatChoice?) throws -> Frontend.Settings {
        var options = RunOptions(
            input: input, output: output, report: reportOutputs.report,
            jobs: jobs ?? min(64, ProcessInfo.processInfo.activeProcessorCount))
        options.inputFormat = inputFormat?.format
        options.outputFormat = outputFormat?.format
        options.delimiter = try delimiterByte()
        options.columnNames = try columnNames()
        options.writesHeader = !noHeader
        options.policy = quarantine != nil ? .quarantine : onError == .skip ? .skip : .fail
        options.quarantine = quarantine
        options.html = reportOutputs.html
        options.escapeFormulas = escapeFormulas
        options.junit = reportOutputs.junit
        options.markdown = reportOutputs.markdown
        options.redactSamples = reportOutputs.redactSamples
        options.part = part
        options.firstRow = firstRow
        let shown = Frontend.Shown(spec: spec, quiet: quiet, annotations: reportOutputs.annotations)
        var settings = Frontend.Settings(spec: spec, options: options, quiet: quiet, progress: progress)
        settings.annotations = shown.annotations
        settings.stepSummary = shown.stepSummary
        return settings
    }
}

enum FormatChoice: String, ExpressibleByArgument, CaseIterable {
    case csv, tsv, json, ndjson

    var format: RecordFormat { RecordFormat(rawValue: rawValue)! }
}

enum AnnotationsChoice: String, ExpressibleByArgument, CaseIterable {
    case github, none
}

enum ErrorChoice: String, ExpressibleByArgument, CaseIterable {
    case fail, skip
}
