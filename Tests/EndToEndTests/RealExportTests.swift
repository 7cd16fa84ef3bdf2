import Foundation
import MaskClean
import TestSupport
import Testing

/// `describe`, then `check` and `run`, on the public real exports under `Fixtures/real` (each
/// folder one export: its data file and a SOURCE saying where it comes from and its licence), as
/// a new user starts (issue 28). A proposal must never be worse than no proposal: the spec passes
/// `check` on the whole file, and no complete cell's formatted value says something else than
/// the input did. A folder added under `Fixtures/real` is covered without changing this file.
@Suite("describe on real exports proposes only what keeps the data's meaning")
struct RealExportTests {
    /// The exports' folder names, found by listing `Fixtures/real`.
    static let exports: [String] = {
        let folder = Maskclean.fixtures.appendingPathComponent("real")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// The export's data file: the one file of its folder that is not its SOURCE or a README.
    static func dataFile(_ export: String) throws -> String {
        let folder = Maskclean.fixtures.appendingPathComponent("real").appendingPathComponent(export)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0 != "SOURCE" && !$0.hasPrefix("README") && !$0.hasPrefix(".") }
        try #require(
            files.count == 1, "\(export): expected one data file beside SOURCE, found \(files.sorted())")
        return folder.appendingPathComponent(files[0]).path
    }

    /// Runs `describe` on the export's whole file into a YAML spec in `scratch`, as the README
    /// shows it, and returns the spec's path.
    static func describe(_ export: String, in scratch: TemporaryFolder) throws -> String {
        let spec = scratch.path("spec.yaml")
        let described = try Maskclean.run(["describe", try dataFile(export), "-o", spec])
        try #require(
            described.status == 0, "\(export): describe exited \(described.status): \(described.stderr)")
        return spec
    }

    @Test("there are at least three real exports, each with its source and licence")
    func exportsHaveTheirSource() throws {
        #expect(Self.exports.count >= 3, "\(Self.exports)")
        for export in Self.exports {
            _ = try Self.dataFile(export)
            let source = try String(
                contentsOf: Maskclean.fixtures.appendingPathComponent("real/\(export)/SOURCE"),
                encoding: .utf8)
            for field in ["Publisher:", "Original:", "Mirror:", "Retrieved:", "Licence:"] {
                #expect(source.contains(field), "\(export)/SOURCE lacks \(field)")
            }
        }
    }

    @Test("describe reads the export and proposes at least one column", arguments: exports)
    func describeProposesAColumn(_ export: String) throws {
        let scratch = try TemporaryFolder()
        let spec = try SpecLoader.load(path: try Self.describe(export, in: scratch))
        #expect(!spec.columns.isEmpty, "\(export): no column proposed")
    }

    /// The first records of a sorted export are not a sample of the rest: a spec proposed from
    /// them alone can fail on the whole file, which is the file `check` reads in CI.
    @Test("check with the proposed spec passes on the whole export", arguments: exports)
    func checkPassesOnTheWholeFile(_ export: String) throws {
        let scratch = try TemporaryFolder()
        let spec = try Self.describe(export, in: scratch)
        let checked = try Maskclean.run(["check", spec, try Self.dataFile(export)])
        #expect(
            checked.status == 0,
            "\(export): check exited \(checked.status):\n\(checked.stdoutText)\(checked.stderr)")
    }

    @Test("no complete cell's formatted value changes what the input said", arguments: exports)
    func completeCellsKeepTheirMeaning(_ export: String) throws {
        let scratch = try TemporaryFolder()
        let spec = try Self.describe(export, in: scratch)
        for (column, changed) in try Self.changedCells(
            spec: spec, input: try Self.dataFile(export), in: scratch)
        {
            #expect(changed.isEmpty, "\(export): column \"\(column)\": \(changed.joined(separator: "; "))")
        }
    }

    /// The rule is not idle: a spec written as the issue's describe proposed it, on the embassies'
    /// coordinates and phones, drops signs and regroups numbers, and the rule says so.
    @Test("the meaning rule finds a dropped sign and regrouped phone numbers in a real export")
    func meaningRuleFindsChangedCells() throws {
        let scratch = try TemporaryFolder()
        let spec = try scratch.write(
            "spec.yaml",
            """
            columns:
              - name: "longitude"
                format: "[00].[0000]"
              - name: "phone"
                format: "+[00] [00] [000] [0000]"
            """)
        let changed = try Self.changedCells(
            spec: spec, input: try Self.dataFile("embassies"), in: scratch
        ).mapValues { $0.joined(separator: "; ") }
        #expect(changed["longitude"]?.contains("the sign \"-\" is dropped") == true, "\(changed)")
        #expect(changed["phone"]?.contains("are joined") == true, "\(changed)")
    }

    /// Runs `spec` over `input` and returns, for each column of the spec, its complete cells whose
    /// formatted value does not keep the input's meaning (MeaningRule): how many of how many, and
    /// the first five, with their row, or nothing when there are none.
    static func changedCells(spec: String, input: String, in scratch: TemporaryFolder) throws -> [String:
        [String]]
    {
        let output = scratch.path("out.ndjson")
        // Whether the thresholds are met is checkPassesOnTheWholeFile's question: run writes every
        // record either way.
        let ran = try Maskclean.run(["run", spec, input, "-o", output, "--output-format", "ndjson"])
        try #require(ran.status == 0 || ran.status == 1, "run exited \(ran.status): \(ran.stderr)")
        let records = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(!records.isEmpty, "run wrote no record")
        var changedByColumn: [String: [String]] = [:]
        for column in try SpecLoader.load(path: spec).columns {
            let rule = try MeaningRule(column)
            var complete = 0
            var changed: [String] = []
            for (row, record) in records.enumerated() where record[rule.statusColumn] as? String == "complete"
            {
                let value = record[column.name] as? String ?? ""
                let formatted = record[rule.formattedColumn] as? String ?? ""
                complete += 1
                if let why = rule.problem(input: value, formatted: formatted) {
                    changed.append("row \(row + 1): \"\(value)\" became \"\(formatted)\": \(why)")
                }
            }
            changedByColumn[column.name] =
                changed.isEmpty ? [] : ["\(changed.count) of \(complete) complete cells"] + changed.prefix(5)
        }
        return changedByColumn
    }
}
