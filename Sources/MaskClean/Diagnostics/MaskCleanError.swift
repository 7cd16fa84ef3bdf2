/// The exit statuses of DESIGN §4, after sysexits(3).
public enum ExitStatus: Int32, Sendable {
    /// All good.
    case success = 0
    /// The run finished, but a column's `minComplete` threshold was not met.
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

/// Every error maskclean reports: one line that names the file and the place in it, and the exit
/// status it ends the run with.
public struct MaskCleanError: Error, Sendable, CustomStringConvertible {
    public var status: ExitStatus
    public var message: String

    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }

    /// `spec.json: columns[0] "phone": format: unexpected '[' inside [] at offset 9`
    public static func spec(_ file: String, _ place: String?, _ what: String) -> MaskCleanError {
        MaskCleanError(.config, [file, place, what].compactMap { $0 }.joined(separator: ": "))
    }

    /// `data.csv:102: unterminated quoted field`
    public static func data(_ file: String, line: Int?, _ what: String) -> MaskCleanError {
        MaskCleanError(.dataError, line.map { "\(file):\($0): \(what)" } ?? "\(file): \(what)")
    }

    public static func noInput(_ file: String, _ what: String) -> MaskCleanError {
        MaskCleanError(.noInput, "\(file): \(what)")
    }

    public static func cannotCreate(_ file: String, _ what: String) -> MaskCleanError {
        MaskCleanError(.cannotCreate, "\(file): \(what)")
    }

    public static func write(_ file: String, _ what: String) -> MaskCleanError {
        MaskCleanError(.ioError, "\(file): \(what)")
    }

    public static func usage(_ what: String) -> MaskCleanError {
        MaskCleanError(.usage, what)
    }
}

/// A size for messages: `32 MiB`, `4 KiB`, `100 bytes`.
func byteCount(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
}

/// Text from the data or the spec, made safe to show on a terminal: control characters (C0, DEL,
/// C1) and the marks that reorder text are shown as escapes (`\x1b`, `\n`, `\u{202E}`), so that
/// an input file cannot retitle, clear or rewrite the terminal of whoever reads a message, and a
/// message stays one line. Every message, summary and table goes through it.
public func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var shown = ""
    for scalar in text.unicodeScalars {
        guard needsEscape(scalar) else {
            shown.unicodeScalars.append(scalar)
            continue
        }
        switch scalar {
        case "\n": shown += "\\n"
        case "\r": shown += "\\r"
        case "\t": shown += "\\t"
        default:
            shown +=
                scalar.value < 0x80
                ? "\\x" + hexDigits(scalar.value, count: 2) : "\\u{" + hexDigits(scalar.value, count: 4) + "}"
        }
    }
    return shown
}

private func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
}

private func hexDigits(_ value: UInt32, count: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, count - digits.count)) + digits
}
