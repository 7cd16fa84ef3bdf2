import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Issue 29, item 4: a report says what it was made from and when (`Report.Origin`,
/// docs/report.md#where-a-report-came-from), so that it can be archived and trended.
@Suite("Where a report came from")
struct ReportOriginTests {
    static let spec = #"{"columns": [{"name": "phone", "format": "([000]) [000]-[0000]"}]}"#
    static let records = "id,phone\n1,5551234567\n2,555\n"

    @Test("a run's report names its input, the input's size as stored, the spec, the version and its times")
    func runOrigin() throws {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", Self.records)
        let packed = Array(Self.records.utf8).withUnsafeBytes { Compressor(.gzip).compressed($0) }
        try folder.write("data.csv.gz", packed)
        let spec = try loadSpec(Self.spec, file: folder.path("spec.json"))
        let before = Date()
        for (input, size) in [("data.csv", Self.records.utf8.count), ("data.csv.gz", packed.count)] {
            let report = try Runner.run(spec, RunOptions(input: folder.path(input), output: nil, jobs: 1))
            #expect(report.input == folder.path(input))
            #expect(report.origin.inputBytes == size, "\(input): the size on disk, compressed or not")
            #expect(report.origin.spec == folder.path("spec.json"))
            #expect(report.origin.version == maskcleanVersion)
            let started = try #require(report.origin.started)
            #expect(started >= before.addingTimeInterval(-1) && started <= Date())
            let duration = try #require(report.origin.duration)
            #expect(duration >= .zero && duration < .seconds(60))
        }
    }

    @Test("JUnit: the suite's timestamp and time, every case's classname and share of the time")
    func junitTimes() throws {
        var report = Report(spec: try loadSpec(Self.spec))
        report.input = "exports/customers.csv"
        report.origin = Report.Origin(
            started: Date(timeIntervalSince1970: 1_795_744_800.9), duration: .milliseconds(3_003))
        let junit = report.junit
        #expect(junit.contains(#"time="3.003" timestamp="2026-11-27T02:00:00">"#))
        // Three cases (the column, the rows below minRows, the rejected records) share the run's time.
        let cases = junit.matches(
            of: #/<testcase classname="maskclean\.customers\.csv" name="[^"]*" time="1\.001"/#)
        #expect(cases.count == 3, "\(junit)")
        #expect(!junit.contains("hostname"))
    }

    @Test("RFC 3339 in UTC to the second, and durations with three decimals, truncated")
    func times() {
        #expect(ReportTime.rfc3339(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ReportTime.rfc3339(Date(timeIntervalSince1970: 951_782_400.999)) == "2000-02-29T00:00:00Z")
        #expect(ReportTime.junit(Date(timeIntervalSince1970: 1_795_744_800)) == "2026-11-27T02:00:00")
        #expect(ReportTime.seconds(.zero) == "0.000")
        #expect(ReportTime.seconds(.microseconds(1_999)) == "0.001")
        #expect(ReportTime.seconds(.seconds(62) + .milliseconds(5)) == "62.005")
    }

    @Test("a merge sums its partitions' sizes when every one knows its own, else it has none")
    func mergedSize() throws {
        let folder = try TemporaryFolder()
        let spec = try loadSpec(Self.spec, file: folder.path("spec.json"))
        var sizes: [Int] = []
        for (index, records) in ["id,phone\n1,5551234567\n", "id,phone\n2,555\n3,5550001111\n"].enumerated() {
            try folder.write("part-\(index).csv", records)
            var options = RunOptions(input: folder.path("part-\(index).csv"), output: nil, jobs: 1)
            options.reportPaths[.json] = folder.path("part-\(index).json")
            options.part = String(index)
            options.firstRow = index == 0 ? 1 : 2
            _ = try Runner.run(spec, options)
            sizes.append(records.utf8.count)
        }
        let merged = try ReportMerger.merge(
            spec, MergeOptions(reports: [folder.path("part-0.json"), folder.path("part-1.json")]))
        #expect(merged.origin.inputBytes == sizes.reduce(0, +))
        #expect(merged.origin.spec == folder.path("spec.json"))
        // A report from standard input knows no size: the sum is unknown.
        let piped = try folder.text("part-1.json").replacing(
            #/"inputBytes": [0-9]+/#, with: #""inputBytes": null"#)
        try folder.write("part-1.json", piped)
        let unknown = try ReportMerger.merge(
            spec, MergeOptions(reports: [folder.path("part-0.json"), folder.path("part-1.json")]))
        #expect(unknown.origin.inputBytes == nil)
    }
}
