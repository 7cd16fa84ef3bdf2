import Foundation
import TestSupport
import Testing

/// A phone column through `run`, `check` and `merge`, in every report format. The values are
/// ones every reading agrees on (a valid London number, one too short, one too long for any
/// country, an empty cell), so these hold with any numbering plan.
@Suite("Phone columns, end to end")
struct PhoneColumnEndToEndTests {
    static let spec = #"""
        {"samples": 2, "columns": [
          {"name": "tel", "kind": "phone", "defaultRegion": "GB", "regionColumn": "cc", "maxInvalid": 0.2}
        ]}
        """#

    static let csv = """
        id,cc,tel
        1,GB,+44 20 7946 0958
        2,,+44 20
        3,FR,+1234567890123456789
        4,GB,

        """

    static let ndjson = """
        {"id":5,"tel":"+44 20 7946 0958"}
        {"id":6,"cc":"GB","tel":"+44 20 7946 0958"}

        """

    @Test("run and check: every report format names the phone column, its invalid share fails maxInvalid")
    func runAndCheck() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("spec.json", Self.spec)
        _ = try folder.write("in.csv", Self.csv)
        let run = try Maskclean.run(
            [
                "run", "spec.json", "in.csv", "-o", "out.csv", "--samples", "raw", "--report", "r.json",
                "--junit",
                "j.xml",
                "--markdown", "m.md", "--html", "h.html", "--annotations", "github",
            ], in: folder.url)
        // 1 invalid of 3 cells that are not empty: above maxInvalid 0.2.
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("tel: 33.33% invalid (maxInvalid 20.00%): FAILED"), "\(run.stderr)")
        #expect(run.stderr.contains("tel: countries "), "\(run.stderr)")
        #expect(run.stdoutText.contains("::error") || run.stderr.contains("::error"))
        let out = try folder.text("out.csv")
        #expect(out.hasPrefix("id,cc,tel,tel_formatted,tel_extracted,tel_status,tel_country\n"))
        #expect(
            out.contains(",invalid,") && out.contains(",incomplete,") && out.hasSuffix("4,GB,,,,empty,\n"))
        let report = try folder.text("r.json")
        #expect(report.contains(#""formats": {"# + "\n" + #"        "phone": 3"#), "\(report)")
        #expect(report.contains(#""countries": {"#))
        #expect(report.contains(#""failedThresholds": ["maxInvalid"]"#))
        #expect(report.contains(#"{"row": 3, "value": "+1234567890123456789", "formatted": "#))
        #expect(try folder.text("j.xml").contains("1 complete, 0 lossy, 1 incomplete, 1 invalid, 1 empty"))
        #expect(try folder.text("m.md").contains("- tel: countries "))
        #expect(try folder.text("h.html").contains("<h3>Countries</h3>"))
        let check = try Maskclean.run(
            ["check", "spec.json", "in.csv", "--samples", "raw", "--report", "c.json"], in: folder.url)
        #expect(check.status == 1, "\(check.stderr)")
        #expect(untimed(try folder.text("c.json")) == untimed(report))
    }

    @Test("merge: partitions of CSV and NDJSON add up, countries included; redacted samples stay redacted")
    func merge() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("spec.json", Self.spec)
        _ = try folder.write("a.csv", Self.csv)
        _ = try folder.write("b.ndjson", Self.ndjson)
        let first = try Maskclean.run(
            [
                "run", "spec.json", "a.csv", "-o", "a.out.csv", "--part", "a", "--report", "a.json",
                "--samples",
                "raw", "--quiet",
            ], in: folder.url)
        #expect(first.status == 1, "\(first.stderr)")
        let second = try Maskclean.run(
            [
                "run", "spec.json", "b.ndjson", "-o", "b.out.ndjson", "--part", "b", "--report", "b.json",
                "--redact-samples", "--quiet",
            ], in: folder.url)
        #expect(second.status == 0, "\(second.stderr)")
        let merged = try Maskclean.run(
            [
                "merge", "spec.json", "a.json", "b.json", "--report", "m.json", "--markdown", "m.md",
                "--html",
                "m.html", "--junit", "m.xml",
            ], in: folder.url)
        // 1 invalid of 5 cells that are not empty: 20%, at maxInvalid.
        #expect(merged.status == 0, "\(merged.stderr)")
        let report = try folder.text("m.json")
        #expect(report.contains(#""formats": {"# + "\n" + #"        "phone": 5"#), "\(report)")
        #expect(report.contains(#""complete": 3,"#) && report.contains(#""invalid": 1,"#))
        #expect(report.contains(#""samplesRedacted": true"#))
        // The region key is read in NDJSON too: no record lacks the masked key, none is rejected.
        #expect(report.contains(#""rejected": {"# + "\n" + #"    "count": 0,"#), "\(report)")
        // A merged report merges again to itself.
        let again = try Maskclean.run(
            ["merge", "spec.json", "m.json", "--report", "m2.json"], in: folder.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(untimed(try folder.text("m2.json")) == untimed(report))
    }
}
