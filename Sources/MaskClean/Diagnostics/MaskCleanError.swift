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
