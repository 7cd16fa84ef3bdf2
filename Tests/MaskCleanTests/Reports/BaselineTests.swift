import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Issue 29, item 5: a report compared with last night's (`--baseline`), and the spec's
/// `maxDrop` and `maxRowsChange` (docs/report.md#against-a-baseline).
@Suite("Against a baseline")
struct BaselineTests {
    static func report(_ spec: String, rows: Int, complete: Int, empty: Int = 0) throws -> Report {
        var report = Report(spec: try loadSpec(spec))
        report.rows = rows
        report.columns[0].stats.complete = complete
        report.columns[0].stats.incomplete = rows - complete - empty
        report.columns[0].stats.empty = empty
        report.columns[0].stats.formatCounts = [rows - empty]
        return report
    }

    static let spec = #"{"maxDrop": 0.01, "maxRowsChange": 0.2, "columns": [{"name": "a", "format": "[0]"}]}"#

    @Test(
        "maxDrop is decided exactly on the counts: 1.01 points fails 0.01, 1.00 passes",
        arguments: [(9_900, true), (9_899, false), (10_000, true)])
    func dropBoundary(complete: Int, passes: Bool) throws {
        let baseline = Baseline(
            path: "last.json", report: try Self.report(Self.spec, rows: 10_000, complete: 10_000))
        var tonight = try Self.report(Self.spec, rows: 10_000, complete: complete)
        tonight.compare(with: baseline)
        #expect(tonight.columns[0].dropPassed == passes)
        #expect(tonight.passed == passes)
        #expect(tonight.columns[0].failedThresholds == (passes ? [] : ["maxDrop"]))
        // The text never reads as within maxDrop when the fall is past it.
        let change = tonight.columns[0].completeChangeText(decimals: 2, scale: 2)
        if !passes { #expect(change == "-1.01", "\(change)") }
    }

    @Test("a fall a hair past maxDrop shows the decimals that say so, in the JSON and the summary")
    func hairPast() throws {
        // 1 of 1,000,000 more than one point: 98.9999% after 100%.
        let baseline = Baseline(
            path: "last.json", report: try Self.report(Self.spec, rows: 1_000_000, complete: 1_000_000))
        var tonight = try Self.report(Self.spec, rows: 1_000_000, complete: 989_999)
        tonight.compare(with: baseline)
        #expect(!tonight.columns[0].dropPassed)
        #expect(tonight.columns[0].completeChangeText(decimals: 4) == "-0.010001")
        #expect(tonight.json.contains(#""completeChange": -0.010001, "maxDrop": 0.01, "passed": false"#))
        #expect(
            tonight.summary.contains(
                "a: complete 98.99%, 100.00% in the baseline (-1.0001 points; maxDrop 1.00 points): FAILED"))
    }

    @Test(
        "maxRowsChange either way, exactly: 0.2 passes 800 to 1,200 rows after 1,000",
        arguments: [(800, true), (1_200, true), (799, false), (1_201, false), (1_000, true)])
    func rowsChange(rows: Int, passes: Bool) throws {
        let baseline = Baseline(
            path: "last.json", report: try Self.report(Self.spec, rows: 1_000, complete: 1_000))
        var tonight = try Self.report(Self.spec, rows: rows, complete: rows)
        tonight.compare(with: baseline)
        #expect(tonight.rowsChangePassed == passes)
        #expect(tonight.passed == passes)
        #expect(tonight.runFindings.contains { $0.message.contains("maxRowsChange") } == !passes)
    }

    @Test("from a baseline of no rows, any row is past maxRowsChange; without thresholds nothing fails")
    func edges() throws {
        let empty = Baseline(path: "last.json", report: try Self.report(Self.spec, rows: 0, complete: 0))
        var tonight = try Self.report(Self.spec, rows: 1, complete: 1)
        tonight.compare(with: empty)
        #expect(!tonight.rowsChangePassed)
        let plain = #"{"columns": [{"name": "a", "format": "[0]"}]}"#
        var lenient = try Self.report(plain, rows: 10, complete: 0)
        lenient.compare(
            with: Baseline(path: "last.json", report: try Self.report(plain, rows: 1_000, complete: 1_000)))
        #expect(lenient.passed)
        #expect(lenient.json.contains(#""maxDrop": null, "passed": true"#))
        #expect(lenient.json.contains(#""rowsChange": -0.9900, "maxRowsChange": null, "passed": true"#))
    }

    @Test("a column's own maxDrop stands over the spec's, and both are in the fingerprint only when given")
    func specKeys() throws {
        let spec = try loadSpec(
            #"{"maxDrop": 0.05, "columns": [{"name": "a", "format": "[0]"}, {"name": "b", "format": "[0]", "maxDrop": 0.2}]}"#
        )
        #expect(spec.columns.map(\.maxDrop) == [0.05, 0.2])
        let without = try loadSpec(#"{"columns": [{"name": "a", "format": "[0]"}]}"#)
        let with = try loadSpec(#"{"maxRowsChange": 0.1, "columns": [{"name": "a", "format": "[0]"}]}"#)
        #expect(without.fingerprint != with.fingerprint)
        #expect(
            without.fingerprint
                == SpecFingerprint.of(try loadSpec(#"{"columns": [{"name": "a", "format": "[0]"}]}"#)))
        let error = #expect(throws: (any Error).self) {
            try loadSpec(#"{"maxDrop": 5, "columns": [{"name": "a", "format": "[0]"}]}"#)
        }
        #expect("\(error!)" == "spec.json: maxDrop is a fraction from 0 to 1, got 5; did you mean 0.05?")
    }

    @Test("a run reads its baseline, compressed or not, and refuses one of another spec with 78")
    func runWithBaseline() throws {
        let folder = try TemporaryFolder()
        try folder.write("last.csv", "id,a\n1,5\n2,6\n3,7\n")
        try folder.write("now.csv", "id,a\n1,5\n2,x\n3,7\n")
        let spec = try loadSpec(Self.spec, file: folder.path("spec.json"))
        var first = RunOptions(input: folder.path("last.csv"), output: nil, jobs: 1)
        first.reportPaths[.json] = folder.path("last.json.zst")
        _ = try Runner.run(spec, first)
        var second = RunOptions(input: folder.path("now.csv"), output: nil, jobs: 1)
        second.baseline = folder.path("last.json.zst")
        let report = try Runner.run(spec, second)
        #expect(report.baseline?.rows == 3)
        #expect(report.columns[0].baseline?.complete == 3)
        #expect(!report.columns[0].dropPassed)
        let other = try loadSpec(
            #"{"columns": [{"name": "a", "format": "[0]"}]}"#, file: folder.path("other.json"))
        let error = #expect(throws: MaskCleanError.self) { try Runner.run(other, second) }
        #expect(error?.status == .config)
        #expect(error?.message.hasSuffix("a baseline is a report of the same spec") == true)
    }
}
