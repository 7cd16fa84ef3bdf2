import Foundation
import Testing

@testable import MaskClean

/// `merge` reads reports back: anything that is not a partial report of this spec, or whose
/// numbers do not add up, is refused with the file, the line and what was expected.
@Suite("Reading a report back")
struct ReportReadingTests {
    static let spec = """
        {"columns": [{"name": "phone", "format": "[000]-[0000]", "affineFormats": ["[000]"]},
                     {"name": "zip", "format": "[00000]"}]}
        """

    /// A report with real counts: a run over a small export.
    static func report() throws -> Report {
        var report = Report(spec: try loadSpec(spec))
        report.rows = 6
        report.columns[0].stats.complete = 3
        report.columns[0].stats.incomplete = 2
        report.columns[0].stats.empty = 1
        report.columns[0].stats.formatCounts = [4, 1]
        report.columns[0].stats.incompleteSamples = [Sample(row: 2, value: "55"), Sample(row: 6, value: "5")]
        report.columns[1].stats.complete = 6
        report.columns[1].stats.formatCounts = [6]
        return report
    }

    /// The message reading `text` gives, and its exit status.
    static func failure(_ text: String, spec: String = spec) -> (
        message: String, status: MaskClean.ExitStatus
    )? {
        do {
            _ = try ReportReader.parse(Array(text.utf8), file: "part-3.json", spec: loadSpec(spec))
            return nil
        } catch let error as MaskCleanError {
            return (error.message, error.status)
        } catch {
            return ("\(error)", MaskClean.ExitStatus.success)
        }
    }

    /// The report's JSON with `old` replaced by `new` (which must be there).
    static func edited(_ old: String, _ new: String) throws -> String {
        let json = try report().json
        #expect(json.contains(old), "the report has no \(old)")
        return json.replacingOccurrences(of: old, with: new)
    }

    @Test("a report reads back as itself")
    func roundTrip() throws {
        let report = try Self.report()
        let read = try ReportReader.parse(Array(report.json.utf8), file: "r.json", spec: loadSpec(Self.spec))
        #expect(read.json == report.json)
        #expect(read.columns[0].stats.formatCounts == [4, 1])
    }

    @Test("a file that is not a report is malformed input (65), with its line")
    func notAReport() throws {
        #expect(
            Self.failure("phone,zip\n555,12345\n")?.message.hasPrefix(
                "part-3.json:1: not a maskclean report:") == true)
        #expect(Self.failure("phone,zip\n555,12345\n")?.status == .dataError)
        #expect(
            Self.failure(#"{"id": 1, "phone": "555"}"#)?.message
                == #"part-3.json:1: not a maskclean report: expected an object with "rows" and "columns""#)
        #expect(
            Self.failure(#"[{"rows": 1, "columns": []}]"#)?.message
                == #"part-3.json:1: not a maskclean report: expected an object with "rows" and "columns""#)
        let old = try Self.edited(#"  "specFingerprint": "#, #"  "fingerprint": "#)
        #expect(
            Self.failure(old)?.message
                == #"part-3.json:1: not a partial report: it has no "specFingerprint" (written by an older maskclean?); run the partition again"#
        )
    }

    @Test("a value of the wrong type names its place and line")
    func wrongTypes() throws {
        let text = try Self.edited(#""complete": 3,"#, #""complete": "3","#)
        let line =
            text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.contains(#""complete": "3""#)
            }! + 1
        #expect(
            Self.failure(text)?.message
                == #"part-3.json:\#(line): columns[0] "phone": complete: expected a whole number from 0 to 9007199254740991, got the string "3""#
        )
        #expect(
            Self.failure(try Self.edited(#""rows": 6,"#, #""rows": 6.5,"#))?.message.contains(
                "rows: expected a whole number") == true)
        #expect(Self.failure(try Self.edited(#""rows": 6,"#, #""rows": -6,"#))?.status == .dataError)
        #expect(
            Self.failure(try Self.edited(#""keyFound": true,"#, #""keyFound": 1,"#))?.message.contains(
                "keyFound: expected true or false, got the number 1") == true)
        #expect(
            Self.failure(try Self.edited(#"{"row": 2, "value": "55"}"#, #"{"row": 0, "value": "55"}"#))?
                .message.contains("row: expected a row number from 1 to 9007199254740991, got the number 0")
                == true)
    }

    @Test("a key written twice is named with its line, not taken for a missing key or added twice")
    func keyTwice() throws {
        let rows = try Self.edited(#"  "rows": 6,"#, "  \"rows\": 6,\n  \"rows\": 6,")
        #expect(Self.failure(rows)?.message == #"part-3.json:3: report: key "rows" appears twice"#)
        #expect(Self.failure(rows)?.status == .dataError)
        let columns = try Self.edited(#"  "columns": ["#, "  \"columns\": [],\n  \"columns\": [")
        #expect(Self.failure(columns)?.message.hasSuffix(#"report: key "columns" appears twice"#) == true)
        // A format's count written twice was added up, and blamed on the sum.
        let format = try Self.edited(#""[000]": 1"#, #""[000]": 1, "[000]": 1"#)
        #expect(
            Self.failure(format)?.message.hasSuffix(
                #"columns[0] "phone": formats: key "[000]" appears twice"#)
                == true)
        let sample = try Self.edited(#"{"row": 2, "value": "55"}"#, #"{"row": 2, "value": "55", "row": 3}"#)
        #expect(
            Self.failure(sample)?.message.hasSuffix(
                #"columns[0] "phone": samples: incomplete[0]: key "row" appears twice"#) == true)
    }

    @Test("a report keeps no more samples, rejected records, blank lines or keys than maskclean writes")
    func keptAtMost() throws {
        let samples = (0..<6).map { #"{"row": \#($0 + 1), "value": "5"}"# }.joined(separator: ", ")
        let tooManySamples = try Self.edited(#"{"row": 2, "value": "55"}"#, samples)
        #expect(
            Self.failure(tooManySamples)?.message.hasSuffix(
                #"columns[0] "phone": samples: incomplete: more than the 5 samples of each status spec.json keeps"#
            )
                == true)
        let rejected = (0..<11).map { #"{"line": \#($0 + 1), "reason": "r"}"# }.joined(separator: ", ")
        let tooManyRejected = try Self.edited(#""samples": []"#, #""samples": [\#(rejected)]"#)
        #expect(
            Self.failure(tooManyRejected)?.message.hasSuffix(
                "rejected: samples: more than the 10 rejected records a report keeps") == true)
        let keys = (0..<64).map { #""k\#($0)": 0, "# }.joined()
        let tooManyKeys = try Self.edited(#"  "rows": 6,"#, #"  \#(keys)"rows": 6,"#)
        #expect(
            Self.failure(tooManyKeys)?.message
                == "part-3.json:2: report: more than 64 keys: not an object of a maskclean report")
    }

    @Test(
        "the largest report a spec can make: 8 MiB, and per column 4 KiB, its texts, 15 KiB a sample and 16 KiB of shapes"
    )
    func largestReport() throws {
        #expect(try ReportReader.maximumBytes(for: loadSpec(Self.spec)) == 9 << 20)
        // 8 MiB + 4 KiB + 1000 × 15 KiB (a lossy, an incomplete and an invalid sample of 5 KiB)
        // + 16 KiB: 22.7 MiB, rounded up.
        let many = try loadSpec(#"{"samples": 1000, "columns": [{"name": "a", "format": "[0]"}]}"#)
        #expect(ReportReader.maximumBytes(for: many) == 23 << 20)
        // 2 KiB more per sample for each key column: 1000 × 3 × 2 KiB × 2 more.
        let keyed = try loadSpec(
            #"{"samples": 1000, "key": ["id", "region"], "columns": [{"name": "a", "format": "[0]"}]}"#)
        #expect(ReportReader.maximumBytes(for: keyed) == 35 << 20)
        // A long key column name is written in every sample: 1000 × 3 × 6 bytes a byte more each.
        let longName = String(repeating: "k", count: 1000)
        let named = try loadSpec(
            #"{"samples": 1000, "key": ["\#(longName)"], "columns": [{"name": "a", "format": "[0]"}]}"#)
        #expect(ReportReader.maximumBytes(for: named) == 46 << 20)
    }

    @Test("counts that do not add up are refused")
    func inconsistent() throws {
        let cases: [(String, String, String)] = [
            (
                #""rows": 6,"#, #""rows": 7,"#,
                #"columns[0] "phone": complete, lossy, incomplete, invalid, empty and rejected add up to 6, not the report's 7 rows"#
            ),
            (
                #""[000]-[0000]": 4"#, #""[000]-[0000]": 5"#,
                #"columns[0] "phone": formats: count 6 cells, where the column has 5 that are not empty"#
            ),
            (
                #""[000]": 1"#, #""[0000]": 1"#,
                #"columns[0] "phone": formats: "[0000]" is not a format of this column in spec.json"#
            ),
            (
                #""name": "zip""#, #""name": "postcode""#,
                #"columns[1]: expected the column "zip" of spec.json, found "postcode""#
            ),
            (#""incomplete": 2,"#, #""incomplete": 1, "lossy2": 0,"#, "add up to 5"),
        ]
        for (old, new, expected) in cases {
            let failure = Self.failure(try Self.edited(old, new))
            #expect(failure?.message.contains(expected) == true, "\(new): \(failure?.message ?? "read")")
            #expect(failure?.status == .dataError)
        }
    }

    @Test("a report made with another spec is a spec error (78) that names both")
    func otherSpec() throws {
        let other =
            #"{"columns": [{"name": "phone", "format": "[000]-[0000]"}, {"name": "zip", "format": "[00000]"}]}"#
        let failure = Self.failure(try Self.report().json, spec: other)
        #expect(failure?.status == .config)
        #expect(
            failure?.message.hasPrefix(
                "part-3.json: made with another spec than spec.json (spec fingerprint sha256:") == true)
    }

    // MARK: Invalid cells

    /// A card column checked with Luhn: 6 rows, 3 complete, 2 invalid, 1 empty.
    static let checkedSpec =
        #"{"columns": [{"name": "card", "format": "[0000]", "check": "luhn", "maxInvalid": 0.25}]}"#

    static func checkedReport() throws -> Report {
        var report = Report(spec: try loadSpec(checkedSpec))
        report.rows = 6
        report.columns[0].stats.complete = 3
        report.columns[0].stats.invalid = 2
        report.columns[0].stats.empty = 1
        report.columns[0].stats.formatCounts = [5]
        report.columns[0].stats.invalidSamples = [
            Sample(row: 2, value: "4242"), Sample(row: 5, value: "1234"),
        ]
        return report
    }

    @Test("invalid counts and samples read back: render, read, render gives the same report")
    func invalidRoundTrip() throws {
        let report = try Self.checkedReport()
        #expect(!report.passed)
        let read = try ReportReader.parse(
            Array(report.json.utf8), file: "r.json", spec: loadSpec(Self.checkedSpec))
        #expect(read.json == report.json)
        #expect(read.columns[0].stats.invalid == 2)
        #expect(read.columns[0].stats.invalidSamples == report.columns[0].stats.invalidSamples)
        #expect(!read.passed && read.columns[0].failedThresholds == ["maxInvalid"])
    }

    @Test("a report without the invalid keys (an older maskclean's) is refused, naming the missing key")
    func invalidKeysRequired() throws {
        let json = try Self.report().json
        let withoutCount = json.replacingOccurrences(of: "\"invalid\": 0,\n", with: "")
        #expect(withoutCount != json)
        #expect(
            Self.failure(withoutCount)?.message.contains(#"columns[0] "phone": missing key "invalid""#)
                == true)
        let withoutSamples = json.replacingOccurrences(of: "],\n        \"invalid\": []", with: "]")
        #expect(withoutSamples != json)
        #expect(
            Self.failure(withoutSamples)?.message.contains(
                #"columns[0] "phone": samples: missing key "invalid""#)
                == true)
    }

    @Test("invalid cells must add up with the others, be counted in formats, and outnumber their samples")
    func invalidCountsAddUp() throws {
        let json = try Self.checkedReport().json
        func failure(_ old: String, _ new: String) -> String? {
            #expect(json.contains(old), "the report has no \(old)")
            return Self.failure(json.replacingOccurrences(of: old, with: new), spec: Self.checkedSpec)?
                .message
        }
        #expect(
            failure(#""invalid": 2,"#, #""invalid": 3,"#)?.contains(
                #"complete, lossy, incomplete, invalid, empty and rejected add up to 7, not the report's 6 rows"#
            )
                == true)
        // Invalid cells fit a format, so formats count them: 3 complete and 2 invalid are 5.
        #expect(
            failure(#""[0000]": 5"#, #""[0000]": 3"#)?.contains(
                "formats: count 3 cells, where the column has 5 that are not empty") == true)
        #expect(
            failure(#""invalid": 2,"#, #""invalid": 1, "lossy2": 0,"#)?.contains("add up to 5") == true)
        let threeSamples = #"{"row": 5, "value": "1234"}, {"row": 6, "value": "1"}"#
        #expect(
            failure(#"{"row": 5, "value": "1234"}"#, threeSamples)?.contains(
                "more samples than cells of their status") == true)
    }

    @Test("invalid cells in a column the spec gives no check are refused: only a check makes them")
    func invalidWithoutCheck() throws {
        let json = try Self.report().json
            .replacingOccurrences(of: #""complete": 3,"#, with: #""complete": 2,"#)
            .replacingOccurrences(
                of: #""incomplete": 2,\#n      "invalid": 0,"#,
                with: #""incomplete": 2,\#n      "invalid": 1,"#)
        #expect(
            Self.failure(json)?.message.contains(
                #"columns[0] "phone": 1 invalid cells, where spec.json gives the column no check"#) == true)
    }
}
