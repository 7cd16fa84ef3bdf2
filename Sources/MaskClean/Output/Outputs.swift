import FoundationEssentials

/// Every file a run writes (the records, the quarantine, the report): checked against the input,
/// the spec and each other, opened before any work, and committed together or not at all.
final class Outputs {
    private var records: OutputFile?
    private var quarantine: OutputFile?
    /// The report's files, one per format asked for, in the registry's order (`ReportFormat`),
    /// each with its compressor when its format and extension say it is compressed.
    private var reports: [(format: ReportFormat, file: OutputFile, compressor: Compressor?)] = []
    /// How the records and the quarantine are compressed, if they are (docs/record-formats.md):
    /// the records as `--compress` or `-o`'s extension says, the quarantine by its extension.
    /// These compress what the writer writes itself (a header, a quarantined record); the
    /// workers compress the chunks' records.
    private var recordsCompressor: Compressor?
    private var quarantineCompressor: Compressor?
    /// Whether anything went to the records or the quarantine: an empty compressed file still
    /// gets one empty member or frame, so that every tool reads it.
    private var wroteRecords = false
    private var wroteQuarantine = false

    /// Refuses outputs that would destroy the input or the spec, or each other: paths are
    /// compared by the file they name (a link, a hard link, `./out.csv` and `out.csv` alike).
    static func checkPaths(_ options: RunOptions, spec: String) throws(MaskCleanError) {
        try checkPaths(options, protecting: [(options.input, "input"), (spec, "spec")])
    }

    /// Refuses outputs that would destroy one of the files `protected` names, or each other.
    static func checkPaths(_ options: RunOptions, protecting protected: [(path: String, what: String)])
        throws(MaskCleanError)
    {
        try OutputPaths.check(options.namedOutputs, protecting: protected)
    }
    /// Creates every output before any work, so that one that cannot be created fails the run
    /// at once (exit 73).
    init(_ options: RunOptions) throws(MaskCleanError) {
        do throws(MaskCleanError) {
            if let path = options.output { records = try OutputFile(path: path) }
            for format in ReportFormat.allCases {
                guard let path = options.reportPaths[format] else { continue }
                let compression = format.compressesBySuffix ? Compression.fromSuffix(of: path) : nil
                reports.append((format, try OutputFile(path: path), compression.map { Compressor($0) }))
            }
            if options.policy == .quarantine, let path = options.quarantine {
                quarantine = try OutputFile(path: path)
            }
            let level = options.compressionLevel
            recordsCompressor = options.recordsCompression.map { Compressor($0, level: level) }
            quarantineCompressor = options.quarantine.flatMap(Compression.fromSuffix).map { Compressor($0) }
        } catch {
            discard()
            throw error
        }
    }

    /// Whether records are written at all (`check` writes none).
    var writesRecords: Bool { records != nil }

    func writeRecords(_ bytes: UnsafeRawBufferPointer) throws(MaskCleanError) {
        guard let records, !bytes.isEmpty else { return }
        wroteRecords = true
        try Self.write(bytes, to: records, compressor: recordsCompressor)
    }

    /// Writes `bytes` to `file`, compressed into a member or frame of their own when it is
    /// written compressed.
    private static func write(
        _ bytes: UnsafeRawBufferPointer, to file: OutputFile, compressor: Compressor?
    ) throws(MaskCleanError) {
        if let compressor {
            try file.write(compressor.compressed(bytes))
        } else {
            try file.write(bytes)
        }
    }

    func writeRecords(_ bytes: [UInt8]) throws(MaskCleanError) {
        var failure: MaskCleanError?
        bytes.withUnsafeBytes { bytes in
            do throws(MaskCleanError) { try writeRecords(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes records a worker compressed already (`ChunkPipeline`), as they are.
    func writeCompressedRecords(_ bytes: UnsafeRawBufferPointer) throws(MaskCleanError) {
        guard let records, !bytes.isEmpty else { return }
        wroteRecords = true
        try records.write(bytes)
    }

    func writeQuarantine(_ bytes: UnsafeRawBufferPointer) throws(MaskCleanError) {
        guard let quarantine, !bytes.isEmpty else { return }
        wroteQuarantine = true
        try Self.write(bytes, to: quarantine, compressor: quarantineCompressor)
    }

    /// Writes the report in every format asked for (each rendered only when its file is), then
    /// commits every output.
    func commit(_ finished: Report) throws(MaskCleanError) {
        var texts: [ReportFormat: String] = [:]
        for (format, _, _) in reports { texts[format] = format.render(finished) }
        try commit(rendered: texts)
    }

    /// Writes the report's texts, by format, makes every output complete on disk, then renames
    /// them all into place, with no signal between the renames.
    func commit(rendered texts: [ReportFormat: String]) throws(MaskCleanError) {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        if !wroteRecords, let recordsCompressor { try records?.write(recordsCompressor.compressed(empty)) }
        if !wroteQuarantine, let quarantineCompressor {
            try quarantine?.write(quarantineCompressor.compressed(empty))
        }
        // The gate is judged by now: a reader of standard output that stops reading the report
        // (`check --report - | head`) does not undo its verdict, and the other outputs are still
        // committed (docs/exit-status.md).
        for (format, file, compressor) in reports {
            guard let text = texts[format] else { continue }
            try Self.unlessReaderClosed { () throws(MaskCleanError) in
                try Self.write(whole: text, to: file, compressor: compressor)
            }
        }
        let files = allFiles
        for file in files { try file.flush() }
        try TemporaryFiles.shared.committing { () throws(MaskCleanError) in
            for file in files { try file.commit() }
        }
    }

    /// Every output opened: the records, the quarantine, then the report in each format.
    private var allFiles: [OutputFile] {
        [records, quarantine].compactMap { $0 } + reports.map(\.file)
    }

    /// Runs `write`, taking standard output's reader going away as the end of that output only.
    private static func unlessReaderClosed(_ write: () throws(MaskCleanError) -> Void) throws(MaskCleanError)
    {
        do {
            try write()
        } catch .brokenPipe {
            return
        }
    }

    /// A report's whole text, compressed into one member or frame when it is written compressed.
    private static func write(whole text: String, to file: OutputFile, compressor: Compressor?)
        throws(MaskCleanError)
    {
        let bytes = Array(text.utf8)
        try file.write(
            compressor.map { compressor in bytes.withUnsafeBytes { compressor.compressed($0) } } ?? bytes)
    }

    /// After an error that stopped the run: the records and the quarantine are abandoned (never
    /// half-written), and the report, which says what stopped it, is committed in every format
    /// asked for. A report that cannot be written then is abandoned too: the error that stopped
    /// the run is the one to show.
    /// The reports in `sparing` (the baseline's file) are abandoned too.
    func commitReports(_ stopped: Report, sparing: Set<ReportFormat> = []) {
        for file in [records, quarantine] { file?.discard() }
        for report in reports where sparing.contains(report.format) { report.file.discard() }
        reports.removeAll { sparing.contains($0.format) }
        records = nil
        quarantine = nil
        recordsCompressor = nil
        quarantineCompressor = nil
        do {
            try commit(stopped)
        } catch {
            discard()
        }
    }

    /// Abandons every output: the targets are left as they were.
    func discard() {
        for file in allFiles { file.discard() }
    }
}
