import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// docs/record-formats.md: compressed records are the same records. Workers compress their own
/// chunks, a member or frame each; decompressed, the output is byte for byte the uncompressed
/// run's, for every output format, `--jobs` and chunk size.
@Suite("Compressed runs: the same records, whatever the compression")
struct CompressedRunTests {
    static let spec = String(
        decoding: try! DecompressionTests.fixture("bench-sample/spec.json"), as: UTF8.self)

    @Test(
        "decompressed outputs equal the uncompressed run's",
        arguments: [RecordFormat.csv, .ndjson, .json], Compression.allCases)
    func sameRecords(format: RecordFormat, compression: Compression) throws {
        let folder = try TemporaryFolder()
        try folder.write("messy.csv", try DecompressionTests.fixture("bench-sample/messy.csv"))
        let plain = try runPipeline(
            spec: Self.spec, input: "messy.csv", in: folder, output: "plain", outputFormat: format)
        #expect(plain.report?.rows == 2000, "\(plain.error?.message ?? "")")
        let expected = try folder.read("plain")
        for (jobs, chunkSize) in [(1, 61), (2, 4096), (7, 1 << 20), (2, 61)] {
            let name = "clean.\(format.rawValue)\(compression.suffix)"
            let outcome = try runPipeline(
                spec: Self.spec, input: "messy.csv", in: folder, output: name, report: "report.json",
                jobs: jobs, chunkSize: chunkSize, outputFormat: format)
            #expect(outcome.report?.rows == 2000, "\(outcome.error?.message ?? "")")
            let decompressed = try DecompressionTests.readAll(folder.path(name), size: 1 << 16)
            #expect(decompressed == expected, "jobs \(jobs), chunk size \(chunkSize)")
            // Tiny chunks compress poorly, each a member or frame of its own; real ones do not.
            if chunkSize == 1 << 20 { #expect(try folder.read(name).count < expected.count / 2) }
        }
    }

    @Test(
        "a compressed input is decompressed for every --jobs and chunk size", arguments: Compression.allCases)
    func compressedInput(compression: Compression) throws {
        let folder = try TemporaryFolder()
        let text = try DecompressionTests.fixture("bench-sample/messy.ndjson")
        let packed = text.withUnsafeBytes { Compressor(compression).compressed($0) }
        try folder.write("messy.ndjson\(compression.suffix)", packed)
        let expected = try DecompressionTests.fixture("bench-sample/clean.ndjson")
        for (jobs, chunkSize) in [(1, 5), (2, 61), (7, 4096), (2, 1 << 20)] {
            let outcome = try runPipeline(
                spec: Self.spec, input: "messy.ndjson\(compression.suffix)", in: folder,
                output: "clean.ndjson",
                jobs: jobs, chunkSize: chunkSize)
            #expect(outcome.report?.rows == 2000, "\(outcome.error?.message ?? "")")
            #expect(try folder.read("clean.ndjson") == expected, "jobs \(jobs), chunk size \(chunkSize)")
        }
    }

    @Test("the quarantine and the report are compressed by their own extensions")
    func quarantineAndReport() throws {
        let folder = try TemporaryFolder()
        let records = "id,phone\n1,5551234567\n2,\"555\" x\n3,(555) 123-4567\n4,\"unterminated\n"
        try folder.write("data.csv", records)
        let spec = #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]"}], "maxRejected": 5}"#
        let outcome = try runPipeline(
            spec: spec, input: "data.csv", in: folder, output: "clean.csv", report: "report.json.zst",
            policy: .quarantine, quarantine: "bad.csv.gz")
        #expect(outcome.report?.rows == 4, "\(outcome.error?.message ?? "")")
        let quarantine = try DecompressionTests.readAll(folder.path("bad.csv.gz"), size: 4096)
        #expect(String(decoding: quarantine, as: UTF8.self) == "2,\"555\" x\n4,\"unterminated\n")
        let report = try DecompressionTests.readAll(folder.path("report.json.zst"), size: 4096)
        #expect(String(decoding: report, as: UTF8.self).contains(#""rows": 4,"#))
        #expect(try folder.text("clean.csv").hasPrefix("id,phone,phone_formatted"))
    }

    @Test("an empty compressed output is still a file every tool reads", arguments: Compression.allCases)
    func emptyOutput(compression: Compression) throws {
        let folder = try TemporaryFolder()
        try folder.write("empty.ndjson", "")
        let name = "clean.ndjson\(compression.suffix)"
        let outcome = try runPipeline(
            spec: #"{"columns": [{"name": "phone", "format": "[000]"}], "minRows": 0}"#,
            input: "empty.ndjson",
            in: folder, output: name)
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
        #expect(try !folder.read(name).isEmpty)
        #expect(try DecompressionTests.readAll(folder.path(name), size: 64) == [])
    }
}
