import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Issue 25, item 4: the report formats are one registry (`ReportFormat`). Every format in it is
/// opened, rendered and committed by `Outputs`, checked against the other outputs, and counted by
/// the one rule for standard output, for `run` and `check` (`RunOptions`) and `merge`
/// (`MergeOptions`) alike, with nothing wired by hand per format.
@Suite("Report formats")
struct ReportFormatTests {
    static let spec = #"{"columns": [{"name": "phone", "format": "([000]) [000]-[0000]"}]}"#

    func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", "id,phone\n1,5551234567\n2,555\n")
        return folder
    }

    @Test("a run asked for every format writes each file with that format's renderer, and no other")
    func everyFormatWritten() throws {
        let folder = try folder()
        var options = RunOptions(input: folder.path("data.csv"), output: nil, jobs: 1)
        for format in ReportFormat.allCases { options.reportPaths[format] = folder.path("report.\(format)") }
        let spec = try loadSpec(Self.spec, file: folder.path("spec.json"))
        let report = try Runner.run(spec, options)
        for format in ReportFormat.allCases {
            // The report carries its times (`Report.Origin`): the file is its rendering exactly.
            #expect(try folder.text("report.\(format)") == format.render(report), "\(format)")
        }
        #expect(
            folder.files.sorted() == (["data.csv"] + ReportFormat.allCases.map { "report.\($0)" }).sorted())
    }

    @Test("a merge asked for every format writes each file", arguments: ReportFormat.allCases)
    func mergeWritesEveryFormat(format: ReportFormat) throws {
        let folder = try folder()
        let spec = try loadSpec(Self.spec, file: folder.path("spec.json"))
        var run = RunOptions(input: folder.path("data.csv"), output: nil, jobs: 1)
        run.reportPaths[.json] = folder.path("part.json")
        _ = try Runner.run(spec, run)
        var merge = MergeOptions(reports: [folder.path("part.json")])
        merge.reportPaths[format] = folder.path("merged.\(format)")
        let merged = try ReportMerger.merge(spec, merge)
        let text = try folder.text("merged.\(format)")
        #expect(!text.isEmpty)
        #expect(text == format.render(merged))
    }

    @Test(
        "every format on - is on standard output, for run, check and merge; on a file it is not",
        arguments: ReportFormat.allCases)
    func standardOutputRule(format: ReportFormat) throws {
        let folder = try folder()
        for output in [nil, folder.path("clean.csv")] {
            var options = RunOptions(input: folder.path("data.csv"), output: output, jobs: 1)
            #expect(!options.writesStandardOutput)
            options.reportPaths[format] = folder.path("report")
            #expect(!options.writesStandardOutput, "\(format) to a file")
            options.reportPaths[format] = "-"
            #expect(options.writesStandardOutput, "\(format) on -")
            options.reportPaths[format] = "/dev/stdout"
            #expect(options.writesStandardOutput, "\(format) on /dev/stdout")
        }
        var merge = MergeOptions(reports: ["a.json"])
        #expect(!merge.writesStandardOutput)
        merge.reportPaths[format] = folder.path("report")
        #expect(!merge.writesStandardOutput)
        merge.reportPaths[format] = "-"
        #expect(merge.writesStandardOutput)
    }

    @Test(
        "every format is checked against the records, the input and each other format, by role",
        arguments: ReportFormat.allCases)
    func pathsCheckedByRole(format: ReportFormat) throws {
        let folder = try folder()
        let spec = folder.path("spec.json")
        var options = RunOptions(input: folder.path("data.csv"), output: "-", jobs: 1)
        options.reportPaths[format] = "-"
        #expect(
            throws: MaskCleanError.usage("\(OutputRole.report(format)) and \(OutputRole.records) both name -")
        ) {
            try Outputs.checkPaths(options, spec: spec)
        }
        options.reportPaths[format] = folder.path("data.csv")
        #expect(
            throws: MaskCleanError.usage(
                "\(OutputRole.report(format)) \(folder.path("data.csv")) is the input file: writing it would destroy the input"
            )
        ) {
            try Outputs.checkPaths(options, spec: spec)
        }
        for other in ReportFormat.allCases where other != format {
            var both = RunOptions(input: folder.path("data.csv"), output: nil, jobs: 1)
            both.reportPaths = [format: folder.path("r"), other: folder.path("r")]
            let error = #expect(throws: MaskCleanError.self) { try Outputs.checkPaths(both, spec: spec) }
            #expect(
                error?.message.hasSuffix("both name \(folder.path("r"))") == true, "\(error?.message ?? "")")
        }
    }

    @Test("each format has a role of its own, which messages name it by unless the caller names it otherwise")
    func roles() {
        let roles = ReportFormat.allCases.map(\.role)
        #expect(Set(roles).count == roles.count)
        #expect(OutputRole.report(.json).description == "the report")
        #expect(OutputRole.report(.html).description == "the HTML report")
        #expect(OutputRole.records.description == "the records output")
        let error = MaskCleanError.usage("\(OutputRole.report(.html)) and \(OutputRole.records) both name -")
        #expect(error.message == "the HTML report and the records output both name -")
        #expect(error.message(naming: { $0 == .records ? "-o" : "--html" }) == "--html and -o both name -")
        #expect(MaskCleanError.usage("plain \(3) words") == .usage("plain 3 words"))
    }
}
