/// The exit statuses (docs/exit-status.md), after sysexits(3).
public enum ExitStatus: Int32, Sendable {
    /// All good.
    case success = 0
    /// The run finished, but the export missed the spec's gate: a column below its
    /// `minComplete`, more rejected records than `maxRejected`, or fewer than `minRows`.
    case thresholdNotMet = 1
    /// Wrong usage of the command line.
    case usage = 64
    /// Malformed input data.
    case dataError = 65
    /// The input file is missing or unreadable.
    case noInput = 66
    /// An output file cannot be created.
    case cannotCreate = 73
    /// Writing failed (a full disk, a closed pipe).
    case ioError = 74
    /// A bad spec.
    case config = 78
}

/// Every error maskclean reports, as data: what kind it is, the file and the place in it, and
/// what is wrong. `status` says how it ends the run; `message` renders it as the one line a user
/// reads.
public enum MaskCleanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Wrong use of the command line (or of the library's options): the outputs and settings it
    /// names are named by role, which the executable names by flag.
    case usage(UsageMessage)
    /// Malformed input data: the input's name, the line its record begins on (when one is
    /// known), and what is wrong, its settings named in words as in a usage error.
    case data(_ file: String, line: Int?, _ reason: UsageMessage)
    /// A bad spec: the spec file, the place in it (`columns[0] "phone": format`), what is wrong,
    /// its settings named in words as in a usage error.
    case spec(_ file: String, _ place: String?, _ reason: UsageMessage)
    /// The input is missing or cannot be read.
    case noInput(_ file: String, _ reason: String)
    /// An output cannot be created.
    case cannotCreate(_ file: String, _ reason: String)
    /// Writing an output failed (a full disk, a report whose reader closed the pipe).
    case write(_ file: String, _ reason: String)
    /// The reader of standard output went away (`maskclean run … | head`): the run ends quietly
    /// with 0, as a Unix filter does.
    case brokenPipe

    public var status: ExitStatus {
        switch self {
        case .usage: .usage
        case .data: .dataError
        case .spec: .config
        case .noInput: .noInput
        case .cannotCreate: .cannotCreate
        case .write: .ioError
        case .brokenPipe: .success
        }
    }

    /// The message: `data.csv:102: unterminated quoted field`, `spec.json: columns[0] "phone":
    /// format: unexpected '[' inside [] at offset 9`. Empty for a broken pipe, which says nothing.
    /// Outputs are named by role (`the HTML report`); `message(naming:)` names them otherwise.
    public var message: String { message(naming: \.description) }

    /// The message with every output named as `name` says, and every setting as `setting` says
    /// (in words, unless told otherwise): the executable names each by the flag that sets it
    /// (`--html`, `--first-row`).
    public func message(
        naming name: (OutputRole) -> String, setting: (Setting) -> String = { $0.description }
    ) -> String {
        switch self {
        case .usage(let reason): reason.rendered(naming: name, setting: setting)
        case .data(let file, let line, let reason):
            (line.map { "\(file):\($0): " } ?? "\(file): ") + reason.rendered(naming: name, setting: setting)
        case .spec(let file, let place, let reason):
            [file, place, reason.rendered(naming: name, setting: setting)].compactMap { $0 }.joined(
                separator: ": ")
        case .noInput(let file, let reason), .cannotCreate(let file, let reason),
            .write(let file, let reason):
            "\(file): \(reason)"
        case .brokenPipe: ""
        }
    }

    public var description: String { message }

    public var isBrokenPipe: Bool { self == .brokenPipe }
}

/// A size for messages: `32 MiB`, `4 KiB`, `100 bytes`.
func byteCount(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
}

/// Text from the data or the spec, made safe to show to a person: every character that is not
/// shown as itself is written as an escape (`\x1b`, `\n`, `\u{200b}`), so that an input file
/// cannot retitle, clear or rewrite the terminal of whoever reads a message, a message stays one
/// line, and two names that differ only in what cannot be seen (`minComplete` and
/// `minComplete\u{200b}`) look different. The one escaper for everything shown rather than
/// written as data: messages, the summary, annotations, the Markdown summary, the HTML page,
/// apply's table (docs/exit-status.md#messages says which characters).
public func visible(_ text: String) -> String {
    // Printable ASCII, most of what is shown, as it is.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    guard text.unicodeScalars.contains(where: isShownEscaped) else { return text }
    return text.replacingScalars { scalar in
        guard isShownEscaped(scalar) else { return nil }
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            return scalar.value < 0x80
                ? "\\x" + hexDigits(scalar.value, count: 2) : "\\u{" + hexDigits(scalar.value, count: 4) + "}"
        }
    }
}

/// Whether a character is shown as an escape: control characters (C0, DEL, C1), which drive a
/// terminal; format characters (zero-width spaces and joiners, the soft hyphen, the byte order
/// mark, the marks that reorder text, tag characters), which are invisible or move what follows;
/// line and paragraph separators; every space but the ASCII space (a no-break space looks like
/// one); and what else Unicode says to show as nothing (variation selectors, Hangul fillers).
func isShownEscaped(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator: return true
    default: return properties.isDefaultIgnorableCodePoint
    }
}

func hexDigits(_ value: UInt32, count: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, count - digits.count)) + digits
}
