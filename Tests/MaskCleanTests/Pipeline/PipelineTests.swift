import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// The whole pipeline in-process, with tiny chunks: every bad record must be named by the line it
/// begins on, quarantined byte for byte and counted, however the input is cut and however many
/// workers run.
@Suite("Pipeline: bad records across chunks")
struct PipelineTests {
    static let spec = #"""
        {"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"]}]}
        """#

    static let chunkSizes = [1, 7, 64, 1 << 20]

    /// An input built record by record, knowing the line each begins on.
    struct Input {
        var bytes: [UInt8]
        var line: Int
        var good: [[UInt8]] = []
        var bad: [(line: Int, reason: String, bytes: [UInt8])] = []
        var records = 0

        init(header: String) {
            bytes = Array(header.utf8)
            line = 1 + bytes.count { $0 == 0x0A }
        }

        mutating func add(_ record: [UInt8], bad reason: String? = nil) {
            if let reason {
                bad.append((line, reason, record))
            } else {
                good.append(record)
            }
            records += 1
            bytes += record
            line += record.count { $0 == 0x0A }
        }

        mutating func add(_ record: String, bad reason: String? = nil) {
            add(Array(record.utf8), bad: reason)
        }

        var quarantine: [UInt8] { bad.flatMap(\.bytes) }
    }

    /// A quoted field with text after its closing quote: malformed, where a quote inside an
    /// unquoted field is data.
    static let afterClosingQuote =
        "unexpected character after a closing quote (a quote inside a quoted field must be doubled)"
    static let afterQuote =
        "unexpected character after a closing quote (a quote inside a quoted field must be doubled)"

    /// A CSV export with every kind of bad record among good ones with quoted line breaks.
    static func csvInput(unterminatedAtEnd: Bool) -> Input {
        var input = Input(header: "id,phone,note\n")
        for row in 1...60 {
            switch row % 12 {
            case 1: input.add("\(row),5551234567,\"multi\nline, \"\"quoted\"\"\"\n")
            case 2: input.add("\(row),\"55\"5,x\n", bad: afterClosingQuote)
            case 3: input.add("\(row),\" (555) 123-4567 \",plain\n")
            case 4: input.add("\(row),\"555\"1,y\n", bad: afterQuote)
            case 5: input.add("\(row),555\n", bad: "expected 3 fields as in the header, found 2")
            case 6:
                input.add("\(row),\"555\n1234\",a,b\n", bad: "expected 3 fields as in the header, found 4")
            case 7:
                input.add(
                    [UInt8]("\(row),555".utf8) + [0xFF] + Array("1234,x\n".utf8),
                    bad: "invalid UTF-8 in column \"phone\"")
            case 8:
                input.add(
                    [UInt8]("\(row),555".utf8) + [0x00] + Array("1234,x\n".utf8), bad: "NUL byte in the data")
            case 9:
                // Invalid UTF-8 in a cell that is not masked: kept byte for byte.
                input.add([UInt8]("\(row),555-1234,caf".utf8) + [0xE9] + Array("\n".utf8))
            case 10: input.add("\(row),,\"\n\"\n")
            case 11: input.add("\(row),555123456789,\"a\r\nb\"\r\n")
            default: input.add("\(row),12,\"\"\n")
            }
        }
        if unterminatedAtEnd {
            input.add("61,\"555,x\n62,5551234567,y\n", bad: "unterminated quoted field")
        }
        return input
    }

    /// Runs `input` as `data.csv` under `--quarantine`: into `clean.csv`, `bad.csv` and
    /// `report.json` of the folder returned.
    static func quarantineRun(_ input: Input, jobs: Int, chunkSize: Int) throws -> (Report, TemporaryFolder) {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", input.bytes)
        let outcome = try runPipeline(
            spec: spec, input: "data.csv", in: folder, output: "clean.csv", report: "report.json",
            policy: .quarantine, quarantine: "bad.csv", jobs: jobs, chunkSize: chunkSize)
        return (try #require(outcome.report, "\(outcome.error?.message ?? "")"), folder)
    }

    // MARK: Failing

    @Test("CSV: the first bad record stops the run, named by the line it begins on", arguments: chunkSizes)
    func csvFails(chunkSize: Int) throws {
        let full = Self.csvInput(unterminatedAtEnd: true)
        for bad in full.bad {
            // A good record over two lines, the bad one, and a good one after it.
            var input = Input(header: "id,phone,note\n")
            input.add("1,5551234567,\"a\nb\"\n")
            input.add(bad.bytes, bad: bad.reason)
            if bad.reason != "unterminated quoted field" { input.add("3,5551234567,ok\n") }
            let folder = try TemporaryFolder()
            try folder.write("data.csv", input.bytes)
            let outcome = try runPipeline(
                spec: Self.spec, input: "data.csv", in: folder, output: "clean.csv", report: "report.json",
                chunkSize: chunkSize)
            #expect(input.bad[0].line == 4)
            // Text that is not UTF-8 stops the run saying which encoding would read it.
            let hint =
                bad.reason.hasPrefix("invalid UTF-8")
                ? " (looks like Windows-1252 or ISO-8859-1: try the input's encoding windows-1252)" : ""
            let expected = "\(folder.path("data.csv")):4: \(bad.reason)\(hint)"
            #expect(outcome.error?.message == expected, "chunk size \(chunkSize)")
            #expect(outcome.error?.status == .dataError)
            // No records are left, only the report, which says what stopped the run and counts
            // the one record before it, whatever the chunks (docs/report.md#a-run-that-stopped).
            #expect(folder.files == ["data.csv", "report.json"], "a failed run leaves its report only")
            let report = try folder.text("report.json")
            let error =
                try #require(
                    JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])["error"]
                as? [String: Any]
            #expect(error?["message"] as? String == expected)
            #expect(error?["status"] as? Int == 65 && error?["line"] as? Int == 4)
            #expect(report.hasPrefix("{\n  \"rows\": 1,\n  \"passed\": false,"), "chunk size \(chunkSize)")
            #expect(report.contains(#""complete": 1,"#))
        }
    }

    @Test("CSV: a bad record deep in a long file is named by its own line", arguments: chunkSizes)
    func csvFailsDeep(chunkSize: Int) throws {
        var input = Input(header: "id,phone,note\n")
        for row in 1...200 { input.add("\(row),5551234567,\"line \(row)\nand more\"\n") }
        input.add("201,\"555\"1,x\n", bad: Self.afterClosingQuote)
        for row in 202...220 { input.add("\(row),5551234567,x\n") }
        let folder = try TemporaryFolder()
        try folder.write("data.csv", input.bytes)
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.csv", in: folder, output: "clean.csv", jobs: 3, chunkSize: chunkSize
        )
        #expect(outcome.error?.message == "\(folder.path("data.csv")):402: \(Self.afterClosingQuote)")
        #expect(folder.files == ["data.csv"])
    }

    // MARK: Keeping going

    @Test(
        "CSV quarantine: bad records byte for byte, lines and reasons reported, counts balance",
        arguments: chunkSizes, [1, 3])
    func csvQuarantine(chunkSize: Int, jobs: Int) throws {
        let input = Self.csvInput(unterminatedAtEnd: true)
        let (report, folder) = try Self.quarantineRun(input, jobs: jobs, chunkSize: chunkSize)
        #expect(try folder.read("bad.csv") == input.quarantine)
        #expect(report.rows == input.records)
        #expect(report.rejectedCount == input.bad.count)
        // Ten samples are kept: the first ten bad records, in input order.
        #expect(report.rejected.map(\.line) == input.bad.prefix(10).map(\.line))
        #expect(report.rejected.map(\.reason) == input.bad.prefix(10).map(\.reason))
        let written = report.columns[0].stats.cells
        #expect(written == input.good.count)
        #expect(report.rows == written + report.rejectedCount)
        // The output holds the good records, as they were, each with its added cells.
        let output = try folder.read("clean.csv")
        let outputText = String(decoding: output, as: UTF8.self)
        #expect(outputText.hasPrefix("id,phone,note,phone_formatted,phone_extracted,phone_status\n"))
        var searchFrom = output.startIndex
        for record in input.good {
            // Each good record's cells start a record of the output, in order.
            let start = record.prefix { $0 != UInt8(ascii: ",") }
            guard let found = output[searchFrom...].firstRange(of: [0x0A] + start + [UInt8(ascii: ",")])
            else {
                Issue.record("record \(String(decoding: start, as: UTF8.self)) is missing or out of order")
                break
            }
            searchFrom = found.upperBound
        }
        #expect(output.contains(0xE9), "an unmasked cell with invalid UTF-8 is kept byte for byte")
        // Every chunk size and job count gives the same bytes.
        let reference = try TemporaryFolder()
        try reference.write("data.csv", input.bytes)
        _ = try runPipeline(
            spec: Self.spec, input: "data.csv", in: reference, output: "clean.csv", report: "report.json",
            policy: .quarantine, quarantine: "bad.csv")
        #expect(output == (try reference.read("clean.csv")))
        #expect(countsOnly(try folder.text("report.json")) == countsOnly(try reference.text("report.json")))
    }

    @Test(
        "CSV with bare CR record ends: each record counted, and a bad one taken out alone",
        arguments: chunkSizes, [1, 2])
    func csvBareCarriageReturns(chunkSize: Int, jobs: Int) throws {
        // libcsv ends a record at a CR, as an old Mac export does; lines are still counted by LF.
        var input = Input(header: "id,phone,note\n")
        input.add("1,5551234567,a\r")
        input.add("2,555\r", bad: "expected 3 fields as in the header, found 2")
        input.add("3,555,b,c\r", bad: "expected 3 fields as in the header, found 4")
        input.add("4,5551234,x\n")
        input.add("5,\"555\r1234\",y\r\n")
        input.add(
            [UInt8]("6,555".utf8) + [0xFF] + Array("1234,x\r".utf8), bad: "invalid UTF-8 in column \"phone\"")
        // A parse error ends where the reader cuts records: at the bare CR, so record 8 after it
        // on the same line is read (it used to go with the bad one, to the line feed).
        input.add("7,\"55\"5,x\r", bad: Self.afterClosingQuote)
        input.add("8,5551234567,y\n")
        input.add("9,5551234567,z")
        let (report, folder) = try Self.quarantineRun(input, jobs: jobs, chunkSize: chunkSize)
        #expect(report.rows == input.records)
        #expect(report.rejected.map(\.line) == input.bad.map(\.line))
        #expect(report.rejected.map(\.reason) == input.bad.map(\.reason))
        #expect(report.columns[0].stats.cells == input.good.count)
        #expect(try folder.read("bad.csv") == input.quarantine)
        let records = try folder.text("clean.csv").split(separator: "\n").map { $0.prefix { $0 != "," } }
        #expect(records == ["id", "1", "4", "5", "8", "9"])
    }

    /// Regression: the per-record search for a line feed made a bare-CR file quadratic; the
    /// output must not depend on how it is cut or on how many workers cut it.
    @Test("a bare-CR export gives the same bytes at every chunk size and job count")
    func bareCRExportAnyChunks() throws {
        var text = "id,phone,note\r"
        for row in 1...500 {
            switch row % 5 {
            case 0: text += "\(row),\"555\r1234\",\"a, \"\"quoted\"\" note\"\r"
            case 1: text += "\(row),(555) 123-4567,plain\r"
            case 2: text += "\(row),555,short\r"
            case 3: text += "\(row),,empty phone\r"
            default: text += "\(row),5551234567,\"multi\rline\"\r"
            }
        }
        let folder = try TemporaryFolder()
        try folder.write("data.csv", text)
        var outputs: Set<[UInt8]> = []
        for chunkSize in [7, 100, 4096, 1 << 20] {
            for jobs in [1, 2, 7] {
                let name = "clean-\(chunkSize)-\(jobs).csv"
                let outcome = try runPipeline(
                    spec: Self.spec, input: "data.csv", in: folder, output: name, jobs: jobs,
                    chunkSize: chunkSize)
                #expect(outcome.report?.rows == 500, "\(chunkSize), \(jobs): \(outcome.error?.message ?? "")")
                outputs.insert(try folder.read(name))
            }
        }
        #expect(outputs.count == 1)
        #expect(String(decoding: outputs.first ?? [], as: UTF8.self).split(separator: "\n").count == 501)
    }

    /// Lines of every shape a plain-line split must read as libcsv does.
    static func mixedLines(delimiter: String) -> [UInt8] {
        let d = delimiter
        var bytes = Array("id\(d)phone\(d)note\n".utf8)
        for row in 1...200 {
            let line: String
            switch row % 16 {
            case 0: line = "\(row)\(d)5551234567\(d)plain\n"
            case 1: line = "\(row)\(d)(555) 123-4567\(d)\"quoted\(d) with delimiter\"\n"
            case 2: line = "\n"  // blank: no record
            case 3: line = "   \n"  // one field of spaces: too few fields
            case 4: line = "\(row)\(d)\(d)\n"  // empty cells
            case 5: line = "\(row)\(d)555\(d)a\(d)b\n"  // too many fields
            case 6: line = "\(row)\(d) 555 123 4567 \(d)padded\r\n"
            case 7: line = "\(row)\(d)555-1234\(d)bare CR\r"
            case 8: line = "\(row)\(d)\"555\n1234\"\(d)multi-line\n"
            case 9: line = "\(row)\(d)55\"5\(d)stray quote\n"
            case 10: line = "\(row)\(d)=1+2\(d)@formula\n"
            case 11: line = "\r\n"
            case 12: line = "\(row)\(d)+1 555 123 4567\(d)\"\"\n"
            case 13: line = "\(row)\(d)5551234567\n"  // too few fields
            case 14: line = "\(row)\(d)555\u{00E9}1234\(d)caf\u{00E9}\n"
            default: line = "\(row)\(d)\(d)\(d)\(d)\n"
            }
            switch row % 11 {
            case 0: bytes += "\"\(row)\"\(d)\"5551234567\"\(d)\"quoted without need\"\n".utf8
            case 1: bytes += "\(row)\(d)\"555\"\"12\"\(d)\"say \"\"hi\"\"\"\r\n".utf8
            case 2: bytes += "\(row)\(d)\"555\"x\(d)after the closing quote\n".utf8
            case 3: bytes += "\(row)\(d) \"555\"\(d)space before the quote\n".utf8
            case 4: bytes += "\(row)\(d)\"(555)\(d) 123-4567\"\(d)\"\"\r".utf8
            case 5: bytes += "\(row)\(d)5551234567\(d)\"unclosed\r\n".utf8
            case 6: bytes += "\(row)\(d)\"\"\(d)\"\"\"\"\n".utf8
            case 7: bytes += "\(row)\(d)\"555\r1234\"\(d)x\n".utf8
            default: break
            }
            bytes += line.utf8
            if row % 50 == 7 { bytes += [UInt8]("\(row)\(d)555".utf8) + [0xFF] + Array("1234\(d)x\n".utf8) }
        }
        bytes += "201\(d)5551234567\(d)no line break at the end".utf8
        return bytes
    }

    @Test(
        "CSV lines read without libcsv: the same bytes and report as through libcsv",
        arguments: [",", "\t"], [7, 1 << 20])
    func plainLinesAsLibcsv(delimiter: String, chunkSize: Int) throws {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", Self.mixedLines(delimiter: delimiter))
        let separator = delimiter == "\t" ? UInt8(ascii: "\t") : nil
        try Self.expectSplitAsLibcsv(
            in: folder, delimiter: separator, chunkSize: chunkSize, jobs: 2, goodLines: 100, badLines: 30)
    }

    /// Runs `data.csv` of `folder` under `--quarantine` with lines split without libcsv and through
    /// libcsv, and expects the same records, quarantine and report, byte for byte (invalid UTF-8
    /// included; shown as text when they differ). The runs must have read real records: more than
    /// `goodLines` out and `badLines` quarantined, not an empty file twice.
    static func expectSplitAsLibcsv(
        in folder: TemporaryFolder, delimiter: UInt8?, chunkSize: Int, jobs: Int, goodLines: Int,
        badLines: Int
    ) throws {
        var runs: [(clean: [UInt8], bad: [UInt8], report: String)] = []
        for split in [true, false] {
            let outcome = try runPipeline(
                spec: Self.spec, input: "data.csv", in: folder, output: "clean-\(split).csv",
                report: "report-\(split).json", policy: .quarantine, quarantine: "bad-\(split).csv",
                jobs: jobs,
                chunkSize: chunkSize, delimiter: delimiter, splitsPlainLines: split)
            let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
            #expect(report.rows == report.columns[0].stats.cells + report.rejectedCount)
            runs.append(
                (
                    try folder.read("clean-\(split).csv"), try folder.read("bad-\(split).csv"),
                    untimed(try folder.text("report-\(split).json"))
                ))
        }
        let sameClean = runs[0].clean == runs[1].clean
        let sameBad = runs[0].bad == runs[1].bad
        #expect(sameClean, "split: \(String(decoding: runs[0].clean, as: UTF8.self))")
        #expect(sameBad, "split: \(String(decoding: runs[0].bad, as: UTF8.self))")
        #expect(runs[0].report == runs[1].report)
        #expect(runs[0].clean.count { $0 == 0x0A } > goodLines)
        #expect(runs[0].bad.count { $0 == 0x0A } > badLines)
    }

    @Test("CSV skip: the same records left out, no quarantine file", arguments: [1, 64])
    func csvSkip(chunkSize: Int) throws {
        let input = Self.csvInput(unterminatedAtEnd: false)
        let folder = try TemporaryFolder()
        try folder.write("data.csv", input.bytes)
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.csv", in: folder, output: "clean.csv", policy: .skip,
            quarantine: "bad.csv", chunkSize: chunkSize)
        let report = try #require(outcome.report)
        #expect(report.rejectedCount == input.bad.count)
        #expect(report.rows == input.records)
        #expect(folder.files == ["clean.csv", "data.csv"], "skip writes no quarantine file")
    }

    // MARK: JSON

    static let notJSON = "invalid JSON: unexpected end of input, expected ',' or '}'"

    static func ndjsonInput() -> Input {
        var input = Input(header: "")
        for row in 1...40 {
            switch row % 8 {
            case 1:
                input.add("{\"id\": \(row), \"phone\": \"5551234567\", \"big\": 12345678901234567890123}\n")
            case 2: input.add("{\"id\": \(row), \"phone\": \"555\"\n", bad: notJSON)
            case 3: input.add("\n")  // a blank line is no record
            case 4: input.add("[\(row)]\n", bad: "the record is not an object (found an array)")
            case 5:
                input.add(
                    "{\"id\": \(row), \"phone\": {\"n\": 1}}\n",
                    bad: "key \"phone\" holds an object; expected a string, a number or null")
            case 6:
                input.add(
                    "{\"id\": \(row), \"phone\": true}\r\n",
                    bad: "key \"phone\" holds a boolean; expected a string, a number or null")
            case 7: input.add("{\"id\": \(row), \"phone\": 5551234567, \"amount\": 0.10, \"x\": 1e400}\n")
            default:
                input.add(
                    "{\"id\": \(row), \"phone\": [\"555\"]}\n",
                    bad: "key \"phone\" holds an array; expected a string, a number or null")
            }
        }
        return input
    }

    @Test("NDJSON quarantine: lines, reasons and bytes exact for any chunk size", arguments: chunkSizes)
    func ndjsonQuarantine(chunkSize: Int) throws {
        let input = Self.ndjsonInput()
        let folder = try TemporaryFolder()
        try folder.write("data.ndjson", input.bytes)
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.ndjson", in: folder, output: "clean.ndjson", report: "report.json",
            policy: .quarantine, quarantine: "bad.ndjson", jobs: 2, chunkSize: chunkSize)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        // Blank lines are not records.
        let blank = input.good.filter { $0 == [0x0A] }.count
        #expect(report.rows == input.records - blank)
        #expect(report.rejectedCount == input.bad.count)
        #expect(report.rejected.map(\.line) == input.bad.prefix(10).map(\.line))
        #expect(report.rejected.map(\.reason) == input.bad.prefix(10).map(\.reason))
        #expect(try folder.read("bad.ndjson") == input.quarantine)
        let lines = try folder.text("clean.ndjson").split(separator: "\n")
        #expect(lines.count == input.good.count - blank)
        #expect(report.rows == lines.count + report.rejectedCount)
        #expect(
            lines.allSatisfy { $0.contains("12345678901234567890123") || $0.contains("0.10, \"x\": 1e400") })
    }

    @Test("NDJSON: the first bad line stops the run, named by its line", arguments: chunkSizes)
    func ndjsonFails(chunkSize: Int) throws {
        let input = Self.ndjsonInput()
        let folder = try TemporaryFolder()
        try folder.write("data.ndjson", input.bytes)
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.ndjson", in: folder, output: "clean.ndjson", chunkSize: chunkSize)
        #expect(outcome.error?.message == "\(folder.path("data.ndjson")):2: \(Self.notJSON)")
        #expect(folder.files == ["data.ndjson"])
    }

    @Test("JSON array quarantine: each element named by the line it begins on", arguments: chunkSizes)
    func arrayQuarantine(chunkSize: Int) throws {
        var text = "[\n"
        var expectedLines: [Int] = []
        var line = 2
        for row in 1...30 {
            let element: String
            switch row % 5 {
            case 0:
                element = "  [\(row)]"
                expectedLines.append(line)
            case 1:
                element = "  {\"id\": \(row),\n   \"phone\": false}"
                expectedLines.append(line)
            default: element = "  {\"id\": \(row),\n   \"phone\": \"555-\(1000 + row)\", \"s\": \"a,]}\"}"
            }
            text += element + (row == 30 ? "\n]\n" : ",\n")
            line += element.count { $0 == "\n" } + 1
        }
        let folder = try TemporaryFolder()
        try folder.write("data.json", text)
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.json", in: folder, output: "clean.json", policy: .skip, jobs: 2,
            chunkSize: chunkSize)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        #expect(report.rows == 30)
        #expect(report.rejectedCount == 12)
        #expect(report.rejected.map(\.line) == Array(expectedLines.prefix(10)))
        let clean = try folder.text("clean.json")
        let parsed = try JSONSerialization.jsonObject(with: Data(clean.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 18)
        #expect(parsed?.first?["phone_formatted"] as? String == "555-1002")
    }

    // MARK: Order and parallelism

    @Test("any chunk size and job count give byte-identical output and report")
    func deterministic() throws {
        var text = "id,phone,note\n"
        for row in 1...400 {
            let phone = ["5551234567", "555123456789", "555", "", "(555) 123-4567", "555-1234"][row % 6]
            text += "\(row),\(phone),\"row \(row)\nsecond line, \"\"quoted\"\"\"\n"
        }
        let folder = try TemporaryFolder()
        try folder.write("data.csv", text)
        var outputs: Set<[UInt8]> = []
        var reports: Set<String> = []
        for (chunkSize, jobs) in [(1 << 20, 1), (1, 1), (16, 4), (100, 3), (999, 8)] {
            let outcome = try runPipeline(
                spec: Self.spec, input: "data.csv", in: folder, output: "clean.csv", report: "report.json",
                jobs: jobs, chunkSize: chunkSize)
            #expect(outcome.report != nil)
            outputs.insert(try folder.read("clean.csv"))
            reports.insert(untimed(try folder.text("report.json")))
        }
        #expect(outputs.count == 1)
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        // Lossy cells are rows 1, 7, 13…; samples are the first five, in row order.
        #expect(report.contains(#"{"row": 1, "value": "555123456789", "formatted": "#))
        #expect(report.contains(#"{"row": 25, "value": "555123456789", "formatted": "#))
        #expect(!report.contains(#"{"row": 31, "value": "555123456789""#))
        #expect(report.contains(#"{"row": 2, "value": "555", "formatted": "#))
        #expect(report.contains(#""rows": 400,"#))
    }
}

@Suite("Pipeline: oversized records")
struct OversizedRecordTests {
    static let spec = PipelineTests.spec

    /// Good records, then a long one beginning on line `longLine`, then more.
    static func input(before: Int, longBytes: Int = 300) -> (text: String, longLine: Int) {
        var text = "id,phone,note\n"
        for row in 1...before { text += "\(row),5551234567,\"a\nb\"\n" }
        let longLine = 2 + before * 2
        text += "\(before + 1),5551234567,\"" + String(repeating: "x", count: longBytes) + "\"\n"
        text += "\(before + 2),5551234567,after\n"
        return (text, longLine)
    }

    @Test(
        "an oversized record stops the run, named by its line, in a chunk or past the reader",
        arguments: [10, 5000])
    func fails(before: Int) throws {
        // 10 records: the whole file comes with the header's first block, and the long record is
        // found inside a chunk; 5000: past the first 64 KiB, the reader finds it.
        let (text, longLine) = Self.input(before: before)
        let folder = try TemporaryFolder()
        try folder.write("data.csv", text)
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.csv", in: folder, output: "clean.csv", report: "report.json",
            chunkSize: 4096, maximumRecordBytes: 128)
        let message = try #require(outcome.error?.message)
        #expect(
            message.hasPrefix("\(folder.path("data.csv")):\(longLine): record longer than "), "\(message)")
        #expect(outcome.error?.status == .dataError)
        // The report of the stopped run counts the records before the long one, and nothing else is left.
        #expect(folder.files == ["data.csv", "report.json"])
        #expect(try folder.text("report.json").hasPrefix("{\n  \"rows\": \(before),\n  \"passed\": false,"))
    }

    /// (As with the defaults, 1 MiB chunks and 32 MiB records, the chunk size is below the maximum.)
    @Test("an oversized NDJSON line stops the run, named by its line")
    func ndjsonFails() throws {
        var text = ""
        for row in 1...5000 { text += "{\"id\": \(row), \"phone\": \"5551234567\"}\n" }
        text += "{\"id\": 5001, \"note\": \"" + String(repeating: "x", count: 500) + "\"}\n{\"id\": 5002}\n"
        let folder = try TemporaryFolder()
        try folder.write("data.ndjson", text)
        let outcome = try runPipeline(
            spec: Self.spec, input: "data.ndjson", in: folder, output: "clean.ndjson", chunkSize: 64,
            maximumRecordBytes: 128)
        let message = try #require(outcome.error?.message)
        #expect(message.hasPrefix("\(folder.path("data.ndjson")):5001: record longer than "), "\(message)")
        #expect(folder.files == ["data.ndjson"])
    }
}
