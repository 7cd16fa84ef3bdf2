import Foundation

@testable import MaskClean

/// One fuzz input through a whole `maskclean run`: written to a file, read with a spec that
/// masks a phone and a date, written to files. The input's length picks the error mode, the job
/// count and a tiny chunk size, so that records span chunks and chunks run in parallel. CSV runs
/// twice, splitting plain lines and through libcsv only, and both must write the same bytes.
public final class FuzzRun: @unchecked Sendable {
    public static let shared = FuzzRun()

    private let spec: Spec
    private let directory: String

    private init() {
        let text = """
            {"notations": [{"character": "s", "characterSet": "$€", "isOptional": true}],
             "columns": [
               {"name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"],
                "templateColumn": "phone_template"},
               {"name": "date", "format": "[00]{/}[00]{/}[9900]", "affinityStrategy": "prefix",
                "affineFormats": ["[0000]{-}[00]{-}[00]"], "rightToLeft": true},
               {"name": "amount", "format": "[s][999]", "required": true, "minComplete": 0.5}
             ]}
            """
        spec = try! SpecLoader.parse(Array(text.utf8), file: "fuzz-spec.json")
        directory = NSTemporaryDirectory() + "maskclean-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    public func run(_ bytes: UnsafeBufferPointer<UInt8>, format: RecordFormat) {
        var input = Array(bytes)
        if format == .csv && bytes.count % 3 == 0 {
            // Most inputs get a header the spec fits, so that records are reached.
            input = Array("id,phone,date,amount\n".utf8) + input
        }
        let path = "\(directory)/input.\(format.rawValue)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(input))
        var options = RunOptions(input: path, output: "\(directory)/out", jobs: 1 + bytes.count % 2)
        options.inputFormat = format
        options.outputFormat = RecordFormat.allCases[bytes.count / 2 % RecordFormat.allCases.count]
        options.policy = [ErrorPolicy.fail, .skip, .quarantine][bytes.count / 8 % 3]
        options.quarantine = "\(directory)/bad"
        options.chunkSize = 16 + bytes.count % 48
        options.maximumRecordBytes = 4096
        options.escapeFormulas = bytes.count % 5 == 0
        let split = outcome(options)
        if format == .csv {
            // Lines without a quote are split at the delimiter; libcsv must read them the same.
            options.splitsPlainLines = false
            let parsed = outcome(options)
            precondition(split == parsed, "split lines and libcsv disagree:\n\(split)\n---\n\(parsed)")
        }
    }

    /// What a run gave: its report or error, and the bytes it wrote.
    private func outcome(_ options: RunOptions) -> String {
        for path in [options.output, options.quarantine].compactMap({ $0 }) {
            try? FileManager.default.removeItem(atPath: path)
        }
        var text: String
        do {
            let report = try Runner.run(spec, options)
            for column in report.columns {
                precondition(
                    column.stats.cells == report.rows - report.rejectedCount,
                    "the report does not balance: \(column.stats.cells) cells, \(report.rows) rows, \(report.rejectedCount) rejected"
                )
            }
            text = report.json
            _ = report.summary
        } catch {
            precondition(
                error.status == .dataError || error.status == .config,
                "unexpected failure: \(error.status) \(error.message)")
            precondition(!error.message.isEmpty, "an error without a message")
            text = "\(error.status) \(error.message)"
        }
        for path in [options.output, options.quarantine].compactMap({ $0 }) {
            text += "\n\(path): \(Self.contents(of: path))"
        }
        return text
    }

    /// A file's bytes, read with POSIX calls: `FileManager.contents(atPath:)` leaks its buffer
    /// for some files, which LeakSanitizer reports as a finding.
    private static func contents(of path: String) -> [UInt8] {
        let file = open(path, O_RDONLY)
        guard file >= 0 else { return [] }
        defer { close(file) }
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = block.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += block[..<count]
        }
        return bytes
    }
}
