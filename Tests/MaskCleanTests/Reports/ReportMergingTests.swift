import Foundation
import MaskEngine
import PropertyBased
import TestSupport
import Testing

@testable import MaskClean

/// Partial reports merge into exactly the report of one run over the whole input: the bench
/// export's first 400 records (with three broken lines quarantined), cut into partitions at
/// random record boundaries, each run with `--part` and `--first-row`.
@Suite("Merging partial reports")
struct ReportMergingTests {
    /// The bench spec, keeping 3 samples so that partitions compete for them, and tolerating the
    /// broken lines.
    static let spec = """
        {"samples": 3, "maxRejected": 5, "columns": [
          {"name": "phone", "format": "+1 ([000]) [000]-[0000]",
           "affineFormats": ["+1 ([000]) [000]-[0000] x[9999]", "[000]-[0000]"],
           "affinityStrategy": "wholeString", "minComplete": 0.5},
          {"name": "card", "format": "[0000] [0000] [0000] [0000]",
           "affineFormats": ["[0000] [000000] [00000]"], "affinityStrategy": "extractedValueCapacity"},
          {"name": "date", "format": "[00]{/}[00]{/}[9900]", "minComplete": 0.9},
          {"name": "zip", "format": "[00000]-[9999]"}
        ]}
        """

    /// One record a line: 400 of the bench export, with broken records at lines 57, 58 and 301.
    static let lines: [String] = {
        let folder =
            repositoryRoot
            .appendingPathComponent("Fixtures/bench-sample")
        let text =
            (try? String(contentsOf: folder.appendingPathComponent("messy.ndjson"), encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n").prefix(400).map(String.init)
        lines[56] = #"{"id": 57, "phone": "555 0100", "card": "#
        lines[57] = "not json at all"
        lines[300] = #"{"id": 301, "phone": ["an", "array"]}"#
        return lines
    }()

    /// Runs the records `range` of `lines` as one partition (or the whole input when `part` is
    /// nil) and returns its report.
    static func run(_ range: Range<Int>, part: String?, firstRow: Int?, in folder: TemporaryFolder) throws
        -> Report
    {
        let name = "part-\(range.lowerBound)-\(range.upperBound)-\(part ?? "whole").ndjson"
        _ = try folder.write(name, Array(lines[range].map { $0 + "\n" }.joined().utf8))
        var options = RunOptions(input: folder.path(name), output: nil, jobs: 2)
        options.policy = .quarantine
        options.quarantine = folder.path(name + ".bad")
        options.chunkSize = 4096
        options.part = part
        options.firstRow = firstRow
        return try Runner.run(try loadSpec(spec), options)
    }

    /// The partitions of `lines` cut at `cuts` (sorted, distinct, inside), numbered from 0.
    static func partitions(cuts: [Int], in folder: TemporaryFolder) throws -> [Report.Partial] {
        let bounds = [0] + cuts + [lines.count]
        var partials: [Report.Partial] = []
        for (index, (start, end)) in zip(bounds, bounds.dropFirst()).enumerated() {
            let report = try run(start..<end, part: String(index), firstRow: start + 1, in: folder)
            partials.append(Report.Partial(file: "part-\(index).json", report: report))
        }
        return partials
    }

    /// The report as JSON without its shapes: a merge counts each partial report's ten most
    /// common shapes, so a merge of merges may count them otherwise (docs/report.md#shapes).
    static func withoutShapes(_ report: Report) -> String {
        var report = report
        for index in report.columns.indices {
            report.columns[index].stats.lossyShapes = ShapeTally()
            report.columns[index].stats.incompleteShapes = ShapeTally()
            report.columns[index].stats.invalidShapes = ShapeTally()
        }
        return report.json
    }

    /// The report as JSON without what only partitions have: `parts` and the samples' `part`.
    static func wholeView(_ report: Report) -> String {
        var report = report
        report.partitions = []
        // Where each came from differs (a partition's file, the whole file): the counts may not.
        report.origin = Report.Origin()
        report.input = "-"
        for index in report.columns.indices {
            report.columns[index].stats.lossySamples = report.columns[index].stats.lossySamples.map {
                Sample(row: $0.row, value: $0.value)
            }
            report.columns[index].stats.incompleteSamples = report.columns[index].stats.incompleteSamples.map
            {
                Sample(row: $0.row, value: $0.value)
            }
            report.columns[index].stats.invalidSamples = report.columns[index].stats.invalidSamples.map {
                Sample(row: $0.row, value: $0.value)
            }
        }
        report.rejected = []
        return report.json
    }

    /// A report as `merge` reads it back from its JSON.
    static func reread(_ report: Report, as file: String) throws -> Report.Partial {
        Report.Partial(
            file: file,
            report: try ReportReader.parse(Array(report.json.utf8), file: file, spec: loadSpec(spec)))
    }

    static let cutPoints = Gen.int(in: 1..<400).array(of: 0...6).map { Array(Set($0)).sorted() }

    @Test("merged partitions equal one run over the whole input, wherever the partitions are cut")
    func mergedEqualsWhole() async throws {
        let folder = try TemporaryFolder()
        let spec = try loadSpec(Self.spec)
        let whole = try Self.run(0..<Self.lines.count, part: nil, firstRow: nil, in: folder)
        #expect(whole.rows == 400 && whole.rejectedCount == 3)
        await propertyCheck(count: 12, input: Self.cutPoints) { cuts in
            let partials = try Self.partitions(cuts: cuts, in: folder)
            let merged = try Report.merging(partials, spec: spec)
            #expect(Self.wholeView(merged) == Self.wholeView(whole), "cut at \(cuts)")
            #expect(merged.passed == whole.passed)
            #expect(merged.rejectedCount == whole.rejectedCount)
            #expect(merged.partitions.map(\.firstRow) == ([0] + cuts).map { $0 + 1 })
            // Rejected records keep their line within their partition, and say which it is.
            let bounds = [0] + cuts
            let expected = [57, 58, 301].map { line in
                let index = bounds.lastIndex { $0 < line }!
                return Rejection(line: line - bounds[index], reason: "", part: String(index))
            }
            #expect(merged.rejected.map(\.line) == expected.map(\.line))
            #expect(merged.rejected.map(\.part) == expected.map(\.part))
        }
    }

    @Test("merging is associative, through the JSON a merge writes: merge(merge(a, b), c) is merge(a, b, c)")
    func associative() async throws {
        let folder = try TemporaryFolder()
        let spec = try loadSpec(Self.spec)
        await propertyCheck(count: 10, input: Self.cutPoints.map { Array($0.prefix(5)) }, Gen.int(in: 1...5))
        {
            cuts, split in
            let partials = try Self.partitions(cuts: cuts, in: folder)
            let all = try Report.merging(partials, spec: spec)
            let at = min(split, partials.count)
            let left = try Self.reread(Report.merging(Array(partials[..<at]), spec: spec), as: "left.json")
            let rest = Array(partials[at...])
            let stepwise = try Report.merging([left] + rest, spec: spec)
            #expect(
                Self.withoutShapes(stepwise) == Self.withoutShapes(all), "cut at \(cuts), merged first \(at)")
            if let start = rest.first?.report.partitions.first?.firstRow {
                // The later partitions merged on their own, as one node of a tree of merges.
                let right = try Self.reread(
                    Report.merging(rest, spec: spec, firstRow: start), as: "right.json")
                #expect(
                    try Self.withoutShapes(Report.merging([left, right], spec: spec))
                        == Self.withoutShapes(all))
                #expect(throws: MaskCleanError.self, "rows before the later partitions") {
                    try Report.merging(rest, spec: spec)
                }
            }
        }
    }

    @Test("a report read back from its JSON is the same report")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        // The counts, the samples and the input's size are read back; the rest of where a report
        // came from is its own run's, which a merge does not carry (docs/report.md).
        func reread(_ report: Report, as file: String) throws -> String {
            var again = try Self.reread(report, as: file).report
            #expect(again.origin.inputBytes == report.origin.inputBytes)
            again.origin = report.origin
            again.input = report.input
            return again.json
        }
        for partial in try Self.partitions(cuts: [50, 290], in: folder) {
            #expect(try reread(partial.report, as: partial.file) == partial.report.json)
        }
        var redacted = try Self.run(0..<120, part: nil, firstRow: nil, in: folder)
        redacted.redactSamples()
        #expect(try reread(redacted, as: "redacted.json") == redacted.json)
    }

    @Test("a redacted partial report redacts every sample of the merged one")
    func redactedPartial() throws {
        let folder = try TemporaryFolder()
        var partials = try Self.partitions(cuts: [200], in: folder)
        partials[1].report.redactSamples()
        let merged = try Report.merging(partials, spec: loadSpec(Self.spec))
        #expect(merged.samplesRedacted)
        let values = merged.columns.flatMap { $0.stats.lossySamples + $0.stats.incompleteSamples }.map(
            \.value)
        #expect(!values.isEmpty)
        #expect(values == values.map(Sample.redact))
    }

    @Test("partitions that would count records twice or leave some out are refused, naming the report")
    func countedOnce() throws {
        let folder = try TemporaryFolder()
        let spec = try loadSpec(Self.spec)
        let partials = try Self.partitions(cuts: [100, 250], in: folder)
        #expect(
            throws: MaskCleanError.data(
                "again.json", line: nil,
                #"part "1" is also in part-1.json: merging it twice would count its records twice"#)
        ) {
            try Report.merging(
                partials + [Report.Partial(file: "again.json", report: partials[1].report)], spec: spec)
        }
        #expect(
            throws: MaskCleanError.data(
                "part-2.json", line: nil,
                "rows 101–250 are in none of the partial reports (after part-0.json): a partition is missing")
        ) {
            try Report.merging([partials[0], partials[2]], spec: spec)
        }
        // Rows are numbered from 1: a first partition that is missing leaves rows in none too.
        #expect(
            throws: MaskCleanError.data(
                "part-1.json", line: nil,
                "rows 1–100 are in none of the partial reports (the first starts at row 101): a partition is missing; to merge some of an input's partitions, give the row they start at with \(Setting.firstRow)"
            )
        ) {
            try Report.merging([partials[2], partials[1]], spec: spec)
        }
        // Some of an input's partitions, merged on their own, start where --first-row says.
        #expect(try Report.merging([partials[2], partials[1]], spec: spec, firstRow: 101).rows == 300)
        #expect(
            throws: MaskCleanError.data(
                "part-1.json", line: nil,
                "rows 51–100 are in none of the partial reports (the first starts at row 101): a partition is missing; to merge some of an input's partitions, give the row they start at with \(Setting.firstRow)"
            )
        ) {
            try Report.merging([partials[1], partials[2]], spec: spec, firstRow: 51)
        }
        #expect(
            throws: MaskCleanError.data(
                "part-0.json", line: nil,
                "it starts at row 1, before row 101 where the partial reports start (merge \(Setting.firstRow) 101)"
            )
        ) {
            try Report.merging(partials, spec: spec, firstRow: 101)
        }
        // An empty partition holds no rows: it overlaps nothing, whatever order it is given in.
        let empty = try Self.run(100..<100, part: "empty", firstRow: 101, in: folder)
        #expect(
            try Report.merging(
                [partials[0], partials[1], Report.Partial(file: "empty.json", report: empty), partials[2]],
                spec: spec
            ).rows == 400)
        let overlapping = try Self.run(200..<300, part: "late", firstRow: 201, in: folder)
        #expect(
            throws: MaskCleanError.data(
                "late.json", line: nil, "rows 201–250 are also in part-1.json: partitions may not overlap")
        ) {
            try Report.merging(
                partials + [Report.Partial(file: "late.json", report: overlapping)], spec: spec)
        }
        // Reports without --first-row cannot be checked for rows, but their parts still can.
        let unnumbered = try Self.run(0..<10, part: "x", firstRow: nil, in: folder)
        let merged = try Report.merging(
            [Report.Partial(file: "x.json", report: unnumbered)] + partials, spec: spec)
        #expect(merged.rows == 410)
    }

    @Test("partitions are ordered by number, then by name: 2 before 10, xaa before xab")
    func partOrder() {
        let names = ["10", "xab", "2", "007", "xaa", "9", "7"]
        #expect(names.sorted(by: PartOrder.namePrecedes) == ["2", "007", "7", "9", "10", "xaa", "xab"])
        #expect(PartOrder.precedes((nil, 900), ("0", 1)))
        #expect(!PartOrder.precedes(("0", 1), (nil, 900)))
        #expect(PartOrder.precedes(("3", 5), ("3", 6)))
    }

    @Test("a JSON key one partition lacks is no error; a key no partition has is, as in one run")
    func sparseKeys() throws {
        let folder = try TemporaryFolder()
        let spec = try loadSpec(#"{"columns": [{"name": "fax", "format": "[000]-[0000]"}]}"#)
        func run(_ text: String, part: String) throws -> Report.Partial {
            _ = try folder.write("\(part).ndjson", Array(text.utf8))
            var options = RunOptions(input: folder.path("\(part).ndjson"), output: nil, jobs: 1)
            options.part = part
            return Report.Partial(file: "\(part).json", report: try Runner.run(spec, options))
        }
        let without = try run("{\"id\": 1}\n{\"id\": 2}\n", part: "0")
        let with = try run("{\"id\": 3, \"fax\": \"5550100\"}\n", part: "1")
        #expect(without.report.columns[0].keyFound == false)
        #expect(with.report.columns[0].keyFound == true)
        let merged = try Report.merging([without, with], spec: spec)
        #expect(merged.columns[0].keyFound && merged.columns[0].stats.complete == 1)
        #expect(merged.columns[0].stats.empty == 2)
        let other = try run("{\"id\": 4}\n", part: "2")
        #expect(
            throws: MaskCleanError.spec(
                "spec.json", #"columns[0] "fax""#,
                #"no record of any of the 2 partial reports' partitions has the key "fax""#)
        ) {
            try Report.merging([without, other], spec: spec)
        }
        // Without --part the run itself refuses it, as before.
        var options = RunOptions(input: folder.path("2.ndjson"), output: nil, jobs: 1)
        options.firstRow = 7
        #expect(throws: MaskCleanError.self) { try Runner.run(spec, options) }
    }

    // MARK: Invalid cells

    /// A card column checked with Luhn, keeping 3 samples, at most 20% invalid.
    static let checkedSpec =
        #"{"samples": 3, "columns": [{"name": "card", "format": "[0000]", "check": "luhn", "maxInvalid": 0.2}]}"#

    /// Partition `part` of `rows` records from `firstRow`, its cells invalid at `invalidRows` (whole
    /// input's rows) and complete elsewhere, read back from its JSON as `merge` reads it.
    static func checkedPartial(part: String, firstRow: Int, rows: Int, invalidRows: [Int]) throws
        -> Report.Partial
    {
        var report = Report(spec: try loadSpec(checkedSpec))
        report.rows = rows
        for row in 1...rows {
            let invalid = invalidRows.contains(firstRow + row - 1)
            report.columns[0].stats.count(invalid ? .invalid : .complete, format: 0, dropped: 0, row: row) {
                "bad \(firstRow + row - 1)"
            }
        }
        report.placeInPartition(part: part, firstRow: firstRow)
        return Report.Partial(
            file: "\(part).json",
            report: try ReportReader.parse(
                Array(report.json.utf8), file: "\(part).json", spec: loadSpec(checkedSpec)))
    }

    @Test(
        "merging sums invalid cells, keeps the first invalid samples in row order, and judges maxInvalid on the sums"
    )
    func invalidMerged() throws {
        let spec = try loadSpec(Self.checkedSpec)
        // Each partition alone is within 20% invalid (2 of 10, 1 of 10); so is the whole, 3 of 20.
        let first = try Self.checkedPartial(part: "0", firstRow: 1, rows: 10, invalidRows: [4, 9])
        let second = try Self.checkedPartial(part: "1", firstRow: 11, rows: 10, invalidRows: [12])
        #expect(first.report.columns[0].stats.invalid == 2)
        let merged = try Report.merging([second, first], spec: spec)
        let card = merged.columns[0]
        #expect(card.stats.invalid == 3 && card.stats.complete == 17)
        #expect(card.stats.invalidSamples.map(\.row) == [4, 9, 12])
        #expect(card.stats.invalidSamples.map(\.part) == ["0", "0", "1"])
        #expect(card.stats.invalidSamples.last?.value == "bad 12")
        #expect(card.invalidRatio == Ratio(3, of: 20) && merged.passed)
        // Partitions within maxInvalid can add up to more than it: 5 of 20 is 25%.
        let worse = try Self.checkedPartial(part: "1", firstRow: 11, rows: 10, invalidRows: [11, 12, 13])
        let failing = try Report.merging([first, worse], spec: spec)
        #expect(failing.columns[0].stats.invalid == 5)
        #expect(failing.columns[0].stats.invalidSamples.count == 3)
        #expect(!failing.passed && failing.columns[0].failedThresholds == ["maxInvalid"])
        #expect(failing.json.contains(#""invalidRatio": 0.2500,"#))
    }

    @Test("invalid counts are summed with the overflow check every count has")
    func invalidOverflow() throws {
        let spec = try loadSpec(Self.checkedSpec)
        var huge = try Self.checkedPartial(part: "0", firstRow: 1, rows: 1, invalidRows: [1])
        huge.report.columns[0].stats.invalid = Count.maximum
        let other = try Self.checkedPartial(part: "1", firstRow: 2, rows: 1, invalidRows: [2])
        #expect(
            throws: MaskCleanError.data(
                "1.json", line: nil,
                #"columns[0] "card": invalid: the sum with the reports before it passes 9007199254740991, the most a report counts"#
            )
        ) {
            try Report.merging([huge, other], spec: spec)
        }
    }
}
