import ArgumentParser
import MaskClean

// maskclean run SPEC INPUT [-o OUTPUT] [--report REPORT] [options]
//
// Masks the spec's columns of every record and writes the records back with the added
// formatted, extracted and status columns, in input order. A summary goes to stderr.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mask the spec's columns and write every record back with the added columns.",
        discussion: """
            Records are written to OUTPUT (default: stdout) through a temporary file renamed into place \
            when the run succeeds, so a failed run leaves nothing half-written. Exits 1 when the export \
            misses the spec's gate (minComplete, maxRejected, minRows); the outputs are written then.
            """)

    @OptionGroup var records: RecordOptions

    @Option(
        name: [.short, .customLong("output")],
        help:
            "Write the records here (default: stdout); with several inputs, a directory (DIR/), each input's under its name."
    )
    var output: String = "-"

    @Option(help: "The output's format (default: the input's).")
    var outputFormat: RecordFormat?

    @Flag(
        help:
            "With --no-header: start the output with the header line of the --columns names and the added columns."
    )
    var header = false

    @Option(help: Self.compressHelp)
    var compress: CompressChoice?

    static let compressHelp = ArgumentHelp(
        "Compress the records: gzip, zstd or none (default: by OUTPUT's extension, .gz or .zst).",
        valueName: "gzip|zstd|none")

    @Option(help: "The compression level: gzip 1 to 9, zstd 1 to 22 (default 1, the fastest).")
    var compressionLevel: Int?

    mutating func validate() throws {
        _ = try records.manyInputs(output: output)
        if header && !records.noHeader {
            throw ValidationError(
                "--header goes with --no-header; an input with a header line has it written anyway")
        }
        if header, let outputFormat, outputFormat == .json || outputFormat == .ndjson {
            throw ValidationError(
                "--header writes a CSV or TSV header line; --output-format \(outputFormat.rawValue) has none")
        }
        guard let compressionLevel else { return }
        let compression: Compression?
        switch compress {
        case .with(let asked)?: compression = asked
        case .none?: compression = nil
        case nil: compression = Compression.fromSuffix(of: output)
        }
        guard let compression else {
            throw ValidationError(
                "--compression-level needs a compressed output: -o FILE.gz or FILE.zst, or --compress")
        }
        let levels = Compressor.levels(compression)
        guard levels.contains(compressionLevel) else {
            throw ValidationError(
                "--compression-level for \(compression.rawValue) must be from \(levels.lowerBound) to \(levels.upperBound)"
            )
        }
    }

    func run() throws {
        try ExitPath.run {
            var settings = try records.settings(output: output, outputFormat: outputFormat)
            if let compress { settings.options.compression = compress.compression }
            settings.options.compressionLevel = compressionLevel
            if header { settings.options.writesHeader = true }
            return try Frontend.run(settings)
        }
    }
}

/// `--compress`: each of the library's compressions (`Compression`) by its name, or none.
enum CompressChoice: RawRepresentable, ExpressibleByArgument, CaseIterable, Equatable {
    case with(Compression)
    case none

    static let allCases = Compression.allCases.map(Self.with) + [.none]

    init?(rawValue: String) {
        guard let choice = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = choice
    }

    var rawValue: String {
        switch self {
        case .with(let compression): compression.rawValue
        case .none: "none"
        }
    }

    /// How the records are compressed when this is asked for.
    var compression: OutputCompression {
        switch self {
        case .with(let compression): .with(compression)
        case .none: .none
        }
    }
}
