import Foundation
import MaskEngine
import Testing

@testable import MaskClean

/// The report's arithmetic and its exact JSON.
@Suite("Report")
struct ReportTests {
    func spec(_ columns: String) throws -> Spec {
        try loadSpec(#"{"columns":[\#(columns)]}"#)
    }

    /// Stats with the given counts, each non-empty cell chosen by format 0, rows numbered in the
    /// order complete, lossy, incomplete, empty, invalid.
    func stats(
        complete: Int = 0, lossy: Int = 0, incomplete: Int = 0, empty: Int = 0, invalid: Int = 0,
        formats: Int = 1
    ) -> ColumnStats {
        var stats = ColumnStats(formats: formats)
        var row = 0
        for (status, count) in [
            (CellStatus.complete, complete), (.lossy, lossy), (.incomplete, incomplete), (.empty, empty),
            (.invalid, invalid),
        ] {
            for _ in 0..<count {
                row += 1
                stats.count(status, format: 0, dropped: status == .lossy ? 1 : 0, row: row) { "v\(row)" }
            }
        }
        return stats
    }

    func column(_ json: String, _ stats: ColumnStats, rejected: Int = 0) throws -> Report.Column {
        Report.Column(spec: try spec(json).columns[0], stats: stats, rejected: rejected)
    }

    // MARK: Ratios

    @Test("completeRatio is complete ÷ (rows − empty), or ÷ rows when required")
    func completeRatio() throws {
        let counts = stats(complete: 930, lossy: 20, incomplete: 30, empty: 20)
        let optional = try column(#"{"name":"phone","format":"[0]"}"#, counts)
        #expect(optional.completeRatio.value == 930.0 / 980.0)
        let required = try column(#"{"name":"phone","format":"[0]","required":true}"#, counts)
        #expect(required.completeRatio.value == 930.0 / 1000.0)
    }

    /// Regression: rejected records used to be left out of the denominator, so a file whose every
    /// record was rejected reported 1.0 and passed.
    @Test("a rejected record counts as not complete: complete ÷ (rows − empty), rows with rejected")
    func rejectedRecordsCountAgainstTheRatio() throws {
        let counts = stats(complete: 6_217, lossy: 1_000, incomplete: 795, empty: 15)
        let phone = try column(#"{"name":"phone","format":"[0]","minComplete":0.7761}"#, counts, rejected: 3)
        #expect(phone.rows == 8_030)
        #expect(phone.completeRatio == Ratio(6_217, of: 8_015))
        #expect(phone.completeRatio.text(decimals: 4, against: nil) == "0.7756")
        #expect(!phone.passed)
        let allRejected = try column(#"{"name":"a","format":"[0]","minComplete":0.9}"#, stats(), rejected: 2)
        #expect(allRejected.completeRatio.value == 0)
        #expect(!allRejected.passed)
        let required = try column(
            #"{"name":"a","format":"[0]","required":true}"#, stats(complete: 3, empty: 1), rejected: 1)
        #expect(required.completeRatio == Ratio(3, of: 5))
    }

    @Test("completeRatio is 1 when there is nothing to divide by")
    func ratioOfNothing() throws {
        #expect(try column(#"{"name":"a","format":"[0]"}"#, stats()).completeRatio.value == 1)
        #expect(try column(#"{"name":"a","format":"[0]"}"#, stats(empty: 7)).completeRatio.value == 1)
        #expect(try column(#"{"name":"a","format":"[0]","required":true}"#, stats()).completeRatio.value == 1)
        // Required, all empty: the empties count against it.
        #expect(
            try column(#"{"name":"a","format":"[0]","required":true}"#, stats(empty: 7)).completeRatio.value
                == 0)
    }

    @Test("passed compares the ratio with minComplete; no threshold always passes")
    func passed() throws {
        let counts = stats(complete: 49, incomplete: 1)
        #expect(try column(#"{"name":"a","format":"[0]"}"#, counts).passed)
        #expect(try column(#"{"name":"a","format":"[0]","minComplete":0.98}"#, counts).passed, "0.98 exactly")
        #expect(!(try column(#"{"name":"a","format":"[0]","minComplete":0.99}"#, counts).passed))
        #expect(try column(#"{"name":"a","format":"[0]","minComplete":0}"#, stats(incomplete: 3)).passed)
        #expect(!(try column(#"{"name":"a","format":"[0]","minComplete":1}"#, counts).passed))
        #expect(try column(#"{"name":"a","format":"[0]","minComplete":1}"#, stats(empty: 4)).passed)
        #expect(
            !(try column(
                #"{"name":"a","format":"[0]","minComplete":0.5,"required":true}"#,
                stats(complete: 1, empty: 2)
            ).passed))
    }

    @Test("the run passes only when every column does")
    func runPassed() throws {
        var report = Report(
            spec: try spec(#"{"name":"a","format":"[0]"},{"name":"b","format":"[0]","minComplete":0.9}"#))
        report.rows = 10
        report.columns[1].stats = stats(complete: 9, incomplete: 1)
        #expect(report.passed)
        report.columns[1].stats = stats(complete: 8, incomplete: 2)
        #expect(!report.passed)
    }

    // MARK: Counting

    @Test("empty cells count only as empty: no format, no sample, no dropped characters")
    func emptyCells() {
        var counts = ColumnStats(formats: 2)
        counts.count(.empty, format: 1, dropped: 3, row: 1) { "" }
        #expect(counts.empty == 1)
        #expect(counts.formatCounts == [0, 0])
        #expect(counts.droppedCharacters == 0)
        #expect(counts.lossySamples.isEmpty && counts.incompleteSamples.isEmpty)
        #expect(counts.cells == 1)
    }

    @Test("every non-empty cell counts its chosen format, whatever its status")
    func formatCounting() {
        var counts = ColumnStats(formats: 3)
        counts.count(.complete, format: 0, dropped: 0, row: 1) { "a" }
        counts.count(.lossy, format: 2, dropped: 4, row: 2) { "b" }
        counts.count(.incomplete, format: 2, dropped: 1, row: 3) { "c" }
        #expect(counts.formatCounts == [1, 0, 2])
        #expect(counts.droppedCharacters == 5)
        #expect(counts.lossySamples == [Sample(row: 2, value: "b")])
        #expect(counts.incompleteSamples == [Sample(row: 3, value: "c")])
    }

    @Test("a sample is only made when it is kept; every lossy cell is counted by its shape")
    func lazySamples() {
        var counts = ColumnStats(formats: 1)
        var asked = 0
        var value = "55-1x"
        value.withUTF8 { bytes in
            for row in 1...20 {
                counts.count(.complete, format: 0, dropped: 0, row: row, value: bytes) {
                    asked += 1
                    return Sample(row: $0, value: "")
                }
                counts.count(.lossy, format: 0, dropped: 1, row: row, value: bytes) {
                    asked += 1
                    return Sample(row: $0, value: "x")
                }
            }
        }
        #expect(asked == ColumnStats(formats: 1).samplesKept)
        #expect(counts.lossyShapes.top().map(\.shape) == ["99-9a"] && counts.lossyShapes.top()[0].count == 20)
    }

    @Test("samples keep the first five rows in order across merged chunks")
    func mergedSamples() {
        // Three chunks of 10 rows; lossy rows at 3, 7 | 12, 15, 18 | 21, 29; incomplete at 9 | 30.
        func chunk(lossy: [Int], incomplete: [Int]) -> ColumnStats {
            var counts = ColumnStats(formats: 1)
            for row in 1...10 {
                let status: CellStatus =
                    lossy.contains(row) ? .lossy : incomplete.contains(row) ? .incomplete : .complete
                counts.count(status, format: 0, dropped: status == .lossy ? 2 : 0, row: row) {
                    "value \(row)"
                }
            }
            return counts
        }
        var total = chunk(lossy: [3, 7], incomplete: [9])
        total.merge(chunk(lossy: [2, 5, 8], incomplete: []), rowOffset: 10)
        total.merge(chunk(lossy: [1, 9], incomplete: [10]), rowOffset: 20)
        #expect(total.lossySamples.map(\.row) == [3, 7, 12, 15, 18])
        #expect(total.lossySamples.map(\.value) == ["value 3", "value 7", "value 2", "value 5", "value 8"])
        #expect(
            total.incompleteSamples == [Sample(row: 9, value: "value 9"), Sample(row: 30, value: "value 10")])
        #expect(total.lossy == 7)
        #expect(total.incomplete == 2)
        #expect(total.complete == 21)
        #expect(total.droppedCharacters == 14)
        #expect(total.formatCounts == [30])
    }

    @Test("rejections are kept as samples up to ten, and always counted")
    func rejections() throws {
        var report = Report(spec: try spec(#"{"name":"a","format":"[0]"}"#))
        for line in 1...12 { report.reject(line: line * 2, reason: "bad \(line)") }
        #expect(report.rejectedCount == 12)
        #expect(report.rejected.count == Report.rejectionSamplesKept)
        #expect(report.rejected.first == Rejection(line: 2, reason: "bad 1"))
        #expect(report.rejected.last == Rejection(line: 20, reason: "bad 10"))
        #expect(report.columns[0].rejected == 12)
    }

    @Test("more rejected records than maxRejected fail the run, whatever the columns say")
    func maxRejected() throws {
        var report = Report(spec: try loadSpec(#"{"maxRejected":2,"columns":[{"name":"a","format":"[0]"}]}"#))
        report.rows = 3
        report.reject(line: 2, reason: "x")
        report.reject(line: 3, reason: "y")
        #expect(report.passed)
        report.rows = 4
        report.reject(line: 4, reason: "z")
        #expect(!report.rejectedPassed)
        #expect(!report.passed)
        #expect(report.summary.contains("3 records rejected (maxRejected 2): FAILED\n"))
    }

    /// Regression: an empty export passed `check` as "0 rows: passed".
    @Test("fewer records than minRows fail the run")
    func minRows() throws {
        let empty = Report(spec: try spec(#"{"name":"a","format":"[0]"}"#))
        #expect(!empty.passed)
        #expect(empty.summary.hasSuffix("0 rows (minRows 1): FAILED\n"))
        var allowed = Report(spec: try loadSpec(#"{"minRows":0,"columns":[{"name":"a","format":"[0]"}]}"#))
        #expect(allowed.passed)
        allowed.minRows = 3
        allowed.rows = 2
        allowed.columns[0].stats = stats(complete: 2)
        #expect(!allowed.passed)
        #expect(allowed.summary.hasSuffix("2 rows (minRows 3): FAILED\n"))
    }

    // MARK: JSON

    @Test("the report JSON has the keys of docs/report.md, in order, byte for byte")
    func reportJSON() throws {
        var report = Report(
            spec: try spec(
                #"{"name":"phone","format":"+1 ([000]) [000]-[0000]","affineFormats":["[000]-[0000]","[000]-[0000]","+[00] [0000]"],"minComplete":0.98},{"name":"date","format":"[00]{/}[00]"}"#
            ))
        report.rows = 1000
        var phone = ColumnStats(formats: 4)
        phone.complete = 930
        phone.lossy = 20
        phone.incomplete = 30
        phone.empty = 20
        phone.droppedCharacters = 57
        phone.formatCounts = [900, 50, 30, 0]
        phone.lossySamples = [
            Sample(
                row: 17, value: "555123456789", key: ["1042"], formatted: "+1 (555) 123-4567", dropped: "89")
        ]
        phone.incompleteSamples = [
            Sample(row: 3, value: "say \"5\"\n", key: ["7"]),
            Sample(row: 8, value: "55", key: ["12"], formatted: "55"),
        ]
        phone.lossyShapes.add(shape: "999999999999", count: 20)
        phone.incompleteShapes.add(shape: "99", count: 18)
        phone.incompleteShapes.add(shape: "aaa \"9\"\\n", count: 12)
        report.keyColumns = ["id"]
        report.columns[0].stats = phone
        report.columns[1].stats = stats(empty: 1000)
        report.input = "exports/customers.csv"
        report.origin = Report.Origin(
            inputBytes: 118_920, spec: "spec.yaml", started: Date(timeIntervalSince1970: 1_795_744_800.75),
            duration: .milliseconds(1_234) + .microseconds(999))
        report.origin.delimiter = UInt8(ascii: ";")
        report.origin.delimiterDetected = true
        report.origin.encoding = try TextEncoding(named: "windows-1252")
        let expected = """
            {
              "rows": 1000,
              "passed": false,
              "error": null,
              "input": "exports/customers.csv",
              "inputBytes": 118920,
              "delimiter": ";",
              "delimiterDetected": true,
              "encoding": "windows-1252",
              "spec": "spec.yaml",
              "maskcleanVersion": "\(maskcleanVersion)",
              "started": "2026-11-27T02:00:00Z",
              "durationSeconds": 1.234,
              "minRows": 1,
              "samplesRedacted": false,
              "specFingerprint": "\(report.specFingerprint)",
              "parts": [],
              "rejected": {
                "count": 0,
                "max": 0,
                "passed": true,
                "samples": []
              },
              "baseline": null,
              "columns": [
                {
                  "name": "phone",
                  "complete": 930,
                  "lossy": 20,
                  "incomplete": 30,
                  "invalid": 0,
                  "empty": 20,
                  "rejected": 0,
                  "completeRatio": 0.9489,
                  "minComplete": 0.98,
                  "invalidRatio": 0.0000,
                  "maxInvalid": null,
                  "passed": false,
                  "failedThresholds": ["minComplete"],
                  "warnComplete": null,
                  "warned": false,
                  "keyFound": true,
                  "baseline": null,
                  "droppedCharacters": 57,
                  "formats": {
                    "+1 ([000]) [000]-[0000]": 900,
                    "[000]-[0000]": 80
                  },
                  "samples": {
                    "lossy": [
                      {"row": 17, "key": {"id": "1042"}, "value": "555123456789", "formatted": "+1 (555) 123-4567", "dropped": "89"}
                    ],
                    "incomplete": [
                      {"row": 3, "key": {"id": "7"}, "value": "say \\"5\\"\\n"},
                      {"row": 8, "key": {"id": "12"}, "value": "55", "formatted": "55"}
                    ],
                    "invalid": []
                  },
                  "shapes": {
                    "lossy": [
                      {"shape": "999999999999", "count": 20}
                    ],
                    "incomplete": [
                      {"shape": "99", "count": 18},
                      {"shape": "aaa \\"9\\"\\\\n", "count": 12}
                    ],
                    "invalid": []
                  }
                },
                {
                  "name": "date",
                  "complete": 0,
                  "lossy": 0,
                  "incomplete": 0,
                  "invalid": 0,
                  "empty": 1000,
                  "rejected": 0,
                  "completeRatio": 1.0000,
                  "minComplete": null,
                  "invalidRatio": 0.0000,
                  "maxInvalid": null,
                  "passed": true,
                  "failedThresholds": [],
                  "warnComplete": null,
                  "warned": false,
                  "keyFound": true,
                  "baseline": null,
                  "droppedCharacters": 0,
                  "formats": {},
                  "samples": {
                    "lossy": [],
                    "incomplete": [],
                    "invalid": []
                  },
                  "shapes": {
                    "lossy": [],
                    "incomplete": [],
                    "invalid": []
                  }
                }
              ]
            }

            """
        #expect(report.json == expected)
        // It is JSON.
        #expect((try? JSONSerialization.jsonObject(with: Data(report.json.utf8))) != nil)
    }

    @Test("rejected records: counted per column and in one object with the maxRejected verdict")
    func rejectedJSON() throws {
        var report = Report(
            spec: try loadSpec(
                #"{"maxRejected":2,"columns":[{"name":"a","format":"[0]","minComplete":0.3}]}"#))
        report.rows = 3
        report.columns[0].stats = stats(complete: 1)
        report.reject(line: 3, reason: "unterminated quoted field")
        report.reject(line: 52, reason: #"invalid UTF-8 in column "a""#)
        let expected = """
            {
              "rows": 3,
              "passed": true,
              "error": null,
              "input": "-",
              "inputBytes": null,
              "delimiter": null,
              "delimiterDetected": false,
              "encoding": null,
              "spec": null,
              "maskcleanVersion": "\(maskcleanVersion)",
              "started": null,
              "durationSeconds": null,
              "minRows": 1,
              "samplesRedacted": false,
              "specFingerprint": "\(report.specFingerprint)",
              "parts": [],
              "rejected": {
                "count": 2,
                "max": 2,
                "passed": true,
                "samples": [
                  {"line": 3, "reason": "unterminated quoted field"},
                  {"line": 52, "reason": "invalid UTF-8 in column \\"a\\""}
                ]
              },
              "baseline": null,
              "columns": [
                {
                  "name": "a",
                  "complete": 1,
                  "lossy": 0,
                  "incomplete": 0,
                  "invalid": 0,
                  "empty": 0,
                  "rejected": 2,
                  "completeRatio": 0.3333,
                  "minComplete": 0.3,
                  "invalidRatio": 0.0000,
                  "maxInvalid": null,
                  "passed": true,
                  "failedThresholds": [],
                  "warnComplete": null,
                  "warned": false,
                  "keyFound": true,
                  "baseline": null,
                  "droppedCharacters": 0,
                  "formats": {
                    "[0]": 1
                  },
                  "samples": {
                    "lossy": [],
                    "incomplete": [],
                    "invalid": []
                  },
                  "shapes": {
                    "lossy": [],
                    "incomplete": [],
                    "invalid": []
                  }
                }
              ]
            }

            """
        #expect(report.json == expected)
    }

    @Test("format keys and names are escaped as JSON")
    func escapedKeys() throws {
        var report = Report(
            spec: try spec(#"{"name":"say \"a\"","format":"\\[[000]\\]"}"#))
        report.columns[0].stats = stats(complete: 2)
        let parsed = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
        let column = (parsed?["columns"] as? [[String: Any]])?.first
        #expect(column?["name"] as? String == "say \"a\"")
        #expect(column?["formats"] as? [String: Int] == [#"\[[000]\]"#: 2])
    }

    @Test("minComplete and completeRatio are written as numbers a reader keeps")
    func numbers() throws {
        var report = Report(
            spec: try spec(
                #"{"name":"a","format":"[0]","minComplete":0.5},{"name":"b","format":"[0]","minComplete":0.125}"#
            ))
        report.columns[0].stats = stats(complete: 2, incomplete: 1)
        let text = report.json
        // 2 ÷ 3 is written truncated: never rounded up past what was measured.
        #expect(text.contains(#""completeRatio": 0.6666,"#))
        #expect(text.contains(#""minComplete": 0.5,"#))
        #expect(text.contains(#""minComplete": 0.125,"#))
    }

    @Test("the stderr summary names each column and the verdict")
    func summary() throws {
        var report = Report(
            spec: try spec(
                #"{"name":"phone","format":"[0]","minComplete":0.9},{"name":"date","format":"[0]"}"#))
        report.rows = 4
        report.columns[0].stats = stats(complete: 2, lossy: 1)
        report.columns[1].stats = stats(complete: 2, empty: 1)
        report.reject(line: 9, reason: "x")
        let expected = """
            column  complete  lossy  incomplete  invalid  empty  threshold  result
            phone     50.00%      1           0        0      0     90.00%    FAIL
            date      66.66%      0           0        0      1          -    pass
            1 record rejected (maxRejected 0): FAILED
            4 rows, 1 rejected: FAILED (1 column below threshold, more records rejected than maxRejected)

            """
        #expect(report.summary == expected)
    }

    /// Regression: the summary printed `88.49%  threshold 88.49%  FAIL`, and the report
    /// `"completeRatio": 1.0000, "passed": false` for 19,999 of 20,000.
    @Test("a ratio is never rounded up: it shows as many decimals as its verdict needs")
    func ratiosAgreeWithTheirVerdict() throws {
        let justBelow = Ratio(88_489, of: 100_000)
        #expect(!justBelow.meets(0.8849))
        #expect(justBelow.text(decimals: 2, scale: 2, against: 0.8849) == "88.48")
        let belowByLess = Ratio(884_899, of: 1_000_000)
        #expect(belowByLess.text(decimals: 2, scale: 2, against: 0.8849) == "88.48")
        let rounding = Ratio(88_4899, of: 1_000_000)
        #expect(rounding.text(decimals: 2, scale: 2, against: 0.88489) == "88.489")
        #expect(justBelow.text(decimals: 4, against: 0.8849) == "0.8848")
        let justAbove = Ratio(88_496, of: 100_000)
        #expect(justAbove.meets(0.88495))
        #expect(justAbove.text(decimals: 2, scale: 2, against: 0.88495) == "88.496")
        #expect(justAbove.text(decimals: 4, against: 0.88495) == "0.88496")
        let exactly = Ratio(95, of: 100)
        #expect(exactly.meets(0.95))
        #expect(exactly.text(decimals: 4, against: 0.95) == "0.9500")
        let almostAll = Ratio(19_999, of: 20_000)
        #expect(almostAll.text(decimals: 4, against: 1) == "0.9999")
        #expect(Ratio(2, of: 3).truncated(4) == "0.6666")
        #expect(Ratio(5, of: 5).truncated(4) == "1.0000")
        #expect(Ratio(0, of: 0).truncated(2, scale: 2) == "100.00")

        var report = Report(spec: try spec(#"{"name":"phone","format":"[0]","minComplete":0.8849}"#))
        report.rows = 100_000
        report.columns[0].stats = stats(complete: 88_489, incomplete: 11_511)
        #expect(report.summary.contains("88.48%      0       11511        0      0     88.49%    FAIL"))
        report.columns[0].spec.minComplete = 0.88485
        #expect(report.summary.contains("88.489%      0       11511        0      0    88.485%    pass"))
        // Every ratio the report writes compares with its minComplete as its `passed` says.
        for complete in [19_990, 19_998, 19_999, 20_000] {
            var strict = Report(spec: try spec(#"{"name":"a","format":"[0]","minComplete":1}"#))
            strict.rows = 20_000
            strict.columns[0].stats = stats(complete: complete, incomplete: 20_000 - complete)
            let parsed = try JSONSerialization.jsonObject(with: Data(strict.json.utf8)) as? [String: Any]
            let column = try #require((parsed?["columns"] as? [[String: Any]])?.first)
            let ratio = try #require(column["completeRatio"] as? Double)
            #expect((ratio >= 1) == (column["passed"] as? Bool), "\(complete): \(ratio)")
        }
    }

    // MARK: Invalid cells

    /// A card column checked with Luhn, at most 10% invalid and at least 50% complete.
    static let checkedCard =
        #"{"name":"card","format":"[0000]","check":"luhn","minComplete":0.5,"maxInvalid":0.1}"#

    @Test(
        "the JSON counts invalid cells, their share against maxInvalid, their samples, and why the column failed"
    )
    func invalidInJSON() throws {
        var report = Report(spec: try spec(Self.checkedCard))
        report.rows = 10
        report.columns[0].stats = stats(complete: 7, incomplete: 1, invalid: 2)
        let text = report.json
        // New keys next to the ones they go with; the existing keys keep their order.
        let expected = [
            #""complete": 7,"#, #""lossy": 0,"#, #""incomplete": 1,"#, #""invalid": 2,"#, #""empty": 0,"#,
            #""rejected": 0,"#, #""completeRatio": 0.7000,"#, #""minComplete": 0.5,"#,
            #""invalidRatio": 0.2000,"#, #""maxInvalid": 0.1,"#, #""passed": false,"#,
            #""failedThresholds": ["maxInvalid"],"#, #""warnComplete": null,"#,
        ].joined(separator: "\n      ")
        #expect(text.contains(expected), "\(text)")
        let samples = [
            #"        "incomplete": ["#, #"          {"row": 8, "value": "v8"}"#, #"        ],"#,
            #"        "invalid": ["#, #"          {"row": 9, "value": "v9"},"#,
            #"          {"row": 10, "value": "v10"}"#,
            #"        ]"#,
        ].joined(separator: "\n")
        #expect(text.contains(samples), "\(text)")
        #expect(!report.passed)

        // A column without a check still says it has no invalid cells, and no maxInvalid.
        var plain = Report(spec: try spec(#"{"name":"phone","format":"[0]"}"#))
        plain.rows = 1
        plain.columns[0].stats = stats(complete: 1)
        #expect(plain.json.contains(#""invalid": 0,"#))
        #expect(plain.json.contains(#""invalidRatio": 0.0000,\#n      "maxInvalid": null,"#))
        #expect(plain.json.contains(#""failedThresholds": [],"#))
        #expect(plain.json.contains(#""invalid": []"#))
    }

    @Test("an invalid cell never counts as complete, but does count in the complete ratio's divisor")
    func invalidIsNotComplete() throws {
        // 8 complete of 10 counted cells: were the 2 invalid ones complete, the ratio would be 1.
        let failing = try column(
            #"{"name":"card","format":"[0000]","check":"luhn","minComplete":0.9}"#,
            stats(complete: 8, invalid: 2))
        #expect(failing.completeRatio == Ratio(8, of: 10))
        #expect(failing.invalidRatio == Ratio(2, of: 10))
        #expect(!failing.passed)
        #expect(failing.failedThresholds == ["minComplete"])
        // An empty cell is left out of both divisors, unless the column is required.
        let sparse = try column(
            #"{"name":"card","format":"[0000]","check":"luhn","required":true}"#,
            stats(complete: 6, empty: 2, invalid: 2))
        #expect(sparse.invalidRatio == Ratio(2, of: 10))
        #expect(sparse.completeRatio == Ratio(6, of: 10))
    }

    @Test("a column fails on maxInvalid alone, and passes with invalid cells under it")
    func maxInvalidDecides() throws {
        var report = Report(
            spec: try spec(
                Self.checkedCard + #",{"name":"npi","format":"[0000]","check":"luhn","maxInvalid":0.1}"#))
        report.rows = 10
        report.columns[0].stats = stats(complete: 7, incomplete: 1, invalid: 2)
        report.columns[1].stats = stats(complete: 9, invalid: 1)
        #expect(report.columns[0].completePassed && !report.columns[0].invalidPassed)
        #expect(!report.columns[0].passed)
        #expect(report.columns[1].passed && report.columns[1].failedThresholds.isEmpty)
        #expect(report.failedColumns == 1 && !report.passed)
        let expected = """
            column  complete  lossy  incomplete  invalid  empty  threshold  result
            card      70.00%      0           1        2      0     50.00%    FAIL
            npi       90.00%      0           0        1      0          -    pass
            card: 20.00% invalid (maxInvalid 10.00%): FAILED
            npi: 10.00% invalid (maxInvalid 10.00%): passed
            10 rows: FAILED (1 column above maxInvalid)

            """
        #expect(report.summary == expected)
        // Below minComplete too: the verdict names both reasons, and so does the column.
        report.columns[0].stats = stats(complete: 4, incomplete: 4, invalid: 2)
        #expect(report.columns[0].failedThresholds == ["minComplete", "maxInvalid"])
        #expect(
            report.summary.hasSuffix(
                "10 rows: FAILED (1 column below threshold, 1 column above maxInvalid)\n"))
    }

    @Test("invalid exactly maxInvalid × the divisor passes; one cell more fails, and its share says so")
    func maxInvalidBoundary() throws {
        let spec = #"{"name":"card","format":"[0000]","check":"luhn","maxInvalid":0.05}"#
        let atMost = try column(spec, stats(complete: 950, invalid: 50))
        #expect(atMost.passed)
        #expect(atMost.invalidRatio.text(decimals: 4, atMost: 0.05) == "0.0500")
        let over = try column(spec, stats(complete: 949, invalid: 51))
        #expect(!over.passed)
        #expect(over.invalidRatio.text(decimals: 4, atMost: 0.05) == "0.0510")
        // Just over, where four decimals would read as equal to the threshold: more are shown.
        let justOver = Ratio(50_001, of: 1_000_000)
        #expect(!justOver.isAtMost(0.05))
        #expect(justOver.text(decimals: 4, atMost: 0.05) == "0.050001")
        #expect(justOver.text(decimals: 2, scale: 2, atMost: 0.05) == "5.0001")
        #expect(Ratio(50_000, of: 1_000_000).text(decimals: 2, scale: 2, atMost: 0.05) == "5.00")
        // Nothing counted is nothing invalid: 0, where a complete ratio says 1.
        #expect(Ratio(0, of: 0).text(decimals: 4, atMost: 0.05) == "0.0000")
        #expect(Ratio(0, of: 0).text(decimals: 4, atMost: nil) == "0.0000")
        // Every invalid ratio the report writes compares with its maxInvalid as its `passed` says.
        for invalid in [0, 49_999, 50_000, 50_001, 50_010] {
            var report = Report(spec: try self.spec(spec))
            report.rows = 1_000_000
            report.columns[0].stats = stats(complete: 1_000_000 - invalid, invalid: invalid)
            let parsed = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
            let column = try #require((parsed?["columns"] as? [[String: Any]])?.first)
            let ratio = try #require(column["invalidRatio"] as? Double)
            #expect((ratio <= 0.05) == (column["passed"] as? Bool), "\(invalid): \(ratio)")
        }
    }
}
