import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// maskclean's version, as `--version` prints it and every report records it.
public let maskcleanVersion = "0.1.0"

extension Report {
    /// What a report was made from and when, so that it can be archived and trended
    /// (docs/report.md#where-a-report-came-from): the input's size, the spec's path, maskclean's
    /// version, when the run started and how long it took. The input's name is `Report.input`,
    /// the spec's fingerprint `Report.specFingerprint`.
    public struct Origin: Sendable, Equatable {
        /// The input's size in bytes as stored (compressed, for a `.gz` or `.zst` input); nil for
        /// standard input or a pipe, and for a merge unless every partial report knew its own.
        public var inputBytes: Int?
        /// The spec's path, as named on the command line.
        public var spec: String?
        public var version = maskcleanVersion
        /// When the run or the merge started; nil for a report not made by one.
        public var started: Date?
        /// How long it took, from its start to its report.
        public var duration: Duration?
        /// The CSV or TSV input's field delimiter; nil for JSON input, and for a merge of
        /// reports that do not all say the same.
        public var delimiter: UInt8?
        /// Whether the delimiter was detected (`--delimiter auto`) rather than given or the
        /// format's own.
        public var delimiterDetected = false
        /// The encoding the input was read as (`--encoding`); nil for a report that does not say
        /// (one written before reports said it, a merge of reports that do not all say the same).
        public var encoding: TextEncoding?

        public init(
            inputBytes: Int? = nil, spec: String? = nil, started: Date? = nil, duration: Duration? = nil
        ) {
            (self.inputBytes, self.spec, self.started, self.duration) = (inputBytes, spec, started, duration)
        }
    }
}

/// The times a report writes: UTC, to the second.
enum ReportTime {
    /// RFC 3339 in UTC: `2026-11-27T01:23:45Z`.
    static func rfc3339(_ date: Date) -> String {
        utc(date) + "Z"
    }

    /// As JUnit's schema has a `timestamp`: ISO 8601 without a zone (`2026-11-27T01:23:45`),
    /// which the report documents as UTC.
    static func junit(_ date: Date) -> String {
        utc(date)
    }

    private static func utc(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        return
            "\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// A duration in seconds with three decimals, truncated: `0.123`, `12.000`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = max(0, attoseconds / 1_000_000_000_000_000)
        let fraction = String(milliseconds)
        return "\(max(0, seconds)).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

/// When a run or a merge started, for its report's `Origin`: the wall clock's date, which the
/// report shows, and the monotonic clock's instant, which its duration is measured on.
struct ReportTimer {
    private let date = Date()
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    init() { start = clock.now }

    /// The origin of a report finished now.
    func origin(inputBytes: Int?, spec: String) -> Report.Origin {
        Report.Origin(inputBytes: inputBytes, spec: spec, started: date, duration: clock.now - start)
    }
}
