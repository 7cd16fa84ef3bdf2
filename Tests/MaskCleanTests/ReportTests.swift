import Foundation
import MaskEngine
import Testing

@testable import MaskClean

/// DESIGN §5: the report's arithmetic and its exact JSON.
@Suite("Report")
struct ReportTests {
    func spec(_ columns: String) throws -> Spec {
        try loadSpec(#"{"columns":[\#(columns)]}"#)
    }

    /// Stats with the given counts, each non-empty cell chosen by format 0.
    func stats(complete: Int = 0, lossy: Int = 0, incomplete: Int = 0, empty: Int = 0, formats: Int = 1)
        -> ColumnStats
    {
        var stats = ColumnStats(formats: formats)
        var row = 0
        for (status, count) in [
            (CellStatus.complete, complete), (.lossy, lossy), (.incomplete, incomplete), (.empty, empty),
        ] {
            for _ in 0..<count {
                row += 1
                stats.count(status, format: 0, dropped: status == .lossy ? 1 : 0, row: row) { "v\(row)" }
            }
        }
        return stats
    }

    func column(_ json: String, _ stats: ColumnStats) throws -> Report.Column {
        Report.Column(spec: try spec(json).columns[0], stats: stats)
    }

    // MARK: Ratios

    @Test("completeRatio is complete ÷ (rows − empty), or ÷ rows when required")
    func completeRatio() throws {
        let counts = stats(complete: 930, lossy: 20, incomplete: 30, empty: 20)
        let optional = try column(#"{"name":"phone","format":"[0]"}"#, counts)
        #expect(optional.completeRatio == 930.0 / 980.0)
        let required = try column(#"{"name":"phone","format":"[0]","required":true}"#, counts)
        #expect(required.completeRatio == 930.0 / 1000.0)
    }

    @Test("completeRatio is 1 when there is nothing to divide by")
    func ratioOfNothing() throws {
        #expect(try column(#"{"name":"a","format":"[0]"}"#, stats()).completeRatio == 1)
        #expect(try column(#"{"name":"a","format":"[0]"}"#, stats(empty: 7)).completeRatio == 1)
        #expect(try column(#"{"name":"a","format":"[0]","required":true}"#, stats()).completeRatio == 1)
        // Required, all empty: the empties count against it.
        #expect(
            try column(#"{"name":"a","format":"[0]","required":true}"#, stats(empty: 7)).completeRatio == 0)
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
            spec: try spec(#"{"name":"a","format":"[0]"},{"name":"b","format":"[0]","minComplete":0.9}"#),
            collectsRejections: false)
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

    @Test("a sample's value is only asked for when it is kept")
    func lazySamples() {
        var counts = ColumnStats(formats: 1)
        var asked = 0
        for row in 1...20 {
            counts.count(.complete, format: 0, dropped: 0, row: row) {
                asked += 1
                return ""
            }
            counts.count(.lossy, format: 0, dropped: 1, row: row) {
                asked += 1
                return "x"
            }
        }
        #expect(asked == ColumnStats.samplesKept)
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
        var report = Report(spec: try spec(#"{"name":"a","format":"[0]"}"#), collectsRejections: true)
        for line in 1...12 { report.reject(line: line * 2, reason: "bad \(line)") }
        #expect(report.rejectedCount == 12)
        #expect(report.rejected?.count == Report.rejectionSamplesKept)
        #expect(report.rejected?.first == Rejection(line: 2, reason: "bad 1"))
        #expect(report.rejected?.last == Rejection(line: 20, reason: "bad 10"))
        var failing = Report(spec: try spec(#"{"name":"a","format":"[0]"}"#), collectsRejections: false)
        failing.reject(line: 3, reason: "x")
        #expect(failing.rejected == nil)
    }

    // MARK: JSON

    @Test("the report JSON has the keys of DESIGN §5, in order, byte for byte")
    func reportJSON() throws {
        var report = Report(
            spec: try spec(
                #"{"name":"phone","format":"+1 ([000]) [000]-[0000]","affineFormats":["[000]-[0000]","[000]-[0000]","+[00] [0000]"],"minComplete":0.98},{"name":"date","format":"[00]{/}[00]"}"#
            ), collectsRejections: false)
        report.rows = 1000
        var phone = ColumnStats(formats: 4)
        phone.complete = 930
        phone.lossy = 20
        phone.incomplete = 30
        phone.empty = 20
        phone.droppedCharacters = 57
        phone.formatCounts = [900, 50, 30, 0]
        phone.lossySamples = [Sample(row: 17, value: "555123456789")]
        phone.incompleteSamples = [Sample(row: 3, value: "say \"5\"\n"), Sample(row: 8, value: "55")]
        report.columns[0].stats = phone
        report.columns[1].stats = stats(empty: 1000)
        let expected = """
            {
              "rows": 1000,
              "passed": false,
              "columns": [
                {
                  "name": "phone",
                  "complete": 930,
                  "lossy": 20,
                  "incomplete": 30,
                  "empty": 20,
                  "completeRatio": 0.9490,
                  "minComplete": 0.98,
                  "passed": false,
                  "droppedCharacters": 57,
                  "formats": {
                    "+1 ([000]) [000]-[0000]": 900,
                    "[000]-[0000]": 80
                  },
                  "samples": {
                    "lossy": [
                      {"row": 17, "value": "555123456789"}
                    ],
                    "incomplete": [
                      {"row": 3, "value": "say \\"5\\"\\n"},
                      {"row": 8, "value": "55"}
                    ]
                  }
                },
                {
                  "name": "date",
                  "complete": 0,
                  "lossy": 0,
                  "incomplete": 0,
                  "empty": 1000,
                  "completeRatio": 1.0000,
                  "minComplete": null,
                  "passed": true,
                  "droppedCharacters": 0,
                  "formats": {},
                  "samples": {
                    "lossy": [],
                    "incomplete": []
                  }
                }
              ]
            }

            """
        #expect(report.json == expected)
        // It is JSON.
        #expect((try? JSONSerialization.jsonObject(with: Data(report.json.utf8))) != nil)
    }

    @Test("rejected comes after passed, only when bad records are skipped or quarantined")
    func rejectedJSON() throws {
        var report = Report(
            spec: try spec(#"{"name":"a","format":"[0]","minComplete":1}"#), collectsRejections: true)
        report.rows = 3
        report.columns[0].stats = stats(complete: 1)
        report.reject(line: 3, reason: "unterminated quoted field")
        report.reject(line: 52, reason: #"invalid UTF-8 in column "a""#)
        let expected = """
            {
              "rows": 3,
              "passed": true,
              "rejected": {
                "count": 2,
                "samples": [
                  {"line": 3, "reason": "unterminated quoted field"},
                  {"line": 52, "reason": "invalid UTF-8 in column \\"a\\""}
                ]
              },
              "columns": [
                {
                  "name": "a",
                  "complete": 1,
                  "lossy": 0,
                  "incomplete": 0,
                  "empty": 0,
                  "completeRatio": 1.0000,
                  "minComplete": 1,
                  "passed": true,
                  "droppedCharacters": 0,
                  "formats": {
                    "[0]": 1
                  },
                  "samples": {
                    "lossy": [],
                    "incomplete": []
                  }
                }
              ]
            }

            """
        #expect(report.json == expected)
        let none = Report(spec: try spec(#"{"name":"a","format":"[0]"}"#), collectsRejections: true)
        #expect(none.json.contains("\"rejected\": {\n    \"count\": 0,\n    \"samples\": []\n  },"))
        let failing = Report(spec: try spec(#"{"name":"a","format":"[0]"}"#), collectsRejections: false)
        #expect(!failing.json.contains("rejected"))
    }

    @Test("format keys and names are escaped as JSON")
    func escapedKeys() throws {
        var report = Report(
            spec: try spec(#"{"name":"say \"a\"","format":"\\[[000]\\]"}"#), collectsRejections: false)
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
            ),
            collectsRejections: false)
        report.columns[0].stats = stats(complete: 2, incomplete: 1)
        let text = report.json
        #expect(text.contains(#""completeRatio": 0.6667,"#))
        #expect(text.contains(#""minComplete": 0.5,"#))
        #expect(text.contains(#""minComplete": 0.125,"#))
    }

    @Test("the stderr summary names each column and the verdict")
    func summary() throws {
        var report = Report(
            spec: try spec(
                #"{"name":"phone","format":"[0]","minComplete":0.9},{"name":"date","format":"[0]"}"#),
            collectsRejections: true)
        report.rows = 4
        report.columns[0].stats = stats(complete: 2, lossy: 1, empty: 1)
        report.columns[1].stats = stats(complete: 3, empty: 1)
        report.reject(line: 9, reason: "x")
        let expected = """
            column  complete  lossy  incomplete  empty  threshold  result
            phone     66.67%      1           0      1     90.00%    FAIL
            date     100.00%      0           0      1          -    pass
            4 rows, 1 rejected: FAILED (1 column below threshold)

            """
        #expect(report.summary == expected)
    }
}
