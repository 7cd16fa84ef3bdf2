import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// What Runner itself decides (docs/command-line.md#formats): the input format from the
/// extension, the output's delimiter, the byte-order mark carried to a CSV output, and that a
/// failed run commits nothing. How records cross chunks is PipelineTests'.
@Suite("Runner")
struct RunnerTests {
    static let spec = #"{"columns": [{"name": "phone", "format": "([000]) [000]-[0000]"}]}"#

    func options(
        _ folder: TemporaryFolder, input: String, output: String = "out", inputFormat: RecordFormat? = nil,
        outputFormat: RecordFormat? = nil, delimiter: UInt8? = nil
    ) -> RunOptions {
        var options = RunOptions(input: folder.path(input), output: folder.path(output), jobs: 1)
        options.inputFormat = inputFormat
        options.outputFormat = outputFormat
        options.delimiter = delimiter
        return options
    }

    @Test("the input format follows the extension, in any case; otherwise --input-format is asked for")
    func formatOfPath() throws {
        #expect(try Runner.format(of: "export.csv") == .csv)
        #expect(try Runner.format(of: "dir.v2/EXPORT.TAB") == .tsv)
        #expect(try Runner.format(of: "export.jsonl") == .ndjson)
        #expect(try Runner.format(of: "export.json") == .json)
        #expect(
            throws: MaskCleanError.usage(
                "cannot tell the format of export.txt from its extension; use \(Setting.inputFormat) csv|tsv|json|ndjson"
            )
        ) {
            try Runner.format(of: "export.txt")
        }
        #expect(
            throws: MaskCleanError.usage(
                "cannot tell the format of standard input; use \(Setting.inputFormat) csv|tsv|json|ndjson")
        ) {
            try Runner.format(of: "-")
        }
    }

    @Test("--input-format reads a file whatever its extension")
    func inputFormatGiven() throws {
        let folder = try TemporaryFolder()
        try folder.write("export.txt", "{\"phone\": \"5551234567\"}\n")
        let report = try Runner.run(
            loadSpec(Self.spec),
            options(folder, input: "export.txt", output: "out.ndjson", inputFormat: .ndjson))
        #expect(report.rows == 1)
        #expect(try folder.text("out.ndjson").hasPrefix("{\"phone\": \"5551234567\","))
    }

    @Test("the output keeps --delimiter while the format stays, and takes its own default otherwise")
    func outputDelimiter() throws {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", "id;phone\n1;5551234567\n")
        let semicolon = UInt8(ascii: ";")
        _ = try Runner.run(
            loadSpec(Self.spec), options(folder, input: "data.csv", output: "same.csv", delimiter: semicolon))
        #expect(
            try folder.text("same.csv")
                == "id;phone;phone_formatted;phone_extracted;phone_status\n1;5551234567;(555) 123-4567;5551234567;complete\n"
        )
        _ = try Runner.run(
            loadSpec(Self.spec),
            options(folder, input: "data.csv", output: "out.tsv", outputFormat: .tsv, delimiter: semicolon))
        #expect(try folder.text("out.tsv").hasPrefix("id\tphone\tphone_formatted\t"))
        try folder.write("data.tsv", "id|phone\n1|5551234567\n")
        _ = try Runner.run(
            loadSpec(Self.spec),
            options(
                folder, input: "data.tsv", output: "out.csv", outputFormat: .csv, delimiter: UInt8(ascii: "|")
            ))
        #expect(try folder.text("out.csv").hasPrefix("id,phone,phone_formatted,"))
    }

    @Test("a CSV input's byte-order mark goes to a CSV output, not to JSON")
    func byteOrderMark() throws {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", [0xEF, 0xBB, 0xBF] + Array("id,phone\r\n1,5551234567\r\n".utf8))
        _ = try Runner.run(loadSpec(Self.spec), options(folder, input: "data.csv", output: "out.csv"))
        let csv = try folder.read("out.csv")
        #expect(csv.starts(with: [0xEF, 0xBB, 0xBF] + Array("id,phone,".utf8)))
        #expect(
            String(decoding: csv, as: UTF8.self).hasSuffix(",complete\r\n"), "records end as the header did")
        _ = try Runner.run(
            loadSpec(Self.spec), options(folder, input: "data.csv", output: "out.json", outputFormat: .json))
        let json = try folder.read("out.json")
        #expect(json.first == UInt8(ascii: "["))
        let records = try JSONSerialization.jsonObject(with: Data(json)) as? [[String: String]]
        #expect(records?.first?["id"] == "1", "the first key is id, not a mark and id")
    }

    @Test("a run that fails after its outputs are open commits no records, only its report saying why")
    func failedRunCommitsNothing() throws {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", "id,Phone\n1,5551234567\n")
        try folder.write("out.csv", "last night's records\n")
        var options = options(folder, input: "data.csv", output: "out.csv")
        options.reportPaths[.json] = folder.path("report.json")
        // The header is read after the outputs are open: the spec fails against it.
        var stopped: Report?
        let error = #expect(throws: MaskCleanError.self) {
            try Runner.run(loadSpec(Self.spec), options) { stopped = $0 }
        }
        #expect(error?.status == .config)
        #expect(error?.message.hasSuffix("did you mean \"Phone\"?") == true)
        #expect(folder.files == ["data.csv", "out.csv", "report.json"])
        // The report the caller is told of is the one written: the error, no records counted.
        #expect(stopped?.error == error.map { RunError($0) })
        #expect(try folder.text("report.json") == stopped?.json)
        #expect(try folder.text("out.csv") == "last night's records\n")
    }
}
