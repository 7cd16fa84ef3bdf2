import MaskEngine
import Testing

@testable import MaskClean

/// Chunks are masked apart and merged in input order: row numbers, rejections, blank lines and
/// the keys seen must come out as if one worker had read the whole input.
@Suite("Run totals")
struct RunTotalsTests {
    static let spec = #"""
        {"columns": [
            {"name": "phone", "format": "([000]) [000]-[0000]"},
            {"name": "zip", "format": "[00000]"}
        ]}
        """#

    /// A chunk's result: `rows` records, the cells of `statuses` (row in the chunk, from 1, to
    /// status) in each column, `rejected` (row in the chunk, line) left out.
    func chunk(rows: Int, statuses: [Int: CellStatus] = [:], rejected: [(row: Int, line: Int)] = [])
        -> ChunkResult
    {
        var result = ChunkResult()
        result.rows = rows
        var stats = ColumnStats(formats: 1)
        let rejectedRows = Set(rejected.map(\.row))
        for row in 1...max(rows, 1) where row <= rows && !rejectedRows.contains(row) {
            stats.count(statuses[row] ?? .complete, format: 0, dropped: 0, row: row) { "cell \(row)" }
        }
        result.stats = [stats, stats]
        result.rejections = rejected.map { Rejection(line: $0.line, reason: "unterminated quoted field") }
        return result
    }

    @Test("sample rows are offset by every row before their chunk, rejected and oversized ones included")
    func sampleRows() throws {
        var totals = RunTotals(spec: try loadSpec(Self.spec))
        // Rows 1–4: row 2 lossy, row 3 rejected (on line 4).
        totals.add(chunk(rows: 4, statuses: [2: .lossy], rejected: [(3, 4)]))
        // Rows 5–7: row 5 lossy, row 7 incomplete.
        totals.add(chunk(rows: 3, statuses: [1: .lossy, 3: .incomplete]))
        // Row 8: too long to read, on line 12.
        totals.addOversizedRecord(line: 12, .tooLong(maximum: 1 << 20, insideQuotedField: true))
        // Rows 9–10: row 10 lossy.
        totals.add(chunk(rows: 2, statuses: [2: .lossy]))
        let report = totals.report
        #expect(report.rows == 10)
        for column in report.columns {
            #expect(column.stats.lossySamples.map(\.row) == [2, 5, 10])
            #expect(column.stats.lossySamples.map(\.value) == ["cell 2", "cell 1", "cell 2"])
            #expect(column.stats.incompleteSamples == [Sample(row: 7, value: "cell 3")])
            #expect(column.stats.cells == 8)
            #expect(column.rejected == 2)
            #expect(column.rows == report.rows, "every row counted once, in the cells or the rejected")
        }
        #expect(report.rejectedCount == 2)
        #expect(
            report.rejected == [
                Rejection(line: 4, reason: "unterminated quoted field"),
                Rejection(line: 12, reason: "record longer than 1 MiB (a quoted field that never closes?)"),
            ])
    }

    @Test("blank lines are all counted, and the first ten of their numbers kept, in order")
    func blankLines() throws {
        var totals = RunTotals(spec: try loadSpec(Self.spec))
        for lines in [[3, 5, 8, 9], [], [20, 21, 22, 23, 24, 25], [40, 41]] {
            var result = chunk(rows: 1)
            result.blankLines = lines.count
            result.blankLineNumbers = lines
            totals.add(result)
        }
        #expect(totals.report.blankLines == 12)
        #expect(totals.report.blankLineNumbers == [3, 5, 8, 9, 20, 21, 22, 23, 24, 25])
        // A chunk that counted more than it kept (its own cap) adds its count whole.
        var many = chunk(rows: 0)
        many.blankLines = 500
        many.blankLineNumbers = Array(100..<110)
        totals.add(many)
        #expect(totals.report.blankLines == 512)
        #expect(totals.report.blankLineNumbers.count == Report.blankLinesKept)
    }

    @Test("the keys seen are kept once each, in the order first seen, up to 200")
    func keysSeen() throws {
        var totals = RunTotals(spec: try loadSpec(Self.spec))
        var first = chunk(rows: 1)
        first.keysSeen = ["id", "Phone", "zip"]
        var second = chunk(rows: 1)
        second.keysSeen = ["id", "email", "Phone"]
        totals.add(first)
        totals.add(second)
        #expect(totals.keysSeen == ["id", "Phone", "zip", "email"])
        var wide = chunk(rows: 1)
        wide.keysSeen = (0..<150).map { "key\($0)" }
        var wider = chunk(rows: 1)
        wider.keysSeen = (100..<400).map { "key\($0)" }
        totals.add(wide)
        totals.add(wider)
        #expect(totals.keysSeen.count == RunTotals.keysKept)
        #expect(totals.keysSeen == ["id", "Phone", "zip", "email"] + (0..<196).map { "key\($0)" })
        #expect(Set(totals.keysSeen).count == totals.keysSeen.count, "no key twice")
    }

    @Test("a masked key seen in any chunk stays seen; CSV chunks, which note none, change nothing")
    func maskedKeysSeen() throws {
        var totals = RunTotals(spec: try loadSpec(Self.spec))
        #expect(totals.maskedKeysSeen == [false, false])
        var phone = chunk(rows: 1)
        phone.maskedKeysSeen = [true, false]
        var neither = chunk(rows: 1)
        neither.maskedKeysSeen = [false, false]
        totals.add(phone)
        totals.add(neither)
        totals.add(chunk(rows: 1))
        #expect(totals.maskedKeysSeen == [true, false])
        var zip = chunk(rows: 1)
        zip.maskedKeysSeen = [false, true]
        totals.add(zip)
        #expect(totals.maskedKeysSeen == [true, true])
    }
}
