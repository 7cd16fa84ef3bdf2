import Foundation
import TestSupport
import Testing

/// Counts near 2^63 made `merge`, `run` and `check` die on an arithmetic overflow (signal 4);
/// every count is now bounded by 2^53 − 1 and every sum checked, so each ends with its status.
@Suite("Counts past the limit end with a status, not a signal")
struct CountLimitEndToEndTests {
    /// The demo's spec as it was before its checks: the partial reports below were made with it.
    static let demoSpec = Maskclean.fixture("cases/merge-partitions/spec.json")
    static let demoInput = Maskclean.fixture("demo/customers.csv")

    @Test("--first-row past the limit is a usage error (64); rows that would pass it are 65")
    func firstRow() throws {
        let scratch = try TemporaryFolder()
        for command in ["run", "check"] {
            let output = command == "run" ? ["-o", scratch.path("clean.csv")] : []
            let huge = try Maskclean.run(
                [command, Self.demoSpec, Self.demoInput, "--first-row", "9223372036854775807"] + output)
            #expect(huge.status == 64, "\(command): \(huge.stderr)")
            #expect(huge.stderr.contains("--first-row must be from 1 to 9007199254740991"))
            let past = try Maskclean.run(
                [
                    command, Self.demoSpec, Self.demoInput, "--first-row", "9007199254740991", "--report",
                    scratch.path("report.json"),
                ] + output)
            #expect(past.status == 65, "\(command): \(past.stderr)")
            #expect(past.stderr.contains("end past row 9007199254740991, the largest row number"))
        }
        // Only the report of the stopped run, which says why.
        #expect(scratch.files == ["report.json"], "left behind: \(scratch.files)")
    }

    @Test("merge: a count past the limit, or sums past it, are 65; counts at the limit render everywhere")
    func merge() throws {
        let folder = Maskclean.fixtures.appendingPathComponent("bad/merge-count-past-limit")
        let overflow = try Maskclean.run(
            ["merge", Self.demoSpec, "dropped-1.json", "dropped-2.json"], in: folder)
        #expect(overflow.status == 65, "\(overflow.stderr)")
        let rows = Maskclean.fixtures.appendingPathComponent("bad/merge-rows-past-limit")
        let summed = try Maskclean.run(
            ["merge", Self.demoSpec, "huge-1.json", "huge-2.json", "huge-3.json"], in: rows)
        #expect(summed.status == 65, "\(summed.stderr)")
        // Two of them add up to 2/3 of the limit: every output is written from those counts.
        let scratch = try TemporaryFolder()
        let within = try Maskclean.run(
            [
                "merge", Self.demoSpec, "huge-1.json", "huge-2.json", "--report", scratch.path("r.json"),
                "--html", scratch.path("r.html"), "--junit", scratch.path("r.xml"), "--markdown",
                scratch.path("r.md"), "--annotations", "github",
            ], in: rows)
        #expect(within.status == 0, "\(within.stderr)")
        #expect(within.stderr.contains("6004799503160662 rows: passed"))
    }
}
