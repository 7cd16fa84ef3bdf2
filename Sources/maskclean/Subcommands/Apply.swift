import ArgumentParser
import MaskClean
import MaskEngine

// maskclean apply FORMAT [VALUE ...] [--affine FORMAT ...] [--strategy S] [--notation C:SET[:optional]]
//                 [--no-autocomplete] [--rtl] [--syntax S] [--template T] [--symbols S] [--placeholder C]
//                 [--check NAME [--date-order O] [--luhn-prefix D]] [--case C] [--ignore S] [--significant S]
// maskclean apply --kind phone [--default-region R] [--phone-format F] [VALUE ...]
//
// Tries a format on values from the command line, or from stdin one per line, and prints what a
// run would write: formatted, extracted, status (invalid with a check), the chosen format and its
// placeholder, and the normalized value when the check has one. With --kind phone every argument
// is a value, read as a phone column reads it: formatted, E.164, status and the detected country.
struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Try a format on values: prints formatted, extracted, status, chosen format and placeholder.",
        discussion: """
            With --kind phone there is no format: every argument is a value, read as a phone \
            column reads it (formatted, extracted E.164, status, country): \
            maskclean apply --kind phone --default-region GB '020 7946 0958'

            With no VALUE, values are read from stdin, one per line. Put -- before the values when \
            one starts with a hyphen: maskclean apply '[000]-[0000]' -- -5551234
            """)

    @Argument(help: "The primary format, e.g. '+1 ([000]) [000]-[0000]'; none with --kind phone.")
    var format: String?

    @Argument(help: "Values to format.")
    var values: [String] = []

    @Option(name: .customLong("affine"), help: "An alternative format (repeat for more).")
    var affineFormats: [String] = []

    @Option(
        help:
            "How the format is picked for each value: bestStatus (the default: complete, then lossy, then incomplete), or the reference's wholeString, prefix, capacity, extractedValueCapacity."
    )
    var strategy: AffinityStrategy = .bestStatus

    @Option(
        name: .customLong("notation"),
        help:
            "A custom slot character: CHAR:SET or CHAR:SET:optional, e.g. 's:$€:optional' (repeat for more).")
    var notations: [String] = []

    @Flag(
        name: .customLong("no-autocomplete"),
        help: "Do not append the format characters after the last filled slot.")
    var noAutocomplete = false

    @Flag(help: "Apply the format from the end of the value (amounts).")
    var rtl = false

    @OptionGroup var syntax: SyntaxFlags

    @Option(help: "Also show the template column, with this character for each unfilled slot.")
    var placeholder: String?

    @Option(
        help: ArgumentHelp(
            "A check on the values that fit a format: one that fails is invalid. date, iban and isbn add the normalized column.",
            valueName: "name"))
    var check: CheckName?

    @Option(
        help: ArgumentHelp(
            "With --check date: the order of day, month and year where the format does not say it.",
            valueName: "order"))
    var dateOrder: DateOrder?

    @Option(
        help: ArgumentHelp(
            "With --check luhn: digits counted in front of each value (80840 for an NPI).",
            valueName: "digits"))
    var luhnPrefix: String?

    @Option(
        name: .customLong("case"),
        help: ArgumentHelp(
            "The case of the formatted and extracted values' letters.",
            valueName: "case"))
    var letterCase: LetterCase = .keep

    @Option(
        help: ArgumentHelp(
            "Characters taken out of each value before masking: never a loss (e.g. ' -' for separators).",
            valueName: "chars"))
    var ignore = ""

    @Option(
        help: ArgumentHelp(
            "Characters that count as data: a value that loses one is lossy (--significant=-. for a sign and a decimal point).",
            valueName: "chars"))
    var significant = ""

    @Option(
        help: ArgumentHelp(
            "phone: read the values as phone numbers of any country, as a kind: phone column does (no format).",
            valueName: "kind"))
    var kind: ColumnKind?

    @Option(
        help: ArgumentHelp(
            "With --kind phone: the region (ISO 3166-1 alpha-2) of numbers written without a country code.",
            valueName: "region"))
    var defaultRegion: String?

    @Option(
        help: ArgumentHelp(
            "With --kind phone: the formatted value's form: international (the default), national or e164.",
            valueName: "form"))
    var phoneFormat: PhoneFormat?

    @Flag(help: "Print one JSON object per value instead of a table.")
    var json = false

    mutating func validate() throws {
        if kind == .phone {
            try validatePhone()
            return
        }
        if format == nil { throw ValidationError("Missing expected argument '<format>' (or --kind phone)") }
        // The phone flags without --kind phone would be ignored, as the spec's keys.
        if defaultRegion != nil { throw ValidationError("--default-region goes with --kind phone") }
        if phoneFormat != nil { throw ValidationError("--phone-format goes with --kind phone") }
        if let placeholder, placeholder.count != 1 {
            throw ValidationError("--placeholder must be one character")
        }
        _ = try parsedNotations()
        // Each of these without the check it belongs to would be ignored, as the spec's keys.
        if dateOrder != nil && check != .date {
            throw ValidationError("--date-order goes with --check date")
        }
        if let luhnPrefix {
            guard check == .luhn else { throw ValidationError("--luhn-prefix goes with --check luhn") }
            guard luhnPrefix.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw ValidationError(
                    visible("--luhn-prefix must be digits only (the NPI's is 80840), not '\(luhnPrefix)'"))
            }
        }
        if let both = ignore.first(where: significant.contains) {
            throw ValidationError(
                visible(
                    "--significant: '\(both)' is in --ignore too: a character is either removed before masking or counted"
                ))
        }
    }

    /// A phone column has no formats, check, case or ignored characters: each such flag would be
    /// ignored, as the spec's keys on a phone column are refused. Its first argument is a value.
    mutating func validatePhone() throws {
        let ignored: [(String, Bool)] = [
            ("--affine", !affineFormats.isEmpty), ("--strategy", strategy != .bestStatus),
            ("--notation", !notations.isEmpty), ("--no-autocomplete", noAutocomplete), ("--rtl", rtl),
            ("--syntax", syntax.syntax != .inputMask), ("--template", syntax.template != nil),
            ("--symbols", syntax.symbols != nil), ("--placeholder", placeholder != nil),
            ("--check", check != nil), ("--date-order", dateOrder != nil),
            ("--luhn-prefix", luhnPrefix != nil),
            ("--case", letterCase != .keep), ("--ignore", !ignore.isEmpty),
            ("--significant", !significant.isEmpty),
        ]
        if let flag = ignored.first(where: \.1)?.0 {
            throw ValidationError("\(flag) does not go with --kind phone: a phone column has no formats")
        }
        if let format {
            values.insert(format, at: 0)
            self.format = nil
        }
    }

    func parsedNotations() throws -> [Notation] {
        try notations.map { text in
            var parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(
                String.init)
            let optional = parts.count == 3 && parts[2] == "optional"
            if parts.count == 3 && !optional {
                // A set that holds ':' itself: everything after the first colon is the set.
                parts = [parts[0], parts[1] + ":" + parts[2]]
            }
            guard parts.count >= 2, parts[0].count == 1, let character = parts[0].first else {
                throw ValidationError(visible("--notation \(text): expected CHAR:SET or CHAR:SET:optional"))
            }
            return Notation(character: character, characterSet: parts[1], isOptional: optional)
        }
    }

    func run() throws {
        if kind == .phone { return try runPhone() }
        var column = ApplyColumn(format: format ?? "")
        column.syntax = syntax.syntax
        column.affineFormats = affineFormats
        column.strategy = strategy
        column.autocomplete = !noAutocomplete
        column.syntaxOptions = syntax.options
        column.syntaxOptions.notations = try parsedNotations()
        column.syntaxOptions.rightToLeft = rtl
        column.placeholder = placeholder?.first ?? (syntax.template != nil ? "_" : nil)
        column.check = check
        column.dateOrder = dateOrder
        column.luhnPrefix = luhnPrefix ?? ""
        column.letterCase = letterCase
        column.ignore = ignore
        column.syntaxOptions.significant = significant
        try ExitPath.run { () throws(MaskCleanError) -> ExitStatus in
            let compiled = try column.compile()
            let mask = compiled.mask
            // A row goes out per value that comes in: nothing waits for the input to end.
            var out = StandardOutput()
            var table =
                json
                ? nil
                : ApplyTable(
                    withNormalized: check?.hasNormalizedForm ?? false,
                    withTemplate: column.placeholder != nil, formats: mask.masks.map(\.format),
                    placeholders: mask.masks.map(\.placeholder), streaming: values.isEmpty)
            let emit = { (value: String) throws(MaskCleanError) in
                let row = column.row(compiled, value: value)
                if table != nil {
                    try table!.add(row, to: &out)
                } else {
                    try out.write(row.jsonLine + "\n")
                }
            }
            if values.isEmpty {
                try StandardInputValues.forEach(emit) { () throws(MaskCleanError) in try out.flush() }
            } else {
                for value in values { try emit(value) }
            }
            try table?.finish(to: &out)
            try out.flush()
            return .success
        }
    }
}

extension Apply {
    /// `--kind phone`: each value read as a phone column reads its cells.
    func runPhone() throws {
        try ExitPath.run { () throws(MaskCleanError) -> ExitStatus in
            let column = try ApplyPhoneColumn(
                defaultRegion: defaultRegion, format: phoneFormat ?? .international)
            var out = StandardOutput()
            var table = json ? nil : ApplyTable(phoneStreaming: values.isEmpty)
            let emit = { (value: String) throws(MaskCleanError) in
                let row = column.row(value)
                if table != nil {
                    try table!.add(cells: row.cells, to: &out)
                } else {
                    try out.write(row.jsonLine + "\n")
                }
            }
            if values.isEmpty {
                try StandardInputValues.forEach(emit) { () throws(MaskCleanError) in try out.flush() }
            } else {
                for value in values { try emit(value) }
            }
            try table?.finish(to: &out)
            try out.flush()
            return .success
        }
    }
}

/// `--strategy`: the engine's strategies, as they are named.
extension AffinityStrategy: ExpressibleByArgument {}

/// `--check`, `--date-order` and `--case`: the library's own names, as the spec spells them.
extension CheckName: ExpressibleByArgument {}
extension DateOrder: ExpressibleByArgument {}
extension LetterCase: ExpressibleByArgument {}

/// `--kind` and `--phone-format`: the spec's `kind` and `phoneFormat` values.
extension ColumnKind: ExpressibleByArgument {}
extension PhoneFormat: ExpressibleByArgument {}
