/// The error that stopped a run once its spec had loaded (docs/report.md#a-run-that-stopped): a
/// report is still written in every format asked for, so that a CI page says what happened
/// instead of showing a red job and nothing else. The report holds the counts made before it.
public struct RunError: Sendable, Equatable {
    /// The run's exit status (docs/exit-status.md): 65 malformed input, 66 unreadable input, 74
    /// a write error, 78 a bad spec.
    public var status: Int32
    /// The one line the run printed on standard error: `data.csv:102: unterminated quoted field`.
    public var message: String
    /// The file it is about (the input, the spec, an output), when there is one.
    public var file: String?
    /// The line in that file, when it is known.
    public var line: Int?

    public init(status: Int32, message: String, file: String?, line: Int?) {
        (self.status, self.message, self.file, self.line) = (status, message, file, line)
    }

    /// `error` as a report records it. A YAML spec's errors name the spec as `spec.yaml:14`:
    /// given the spec's path, that is read back as the file and its line.
    public init(_ error: MaskCleanError, spec: String? = nil) {
        status = error.status.rawValue
        message = error.message
        switch error {
        case .data(let file, let line, _):
            (self.file, self.line) = (file, line)
        case .noInput(let file, _), .cannotCreate(let file, _), .write(let file, _):
            (self.file, line) = (file, nil)
        case .spec(let file, _, _):
            if let spec, file.hasPrefix(spec + ":"), let line = Int(file.dropFirst(spec.count + 1)) {
                (self.file, self.line) = (spec, line)
            } else {
                (self.file, line) = (file, nil)
            }
        case .usage, .brokenPipe:
            (file, line) = (nil, nil)
        }
    }
}

extension RunError {
    /// The error as a redacted report says it: the input's column names that a message quotes
    /// to help (`(its columns: "id", "phone")`, `(keys seen: …)`, `did you mean "phone"?`) by
    /// their shape, since a
    /// header line may be a record (a headerless export read as if it had one), and the report
    /// goes where many read it. The message on standard error keeps them.
    public func redactingData() -> RunError {
        let markers = [" (its columns", " (keys seen", "; did you mean"]
        guard let start = markers.compactMap({ message.firstRange(of: $0)?.lowerBound }).min() else {
            return self
        }
        var redacted = self
        let tail = message[start...].replacing(#/"[^"]*"/#) { quoted in
            Redaction.redact(String(quoted.output))
        }
        redacted.message = String(message[..<start]) + tail
        return redacted
    }
}

extension Report {
    /// The report of a run whose spec could not be loaded (78): no columns, only the error.
    public init(specError: RunError, input: String) {
        columns = []
        maxRejected = 0
        minRows = 0
        specFingerprint = ""
        self.input = input
        error = specError
    }

    /// The report stopped by `error`, keeping the counts made before it.
    public func stopped(by error: RunError) -> Report {
        var report = self
        report.error = error
        return report
    }

    /// The one finding of a report that stopped: the error, at its file and line.
    var errorFinding: Finding? {
        error.map { Finding(level: .error, subject: Self.stoppedSubject, message: $0.message, detail: "") }
    }

    static let stoppedSubject = "run stopped"
}
