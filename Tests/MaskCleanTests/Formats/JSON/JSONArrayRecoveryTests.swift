import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// A broken record in a JSON array costs that record and no other. Regression: recovery resumed
/// at the last record boundary of the chunk, not the first, so on 100,000 records with one
/// trailing comma in record 11, 32,138 good records vanished with "passed", and the quarantine
/// file held good records beside the bad one.
///
/// Every malformed shape below is put among good records, at several places and chunk sizes, on
/// one and two jobs: either the run stops with 65 and commits nothing (the array's structure
/// itself is broken), or the records written are exactly the good ones, in order, and the
/// rejected ones are exactly the broken ones.
@Suite("JSON arrays: one broken record costs one record")
struct JSONArrayRecoveryTests {
    static let spec = #"{"columns":[{"name":"phone","format":"+1 ([000]) [000]-[0000]"}]}"#

    /// A broken record for id `id`, and whether it breaks the array's structure (brackets that no
    /// longer match), after which no boundary can be trusted.
    static let shapes: [(name: String, record: @Sendable (Int) -> String, breaksStructure: Bool)] = [
        ("trailing comma in the object", { #"{"id":\#($0),"phone":"5551234567",}"# }, false),
        ("trailing comma in a nested array", { #"{"id":\#($0),"tags":["a","b",],"phone":"555"}"# }, false),
        ("missing colon", { #"{"id":\#($0),"phone" "5551234567"}"# }, false),
        ("bad literal", { #"{"id":\#($0),"ok":tru,"phone":"555"}"# }, false),
        ("unquoted key", { #"{id:\#($0),"phone":"555"}"# }, false),
        ("a string element", { _ in #""not a record""# }, false),
        ("a number element", { _ in "42" }, false),
        ("a nested error over two lines", { #"{"id":\#($0),"n":{"a":[1,2,,3]},\#n"phone":"555"}"# }, false),
        ("a bracket closing the wrong opener", { #"{"id":\#($0),"tags":["a","b"}"# }, true),
        ("a brace closing nothing", { #"{"id":\#($0),"phone":"555"}}"# }, true),
        // Regression: the unclosed string turned every quote after it the wrong way round, and
        // the records after it were lost as one.
        ("a string whose closing quote is missing", { #"{"id":\#($0),"phone":"555,"tags":["a"]}"# }, true),
    ]

    func good(_ id: Int) -> String { #"{"id":\#(id),"phone":"555123\#(String(format: "%04d", id))"}"# }

    @Test(arguments: [1, 2])
    func everyShapeAtEveryPlace(jobs: Int) throws {
        for shape in Self.shapes {
            for brokenIDs in [[1], [7], [20], [7, 8], [3, 11, 19]] {
                for chunkSize in [1, 37, 200, 1 << 20] {
                    try check(shape, brokenIDs: brokenIDs, chunkSize: chunkSize, jobs: jobs)
                }
            }
        }
    }

    func check(
        _ shape: (name: String, record: @Sendable (Int) -> String, breaksStructure: Bool), brokenIDs: [Int],
        chunkSize: Int, jobs: Int
    ) throws {
        let ids = Array(1...20)
        let records = ids.map { brokenIDs.contains($0) ? shape.record($0) : good($0) }
        let folder = try TemporaryFolder()
        try folder.write("data.json", Array(("[\n" + records.joined(separator: ",\n") + "\n]\n").utf8))
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.json", in: folder, output: "clean.json", report: "report.json",
            policy: .quarantine, quarantine: "bad.json", jobs: jobs, chunkSize: chunkSize)
        let context = "\(shape.name), broken \(brokenIDs), chunk \(chunkSize), jobs \(jobs)"
        if shape.breaksStructure {
            #expect(outcome.error?.status == .dataError, "\(context)")
            #expect(
                outcome.error?.message.contains("structure is broken") == true,
                "\(context): \(String(describing: outcome.error))")
            // No records; the report says why and counts none past the break.
            #expect(folder.files == ["data.json", "report.json"], "\(context): only the report committed")
            let report = try folder.text("report.json")
            #expect(report.contains(#""error": {"status": 65,"#), "\(context)")
            let rows = report.firstMatch(of: #/"rows": ([0-9]+),/#).flatMap { Int($0.output.1) }
            #expect(
                rows.map { $0 < brokenIDs.min()! } == true,
                "\(context): \(rows.map(String.init) ?? "no rows")")
            return
        }
        let report = try #require(outcome.report, "\(context): \(String(describing: outcome.error))")
        let written =
            try JSONSerialization.jsonObject(with: Data(folder.read("clean.json"))) as? [[String: Any]]
        let writtenIDs = written?.compactMap { $0["id"] as? Int }
        #expect(writtenIDs == ids.filter { !brokenIDs.contains($0) }, "\(context)")
        #expect(report.rejectedCount == brokenIDs.count, "\(context)")
        #expect(report.rows == ids.count, "\(context)")
        let quarantined = String(decoding: try folder.read("bad.json"), as: UTF8.self)
        #expect(quarantined == brokenIDs.map { shape.record($0) + "\n" }.joined(), "\(context)")
    }

    /// Regression: `[{…},]` was accepted.
    @Test("a trailing comma before the closing bracket is not JSON: 65 with its line")
    func trailingCommaInArray() throws {
        for chunkSize in [1, 16, 1 << 20] {
            let folder = try TemporaryFolder()
            try folder.write(
                "data.json", Array("[\n{\"phone\":\"5551234567\"},\n{\"phone\":\"555\"},\n]\n".utf8))
            let outcome = try runPipeline(
                spec: Self.spec, input: "data.json", in: folder, output: "clean.json", policy: .skip,
                chunkSize: chunkSize)
            #expect(
                outcome.error?.message
                    == "\(folder.path("data.json")):4: a comma before ']': a trailing comma is not JSON",
                "chunk \(chunkSize)")
        }
    }

    @Test("a truncated array costs its last record only")
    func truncated() throws {
        let folder = try TemporaryFolder()
        let records = (1...10).map(good).joined(separator: ",\n")
        try folder.write("data.json", Array(("[\n" + records + ",\n{\"id\":11,\"pho").utf8))
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.json", in: folder, output: "clean.json", policy: .skip,
            chunkSize: 50)
        let report = try #require(outcome.report)
        #expect(report.rejectedCount == 1)
        #expect(report.columns[0].stats.cells == 10)
    }
}
