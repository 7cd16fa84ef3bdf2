import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Speed work must not change a byte: the benchmark export's first 2,000 records, masked with
/// the benchmark spec, give the outputs and reports kept in `Fixtures/bench-sample/` however the
/// input is cut into chunks and however many workers mask them.
@Suite("Bench sample: byte-identical for every --jobs and chunk size")
struct BenchSampleIdentityTests {
    static let folder =
        repositoryRoot
        .appendingPathComponent("Fixtures/bench-sample")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test(
        "CSV and NDJSON outputs and reports equal the kept ones",
        arguments: ["csv", "ndjson"], [1, 2, 7])
    func identical(format: String, jobs: Int) throws {
        let spec = String(decoding: try Self.fixture("spec.json"), as: UTF8.self)
        let expected = try Self.fixture("clean.\(format)")
        let expectedReport = try Self.fixture("report-\(format).json")
        let scratch = try TemporaryFolder()
        _ = try scratch.write("messy.\(format)", try Self.fixture("messy.\(format)"))
        for chunkSize in [5, 61, 4096, 1 << 20] {
            let outcome = try runPipeline(
                spec: spec, input: "messy.\(format)", in: scratch, output: "clean.\(format)",
                report: "report.json", jobs: jobs, chunkSize: chunkSize)
            let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
            #expect(report.rows == 2000)
            let output = try scratch.read("clean.\(format)")
            #expect(output.count == expected.count, "chunk size \(chunkSize)")
            if let first = output.indices.first(where: { $0 < expected.count && output[$0] != expected[$0] })
            {
                Issue.record("chunk size \(chunkSize): first difference at byte \(first)")
            }
            #expect(
                countsOnly(try scratch.read("report.json")) == countsOnly(expectedReport),
                "chunk size \(chunkSize)")
        }
    }
}
