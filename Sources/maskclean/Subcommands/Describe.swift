import ArgumentParser
import FoundationEssentials
import MaskClean

// maskclean describe INPUT [-o SPEC] [--sample N] [--head N] [--only a,"b, c",...]... [--input-format F] [--delimiter D]
//                    [--no-header --columns NAMES]
//
// Reads an export, proposes a spec for it from a sample of records spread over all of it (a
// format and its alternatives for each column whose values have a recognised kind or a few
// shapes, and why the other columns were left out), then masks every record with it for the
// figures behind it.
struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Propose a spec from the data: formats for the columns that have them, with their figures.",
        discussion: """
            Reads every record (or the first --head) with the readers of `run`, keeps a sample of \
            --sample records spread over all of them (the same on every run) and, for each column, \
            counts the sample's values' shapes and recognises kinds by their rules: card numbers \
            (check: luhn), dates (check: date), ISO 8601 timestamps, IBANs, ISBNs and GTINs (with \
            their checks), postcodes of the UK, Canada, the Netherlands and Ireland (case: upper), \
            US ZIP codes and the postcodes of Germany, France, Brazil, Japan and India and US EINs \
            and SSNs where the column's name says so, and phone numbers of any country, which get \
            kind: phone with the region of the numbers written without a country code as \
            defaultRegion (when 80% of the values are valid numbers). A column is proposed when \
            its kind or its formats cover at least half of its non-empty values and no complete \
            value would say something else once formatted (the same letters and digits in order, \
            no sign or decimal point dropped, digit groups kept). Free text, names, e-mail \
            addresses and URLs, enumerations and flags, constant columns, identifiers and numbers \
            in too many shapes are left out, with a comment saying why. Every record read is then masked with the proposed \
            columns: minComplete is the share that came out complete (rounded down), so that \
            `maskclean check` passes on the same records. A bad record anywhere fails describe with \
            the error `run` would give. The spec \
            is YAML with a comment of figures for each column (JSON for -o x.json). Edit it, then run \
            `maskclean check` with it.
            """)

    @Argument(
        help:
            "The records to look at: a .csv, .tsv, .json (array of objects) or .ndjson/.jsonl file, or - for stdin."
    )
    var input: String

    @OptionGroup var reader: ReaderOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the spec to this file: YAML for .yaml or .yml, JSON for .json (default: YAML on stdout).",
            valueName: "spec"))
    var output: String?

    @Flag(
        help: "Replace the file -o names when it exists (a spec edited by hand is not replaced without it).")
    var force = false

    @Option(
        help: ArgumentHelp(
            "Judge the proposal from N records spread over all those read (0: every record, slower).",
            valueName: "n"))
    var sample = 10_000

    @Option(help: ArgumentHelp("Read only the first N records (0: every record).", valueName: "n"))
    var head = 0

    @Option(
        help: ArgumentHelp(
            "Propose only these columns: names separated by commas, one that holds a comma or a quote in double quotes as in CSV (--only 'id,\"name, full\"'); repeatable. Each must be in the input.",
            valueName: "names"))
    var only: [String] = []

    mutating func validate() throws {
        if sample < 0 {
            throw ValidationError("--sample must be 0 (every record) or more")
        }
        if head < 0 {
            throw ValidationError("--head must be 0 (every record) or more")
        }
        if let names = try onlyNames(), names.contains(where: \.isEmpty) {
            throw ValidationError("--only needs column names separated by commas, none of them empty")
        }
        _ = try reader.columnNames(input: input)
    }

    /// The names of every `--only`, each read as one CSV line with commas whatever the input's
    /// delimiter (docs/command-line.md); nil without `--only`.
    private func onlyNames() throws -> [String]? {
        guard !only.isEmpty else { return nil }
        var names: [String] = []
        for text in only {
            do throws(MaskCleanError) {
                names += try ColumnList.fields(
                    of: text, delimiter: UInt8(ascii: ","), option: .proposedColumns)
            } catch {
                throw ValidationError(visible(error.shown))
            }
        }
        return names
    }

    func run() throws {
        try ExitPath.run {
            var options = DescribeOptions(input: input)
            options.inputFormat = reader.inputFormat
            options.delimiter = try reader.delimiterByte()
            options.detectsDelimiter = reader.detectsDelimiter
            options.encoding = try reader.textEncoding()
            options.columnNames = try reader.columnNames(input: input)
            options.sample = sample
            options.head = head
            options.only = try onlyNames()
            try propose(options)
            return .success
        }
    }

    /// Proposes the spec and writes it: to `-o`'s file, with a line on stderr saying what it
    /// holds, or to standard output.
    private func propose(_ options: DescribeOptions) throws(MaskCleanError) {
        let toFile = output.map { $0 != "-" } ?? false
        if let output, toFile {
            _ = try SpecProposal.isJSON(output)
            try OutputPaths.check([(.proposedSpec, output)], protecting: [(input, "input")])
            if !force && OutputPaths.isExistingRegularFile(output) {
                throw .usage(
                    "-o \(output) exists: describe replaces a file only with --force (a spec edited by hand is data too)"
                )
            }
        }
        let proposal = try SpecProposer.describe(options)
        for warning in proposal.warnings {
            Diagnostics.warning(warning.rendered(naming: \.flag, setting: \.flag))
        }
        guard let output, toFile else {
            var standardOutput = StandardOutput()
            try standardOutput.write(
                proposal.yaml(schemaBeside: FileManager.default.fileExists(atPath: SpecProposal.schemaFile)))
            try standardOutput.flush()
            return
        }
        try proposal.write(to: output)
        // The first names only: a spec of 100,000 columns made one line of a megabyte.
        let shown = 10
        let more = proposal.proposed.count - shown
        let names =
            proposal.proposed.prefix(shown).map(\.name).joined(separator: ", ")
            + (more > 0 ? " and \(more) more" : "")
        Diagnostics.print(
            visible(
                "\(output): \(proposal.proposed.count) of \(proposal.columns.count) columns proposed (\(names)) from \(proposal.records) records"
            ))
    }
}
