import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// The files a run writes are checked before any work against the input, the spec and each
/// other, by the file they name, not by how it is spelt; then written through temporaries, and
/// committed together or discarded together (docs/exit-status.md).
@Suite("Outputs")
struct OutputsTests {
    /// A folder holding an input and a spec, as a run finds them.
    func folderWithInputs() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", "id,phone\n1,5551234567\n")
        try folder.write("spec.json", #"{"columns": [{"name": "phone", "format": "[000]"}]}"#)
        return folder
    }

    func options(
        _ folder: TemporaryFolder, output: String?, report: String? = nil, quarantine: String? = nil,
        policy: ErrorPolicy = .fail
    ) -> RunOptions {
        var options = RunOptions(input: folder.path("data.csv"), output: output, report: report, jobs: 1)
        options.quarantine = quarantine
        options.policy = policy
        return options
    }

    /// The usage error `checkPaths` gives, its outputs named by the command line's flags, or
    /// nil when the paths are fine.
    func pathError(_ options: RunOptions, spec: String) -> String? {
        do {
            try Outputs.checkPaths(options, spec: spec)
            return nil
        } catch {
            #expect(error.status == .usage, "\(error.message)")
            return error.message(naming: Self.flag)
        }
    }

    /// The flags the executable names the outputs by (Sources/maskclean/OutputFlags.swift).
    static func flag(_ role: OutputRole) -> String {
        switch role {
        case .records, .proposedSpec: "-o"
        case .quarantine: "--quarantine"
        case .report(.json): "--report"
        case .report(let format): "--" + format.rawValue
        case .stepSummary: "GITHUB_STEP_SUMMARY"
        }
    }

    // MARK: Checking the paths

    @Test("an output that is the input, however it is named, is refused")
    func outputIsInput() throws {
        let folder = try folderWithInputs()
        let spec = folder.path("spec.json")
        let input = folder.path("data.csv")
        try FileManager.default.linkItem(atPath: input, toPath: folder.path("hard.csv"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("soft.csv"), withDestinationPath: "data.csv")
        for name in [input, folder.path("./data.csv"), folder.path("hard.csv"), folder.path("soft.csv")] {
            #expect(
                pathError(options(folder, output: name), spec: spec)
                    == "-o \(name) is the input file: writing it would destroy the input")
            #expect(
                pathError(options(folder, output: "-", report: name), spec: spec)
                    == "--report \(name) is the input file: writing it would destroy the input")
            #expect(
                pathError(options(folder, output: nil, quarantine: name, policy: .quarantine), spec: spec)
                    == "--quarantine \(name) is the input file: writing it would destroy the input")
        }
    }

    @Test("an output that is the spec, however it is named, is refused")
    func outputIsSpec() throws {
        let folder = try folderWithInputs()
        let spec = folder.path("spec.json")
        try FileManager.default.linkItem(atPath: spec, toPath: folder.path("hard.json"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("soft.json"), withDestinationPath: spec)
        for name in [spec, folder.path("./spec.json"), folder.path("hard.json"), folder.path("soft.json")] {
            #expect(
                pathError(options(folder, output: "clean.csv", report: name), spec: spec)
                    == "--report \(name) is the spec file: writing it would destroy the spec")
        }
        // Standard input is no file to protect: `-o -` with the input on stdin is fine.
        var piped = options(folder, output: "-")
        piped.input = "-"
        #expect(pathError(piped, spec: spec) == nil)
    }

    @Test("two outputs naming one file are refused, by name or by the file")
    func twoOutputsOneFile() throws {
        let folder = try folderWithInputs()
        let spec = folder.path("spec.json")
        let clean = folder.path("clean.csv")
        #expect(
            pathError(options(folder, output: clean, report: clean), spec: spec)
                == "--report and -o both name \(clean)")
        // Not there yet: the same path, spelt another way.
        let dotted = folder.path("./clean.csv")
        #expect(
            pathError(options(folder, output: clean, report: dotted), spec: spec)
                == "--report \(dotted) and -o \(clean) are the same file")
        // Through a linked folder (/tmp and /private/tmp on macOS).
        try FileManager.default.createDirectory(
            atPath: folder.path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.path("alias"), withDestinationPath: "real")
        #expect(
            pathError(
                options(
                    folder, output: folder.path("real/clean.csv"), report: folder.path("alias/clean.csv")),
                spec: spec)
                == "--report \(folder.path("alias/clean.csv")) and -o \(folder.path("real/clean.csv")) are the same file"
        )
        // A dangling link to a file the run will create is that file.
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("link.json"), withDestinationPath: "clean.csv")
        #expect(
            pathError(options(folder, output: clean, quarantine: folder.path("link.json")), spec: spec)
                == "--quarantine \(folder.path("link.json")) and -o \(clean) are the same file")
        // There already: a hard link.
        try folder.write("old.csv", "id\n")
        try FileManager.default.linkItem(atPath: folder.path("old.csv"), toPath: folder.path("older.csv"))
        #expect(
            pathError(
                options(folder, output: folder.path("old.csv"), report: folder.path("older.csv")), spec: spec)
                == "--report \(folder.path("older.csv")) and -o \(folder.path("old.csv")) are the same file")
        // Three different files are fine.
        #expect(
            pathError(
                options(
                    folder, output: clean, report: folder.path("report.json"),
                    quarantine: folder.path("bad.csv")),
                spec: spec) == nil)
    }

    @Test("standard output takes one output; /dev/null takes any number")
    func standardOutputAndDevices() throws {
        let folder = try folderWithInputs()
        let spec = folder.path("spec.json")
        #expect(
            pathError(options(folder, output: "-", report: "-"), spec: spec) == "--report and -o both name -")
        #expect(
            pathError(options(folder, output: nil, report: "-", quarantine: "-"), spec: spec)
                == "--quarantine and --report both name -")
        #expect(pathError(options(folder, output: "/dev/null", report: "/dev/null"), spec: spec) == nil)
        #expect(
            pathError(
                options(folder, output: "/dev/null", report: "/dev/null", quarantine: "/dev/null"), spec: spec
            )
                == nil)
        #expect(
            pathError(options(folder, output: "-", report: folder.path("report.json")), spec: spec) == nil)
    }

    @Test("an empty file name is refused, for each output")
    func emptyName() throws {
        let folder = try folderWithInputs()
        let spec = folder.path("spec.json")
        #expect(
            pathError(options(folder, output: ""), spec: spec)
                == "-o needs a file name (or - for standard output)")
        #expect(
            pathError(options(folder, output: "-", report: ""), spec: spec)
                == "--report needs a file name (or - for standard output)")
        #expect(
            pathError(options(folder, output: "-", quarantine: ""), spec: spec)
                == "--quarantine needs a file name (or - for standard output)")
    }

    // MARK: Writing, committing, discarding

    /// A folder where `clean.csv` already holds last night's records.
    func folderWithOldOutput() throws -> TemporaryFolder {
        let folder = try folderWithInputs()
        try folder.write("clean.csv", "id,phone\n0,old\n")
        return folder
    }

    func quarantineOptions(_ folder: TemporaryFolder) -> RunOptions {
        options(
            folder, output: folder.path("clean.csv"), report: folder.path("report.json"),
            quarantine: folder.path("bad.csv"), policy: .quarantine)
    }

    @Test("until committed, outputs are temporaries beside their targets, which are left as they were")
    func temporariesUntilCommit() throws {
        let folder = try folderWithOldOutput()
        let outputs = try Outputs(quarantineOptions(folder))
        try outputs.writeRecords(Array("id,phone\n1,555\n".utf8))
        let temporaries = folder.files.filter { $0.hasSuffix(".tmp") }
        #expect(temporaries.count == 3, "\(folder.files)")
        #expect(temporaries.allSatisfy { $0.hasPrefix(".") && $0.contains(".maskclean-") })
        #expect(try folder.text("clean.csv") == "id,phone\n0,old\n")
        outputs.discard()
    }

    @Test("commit puts every output in place, with what was written, and leaves no temporary")
    func commit() throws {
        let folder = try folderWithOldOutput()
        let outputs = try Outputs(quarantineOptions(folder))
        #expect(outputs.writesRecords)
        try outputs.writeRecords(Array("id,phone\n".utf8))
        try Array("1,555\n".utf8).withUnsafeBytes { try outputs.writeRecords($0) }
        try Array("2,\"5\"5\n".utf8).withUnsafeBytes { try outputs.writeQuarantine($0) }
        try outputs.commit(rendered: [.json: "{\"rows\": 2}\n"])
        #expect(folder.files == ["bad.csv", "clean.csv", "data.csv", "report.json", "spec.json"])
        #expect(try folder.text("clean.csv") == "id,phone\n1,555\n")
        #expect(try folder.text("bad.csv") == "2,\"5\"5\n")
        #expect(try folder.text("report.json") == "{\"rows\": 2}\n")
    }

    @Test("discard leaves every target as it was: an old file kept, no new file made")
    func discard() throws {
        let folder = try folderWithOldOutput()
        let outputs = try Outputs(quarantineOptions(folder))
        try outputs.writeRecords(Array("id,phone\n1,555\n".utf8))
        try Array("2,x\n".utf8).withUnsafeBytes { try outputs.writeQuarantine($0) }
        outputs.discard()
        #expect(folder.files == ["clean.csv", "data.csv", "spec.json"])
        #expect(try folder.text("clean.csv") == "id,phone\n0,old\n")
    }

    @Test("a quarantine file is made only under --quarantine; check writes no records")
    func whatIsOpened() throws {
        let folder = try folderWithInputs()
        var skipping = quarantineOptions(folder)
        skipping.policy = .skip
        let outputs = try Outputs(skipping)
        try Array("2,x\n".utf8).withUnsafeBytes { try outputs.writeQuarantine($0) }
        try outputs.commit(rendered: [.json: "{}\n"])
        #expect(folder.files == ["clean.csv", "data.csv", "report.json", "spec.json"])
        let check = try Outputs(options(folder, output: nil, report: folder.path("check.json")))
        #expect(!check.writesRecords)
        try check.writeRecords(Array("ignored\n".utf8))
        try check.commit(rendered: [.json: "{}\n"])
        #expect(folder.files == ["check.json", "clean.csv", "data.csv", "report.json", "spec.json"])
    }

    @Test("an output that cannot be created fails at once, and the ones opened before it are discarded")
    func cannotCreate() throws {
        let folder = try folderWithOldOutput()
        let missing = folder.path("missing/report.json")
        #expect(throws: MaskCleanError.cannotCreate(missing, "no such file or directory")) {
            try Outputs(options(folder, output: folder.path("clean.csv"), report: missing))
        }
        #expect(folder.files == ["clean.csv", "data.csv", "spec.json"], "no temporary left behind")
        #expect(try folder.text("clean.csv") == "id,phone\n0,old\n")
    }
}
