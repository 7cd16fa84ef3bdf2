import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Several inputs in one run (docs/command-line.md#many-inputs): each read as its own input, with
/// its own format, compression and delimiter, into an output of its own; a report per input and a
/// total that is exactly what `merge` of those reports gives; one bad file fails the run after
/// the others are written.
@Suite("Many inputs in one run")
struct ManyInputsTests {
    static let spec =
        #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"]}]}"#

    /// A nightly drop: two CSV partitions (one with semicolons), one gzipped, one NDJSON, and
    /// files that are not records.
    static func drop(in folder: TemporaryFolder) throws -> String {
        _ = try folder.write("drop/part-02.csv", "id,phone\n3,5551234567\n4,555-0101\n5,555\n")
        _ = try folder.write("drop/part-01.csv", "id;phone\n1;(555) 987-6543\n2;\n")
        let packed = Array("id,phone\n6,5550001111\n".utf8).withUnsafeBytes {
            Compressor(.gzip).compressed($0)
        }
        _ = try folder.write("drop/part-03.csv.gz", packed)
        _ = try folder.write("drop/part-04.ndjson", "{\"id\":7,\"phone\":\"555-123-4567\"}\n")
        _ = try folder.write("drop/README.txt", "not records\n")
        _ = try folder.write("drop/.part-00.csv", "id,phone\nhidden,1\n")
        return folder.path("drop")
    }

    @Test("a directory stands for its record files, sorted by name; files stand for themselves")
    func expand() throws {
        let folder = try TemporaryFolder()
        let drop = try Self.drop(in: folder)
        #expect(
            try ManyInputs.expand([drop]) == [
                "\(drop)/part-01.csv", "\(drop)/part-02.csv", "\(drop)/part-03.csv.gz",
                "\(drop)/part-04.ndjson",
            ])
        #expect(try ManyInputs.expand(["\(drop)/part-02.csv", drop + "/"]).first == "\(drop)/part-02.csv")
        // The spec kept beside the exports is no input.
        _ = try folder.write("drop/spec.json", Self.spec)
        #expect(try ManyInputs.expand([drop], leavingOut: [folder.path("drop/spec.json")]).count == 4)
        #expect(try ManyInputs.expand([drop]).contains("\(drop)/spec.json"))
        _ = try folder.write("empty/notes.txt", "x")
        #expect(throws: MaskCleanError.self) { try ManyInputs.expand([folder.path("empty")]) }
        #expect(
            ManyInputs.outputName(of: "a/b/part-03.csv.gz", format: nil, compression: nil) == "part-03.csv")
        #expect(
            ManyInputs.outputName(of: "part-01.csv", format: .ndjson, compression: .zstd)
                == "part-01.ndjson.zst")
        #expect(
            ManyInputs.outputName(of: "part-04.ndjson", format: .ndjson, compression: nil) == "part-04.ndjson"
        )
    }

    @Test("each input gives the output and report a run of it alone gives; the total is their merge")
    func eachAsAlone() throws {
        let folder = try TemporaryFolder()
        let drop = try Self.drop(in: folder)
        let spec = try loadSpec(Self.spec, file: folder.path("spec.json"))
        let inputs = try ManyInputs.expand([drop])
        var options = RunOptions(input: drop, output: nil, jobs: 2)
        options.chunkSize = 16
        options.reportPaths[.junit] = folder.path("total.xml")
        let outcome = try Runner.run(
            spec, options,
            each: ManyInputs(
                inputs: inputs, outputDirectory: folder.path("clean"), reportDirectory: folder.path("reports")
            ))
        #expect(outcome.files.map(\.input) == inputs)
        #expect(outcome.total.rows == 7)
        #expect(outcome.total.partitions.map(\.part) == inputs)
        #expect(try folder.text("total.xml").contains("<testsuite"))
        for input in inputs {
            // Alone, with the same partition name.
            let name = ManyInputs.outputName(of: input, format: nil, compression: nil)
            var alone = RunOptions(
                input: input, output: folder.path("alone-\(name)"), report: folder.path("alone-\(name).json"),
                jobs: 1)
            alone.part = input
            _ = try Runner.run(spec, alone)
            #expect(try folder.read("clean/\(name)") == folder.read("alone-\(name)"), "\(name)")
            #expect(
                untimed(try folder.text("reports/\(name).json"))
                    == untimed(try folder.text("alone-\(name).json")),
                "\(name)")
        }
        #expect(
            try folder.text("clean/part-01.csv").hasPrefix("id;phone;phone_formatted"), "its own delimiter")
        // The total is what merge makes of the reports written, but for when and how long.
        let merged = try ReportMerger.merge(
            spec,
            MergeOptions(
                reports: inputs.map {
                    folder.path(
                        "reports/\(ManyInputs.outputName(of: $0, format: nil, compression: nil)).json")
                }))
        var total = try ReportReader.load(path: folder.path("reports/total.json"), spec: spec)
        total.origin = merged.origin
        total.input = merged.input
        #expect(untimed(total.json) == untimed(merged.json))
        #expect(outcome.total.columns[0].stats.complete == merged.columns[0].stats.complete)
    }

    @Test("one malformed input fails the run naming it, after the others' outputs and reports are written")
    func oneBad() throws {
        let folder = try TemporaryFolder()
        let drop = try Self.drop(in: folder)
        _ = try folder.write("drop/part-02.csv", "id,phone\n3,\"5551234567\n")
        let spec = try loadSpec(Self.spec)
        var stopped: Report?
        do throws(MaskCleanError) {
            _ = try Runner.run(
                spec, RunOptions(input: drop, output: nil, jobs: 1),
                each: ManyInputs(
                    inputs: try ManyInputs.expand([drop]), outputDirectory: folder.path("clean"),
                    reportDirectory: folder.path("reports"))
            ) { stopped = $0 }
            Issue.record("the run passed")
        } catch {
            #expect(error.message == "\(drop)/part-02.csv:2: unterminated quoted field")
        }
        #expect(folder.files(in: "clean") == ["part-01.csv", "part-03.csv", "part-04.ndjson"])
        #expect(try folder.text("reports/part-02.csv.json").contains("\"status\": 65"))
        #expect(try folder.text("reports/total.json").contains("unterminated quoted field"))
        #expect(stopped?.error?.status == 65)
    }

    @Test("one file named twice, or by two names, is refused: its records would be counted twice")
    func namedTwice() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("part.csv", "id,phone\n1,5551234567\n")
        let spec = try loadSpec(Self.spec)
        for (inputs, message) in [
            ([path, path], "\(path) is named twice: its records would be counted twice"),
            (
                [path, folder.path("./part.csv")],
                "\(path) and \(folder.path("./part.csv")) are the same file: its records would be counted twice"
            ),
        ] {
            do throws(MaskCleanError) {
                _ = try Runner.run(
                    spec, RunOptions(input: "", output: nil, jobs: 1), each: ManyInputs(inputs: inputs))
                Issue.record("\(inputs) ran")
            } catch {
                #expect(error == .usage(UsageMessage(message)))
            }
        }
    }

    @Test("two inputs whose outputs would have one name are refused before any is read")
    func clash() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("a/part.csv", "id,phone\n1,5551234567\n")
        _ = try folder.write("b/part.csv", "id,phone\n2,5551234567\n")
        let spec = try loadSpec(Self.spec)
        do throws(MaskCleanError) {
            _ = try Runner.run(
                spec, RunOptions(input: "", output: nil, jobs: 1),
                each: ManyInputs(
                    inputs: [folder.path("a/part.csv"), folder.path("b/part.csv")],
                    outputDirectory: folder.path("clean")))
            Issue.record("the run passed")
        } catch {
            #expect(error.status == .usage, "\(error.message)")
        }
        #expect(folder.files(in: "clean").isEmpty)
    }
}
