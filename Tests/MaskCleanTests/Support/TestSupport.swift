import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Calls `body` with the bytes of `text`.
func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
{
    try Array(text.utf8).withUnsafeBufferPointer(body)
}

/// Parses a spec given as JSON text.
func loadSpec(_ json: String, file: String = "spec.json") throws -> Spec {
    do {
        return try SpecLoader.parse(Array(json.utf8), file: file)
    } catch {
        throw SpecTestError(message: error.message)
    }
}

struct SpecTestError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The message a spec gives, or nil when it loads. Every spec error exits 78.
func specError(_ json: String, file: String = "spec.json") -> String? {
    do {
        _ = try SpecLoader.parse(Array(json.utf8), file: file)
        return nil
    } catch {
        #expect(error.status == .config, "a spec error exits 78: \(error.message)")
        return error.message
    }
}

/// The outcome of `Runner.run` on files in a folder: the report, or the error.
enum RunOutcome {
    case finished(Report)
    case failed(MaskCleanError)

    var report: Report? {
        if case .finished(let report) = self { return report }
        return nil
    }

    var error: MaskCleanError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

/// Runs the pipeline in-process, with chunk sizes far smaller than the default so that every
/// record boundary case meets a chunk boundary.
func runPipeline(
    spec: String, input: String, in folder: TemporaryFolder, output: String? = "out",
    report: String? = nil, policy: ErrorPolicy = .fail, quarantine: String? = nil, jobs: Int = 1,
    chunkSize: Int = 1 << 20, maximumRecordBytes: Int = 32 << 20, outputFormat: RecordFormat? = nil,
    escapeFormulas: Bool = false, delimiter: UInt8? = nil, splitsPlainLines: Bool = true,
    pipelineClock: PipelineClock? = nil
) throws -> RunOutcome {
    let spec = try loadSpec(spec)
    var options = RunOptions(
        input: folder.path(input), output: output.map(folder.path), report: report.map(folder.path),
        jobs: jobs)
    options.policy = policy
    options.quarantine = quarantine.map(folder.path)
    options.chunkSize = chunkSize
    options.maximumRecordBytes = maximumRecordBytes
    options.outputFormat = outputFormat
    options.escapeFormulas = escapeFormulas
    options.delimiter = delimiter
    options.splitsPlainLines = splitsPlainLines
    options.pipelineClock = pipelineClock
    do {
        return .finished(try Runner.run(spec, options))
    } catch {
        return .failed(error)
    }
}

/// What a record source is given: the spec, the output format and the run's limits.
func sourceSettings(
    _ spec: Spec, output: RecordFormat, delimiter: UInt8 = UInt8(ascii: ","), policy: ErrorPolicy = .fail,
    maximumRecordBytes: Int = 32 << 20
) -> SourceSettings {
    var options = RunOptions(input: "", output: nil, jobs: 1)
    options.policy = policy
    options.maximumRecordBytes = maximumRecordBytes
    return SourceSettings(spec: spec, options: options, outputFormat: output, delimiter: delimiter)
}

/// The bytes of `text` in UTF-16, little-endian unless `bigEndian`, after a byte-order mark when
/// `marked`: what a spreadsheet's "Unicode text" export writes.
func utf16(_ text: String, marked: Bool, bigEndian: Bool = false) -> [UInt8] {
    var bytes: [UInt8] = marked ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
    for unit in text.utf16 {
        let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
        bytes += bigEndian ? [high, low] : [low, high]
    }
    return bytes
}

/// The repository's root, found from this file upwards (the test files sit in folders that mirror
/// Sources/MaskClean, at different depths).
let repositoryRoot: URL = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        folder.deleteLastPathComponent()
    }
    return folder
}()
