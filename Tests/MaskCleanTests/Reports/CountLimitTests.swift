import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import MaskClean

/// Every count and row number read from a report, a spec or the command line is a whole number
/// from 0 to 2^53 − 1, read exactly, and every sum of them is checked: counts near 2^63 are
/// refused with the limit named, never an arithmetic overflow.
@Suite("Counts and their limit")
struct CountLimitTests {
    static let maximum = 9_007_199_254_740_991

    @Test("the limit is 2^53 − 1, the largest whole number every JSON reader holds exactly")
    func limit() {
        #expect(Count.maximum == Self.maximum)
        #expect(Double(Count.maximum) + 1 == Double(Count.maximum + 1))
        #expect(Double(Count.maximum + 1) + 1 == Double(Count.maximum + 1))
    }

    @Test("a whole number is read exactly from its digits, fraction and exponent")
    func wholeNumbers() {
        let whole: [(String, Int)] = [
            ("0", 0), ("-0", 0), ("0.000", 0), ("0e999999999999999999999", 0), ("12", 12), ("1000.0", 1000),
            ("1e15", 1_000_000_000_000_000), ("1E+3", 1000), ("2.5e3", 2500), ("12300e-2", 123), ("+5", 5),
            ("5.", 5), ("9007199254740991", Self.maximum), ("9007199254740991.000", Self.maximum),
            ("9.007199254740991e15", Self.maximum), ("0009", 9),
        ]
        for (text, value) in whole { #expect(Count.whole(text) == value, "\(text)") }
        let refused = [
            "9007199254740992", "9223372036854775807", "9223372036854775808", "1e16", "1e400", "-1", "2.5",
            "1e-1", "12301e-2", "", "-", ".", "1e", "1e+", "0x10", "1_000", "12a",
            "1.5e999999999999999999999",
            "0.00000000000000000000001e22", "1" + String(repeating: "0", count: 40) + "e-41",
        ]
        for text in refused { #expect(Count.whole(text) == nil, "\(text)") }
        // Zeros that an exponent takes back are no fraction.
        #expect(Count.whole("1" + String(repeating: "0", count: 40) + "e-40") == 1)
        #expect(Count.whole("1." + String(repeating: "0", count: 40) + "e0") == 1)
    }

    @Test("any count up to the limit reads back as itself, however it is written")
    func wholeNumberProperty() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Self.maximum), Gen.int(in: 0...6)) {
            value, shift in
            #expect(Count.whole(String(value)) == value)
            #expect(Count.whole("\(value).000") == value)
            // The same number with its point moved and an exponent to move it back.
            var digits = String(value)
            if shift < digits.count {
                digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -shift))
                #expect(Count.whole("\(digits)e\(shift)") == value, "\(digits)e\(shift)")
            }
            #expect(
                Count.whole("\(value)e-\(shift)") == (value % pow10(shift) == 0 ? value / pow10(shift) : nil))
            #expect(Count.whole(String(Self.maximum + 1 + value % 1000)) == nil)
        }
    }

    private func pow10(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { acc, _ in acc * 10 } }

    @Test("sums are checked against the limit, never overflow")
    func sums() {
        #expect(Count.sum(1, 2) == 3)
        #expect(Count.sum(Self.maximum, 0) == Self.maximum)
        #expect(Count.sum(Self.maximum, 1) == nil)
        #expect(Count.sum(Int.max, Int.max) == nil)
        #expect(Count.sum(-1, 5) == nil)
    }

    // MARK: Reports

    static let spec =
        #"{"columns": [{"name": "phone", "format": "[000]-[0000]", "affineFormats": ["[000]"]}]}"#

    /// A report of `rows` records whose phone cells are all complete in the primary format.
    static func report(rows: Int, dropped: Int = 0, part: String? = nil, firstRow: Int? = nil) throws
        -> Report
    {
        var report = Report(spec: try loadSpec(spec))
        report.rows = rows
        report.columns[0].stats.complete = rows
        report.columns[0].stats.formatCounts = [rows, 0]
        report.columns[0].stats.droppedCharacters = dropped
        if part != nil || firstRow != nil {
            report.partitions = [Partition(part: part, firstRow: firstRow, rows: rows)]
        }
        return report
    }

    static func failure(_ text: String) -> MaskCleanError? {
        do {
            _ = try ReportReader.parse(Array(text.utf8), file: "huge.json", spec: loadSpec(spec))
            return nil
        } catch let error as MaskCleanError {
            return error
        } catch {
            return nil
        }
    }

    @Test(
        "a report's counts up to the limit are read, in any whole-number form; past it, refused naming the limit"
    )
    func reportCounts() throws {
        let atLimit = try Self.report(rows: Self.maximum, dropped: Self.maximum)
        let read = try ReportReader.parse(
            Array(atLimit.json.utf8), file: "huge.json", spec: loadSpec(Self.spec))
        #expect(read.json == atLimit.json)
        let written = try Self.report(rows: 1_000).json.replacingOccurrences(of: ": 1000,", with: ": 1e3,")
            .replacingOccurrences(of: ": 1000\n", with: ": 1000.0\n")
        #expect(
            try ReportReader.parse(Array(written.utf8), file: "r.json", spec: loadSpec(Self.spec)).rows
                == 1000)

        let past = try Self.report(rows: 5).json.replacingOccurrences(
            of: #""droppedCharacters": 0"#, with: #""droppedCharacters": 9223372036854775807"#)
        #expect(
            Self.failure(past)?.message.hasSuffix(
                #"columns[0] "phone": droppedCharacters: expected a whole number from 0 to 9007199254740991, got the number 9223372036854775807"#
            ) == true)
        #expect(Self.failure(past)?.status == .dataError)
        // Formats whose counts add up past the limit (each one within it).
        let formats = try Self.report(rows: 5).json.replacingOccurrences(
            of: #""[000]-[0000]": 5"#, with: #""[000]-[0000]": 9007199254740991, "[000]": 9007199254740991"#)
        #expect(
            Self.failure(formats)?.message.hasSuffix(
                #"columns[0] "phone": formats: count more than 9007199254740991 cells, where the column has 5 that are not empty"#
            ) == true)
    }

    @Test("a partition whose last row would pass the limit is refused, in a report and in a merge")
    func partitionRows() throws {
        let spec = try loadSpec(Self.spec)
        let last = try Self.report(rows: 1, part: "p", firstRow: Self.maximum)
        #expect(try ReportReader.parse(Array(last.json.utf8), file: "p.json", spec: spec).rows == 1)
        let past = try Self.report(rows: 2, part: "p", firstRow: Self.maximum)
        #expect(
            Self.failure(past.json)?.message.hasSuffix(
                "parts[0]: its 2 rows from row 9007199254740991 end past row 9007199254740991, the largest row number"
            )
                == true)
        #expect(
            throws: MaskCleanError.data(
                "p.json", line: nil,
                "its 2 rows from row 9007199254740991 end past row 9007199254740991, the largest row number")
        ) {
            try Report.merging([Report.Partial(file: "p.json", report: past)], spec: spec)
        }
        let parts = try Self.report(rows: 5, part: "a", firstRow: 1).json.replacingOccurrences(
            of: #"{"part": "a", "firstRow": 1, "rows": 5}"#,
            with: #"{"part": "a", "rows": 9007199254740991}, {"part": "b", "rows": 9007199254740991}"#)
        #expect(
            Self.failure(parts)?.message.hasSuffix(
                "parts: the parts hold more than 9007199254740991 rows, the most a report counts") == true)
    }

    @Test("merging sums are checked: rows or dropped characters past the limit name the report")
    func mergedSums() throws {
        let spec = try loadSpec(Self.spec)
        let third = Self.maximum / 3 + 1
        let partials = try ["a", "b", "c"].map { (name: String) in
            Report.Partial(file: "\(name).json", report: try Self.report(rows: third, part: name))
        }
        #expect(try Report.merging(Array(partials.prefix(2)), spec: spec).rows == 2 * third)
        #expect(
            throws: MaskCleanError.data(
                "c.json", line: nil,
                "rows: the sum with the reports before it passes 9007199254740991, the most a report counts")
        ) {
            try Report.merging(partials, spec: spec)
        }
        let dropped = try ["a", "b"].map { (name: String) in
            Report.Partial(
                file: "\(name).json", report: try Self.report(rows: 1, dropped: Self.maximum, part: name))
        }
        #expect(
            throws: MaskCleanError.data(
                "b.json", line: nil,
                #"columns[0] "phone": droppedCharacters: the sum with the reports before it passes 9007199254740991, the most a report counts"#
            )
        ) {
            try Report.merging(dropped, spec: spec)
        }
    }

    // MARK: Specs and runs

    @Test("a spec's maxRejected and minRows are whole numbers up to the limit, read exactly")
    func specCounts() throws {
        func spec(_ key: String) -> String { #"{\#(key), "columns": [{"name": "a", "format": "[0]"}]}"# }
        #expect(try loadSpec(spec(#""minRows": 1e15"#)).minRows == 1_000_000_000_000_000)
        #expect(try loadSpec(spec(#""maxRejected": 9007199254740991"#)).maxRejected == Self.maximum)
        #expect(try loadSpec(spec(#""maxRejected": 20.0"#)).maxRejected == 20)
        #expect(
            specError(spec(#""minRows": 9007199254740992"#))
                == "spec.json: minRows: expected a whole number of records from 0 to 9007199254740991, got the number 9007199254740992"
        )
    }

    @Test("a run whose rows would pass the limit from --first-row fails cleanly, with nothing written")
    func runRows() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("in.ndjson", Array("{\"phone\": \"555-0100\"}\n{\"phone\": \"55\"}\n".utf8))
        let spec = try loadSpec(Self.spec)
        func options(firstRow: Int) -> RunOptions {
            var options = RunOptions(input: folder.path("in.ndjson"), output: nil, jobs: 1)
            options.reportPaths[.json] = folder.path("report.json")
            options.firstRow = firstRow
            return options
        }
        #expect(
            throws: MaskCleanError.data(
                folder.path("in.ndjson"), line: nil,
                "its 2 rows from row 9007199254740991 end past row 9007199254740991, the largest row number")
        ) {
            try Runner.run(spec, options(firstRow: Self.maximum))
        }
        // Its report says why, and counts nothing: the rows could not be numbered.
        let stopped = try folder.text("report.json")
        #expect(stopped.hasPrefix("{\n  \"rows\": 0,\n  \"passed\": false,\n  \"error\": {\"status\": 65,"))
        let report = try Runner.run(spec, options(firstRow: Self.maximum - 1))
        #expect(report.columns[0].stats.incompleteSamples.map(\.row) == [Self.maximum])
        #expect(throws: MaskCleanError.self) { try Runner.run(spec, options(firstRow: Int.max)) }
    }
}
