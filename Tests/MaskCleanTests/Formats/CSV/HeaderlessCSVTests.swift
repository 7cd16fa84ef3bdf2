import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// A CSV or TSV input without a header line (`--no-header --columns`, docs/command-line.md
/// #inputs-without-a-header-line): what `split -l`, Hadoop Streaming and Spark's `RDD.pipe` hand
/// a worker. Its output is the headered run's, byte for byte, minus the header line (or with it,
/// under `--header`), however the input is cut into chunks and however many workers mask it.
@Suite("CSV without a header line")
struct HeaderlessCSVTests {
    static let fixtures =
        repositoryRoot
        .appendingPathComponent("Fixtures")

    static func fixture(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    /// `bytes` without their first line (up to and with its line feed), and that line.
    static func splitFirstLine(_ bytes: [UInt8]) -> (first: [UInt8], rest: [UInt8]) {
        let end = (bytes.firstIndex(of: 0x0A) ?? bytes.count - 1) + 1
        return (Array(bytes[..<end]), Array(bytes[end...]))
    }

    /// Runs `spec` over `input` in `folder`, without a header line when `columns` are given.
    static func run(
        spec: Spec, input: String, in folder: TemporaryFolder, columns: [String]?, writesHeader: Bool,
        output: String = "out.csv", outputFormat: RecordFormat? = nil, report: String? = "report.json",
        jobs: Int = 1, chunkSize: Int = 1 << 20, policy: ErrorPolicy = .fail, quarantine: String? = nil,
        delimiter: UInt8? = nil, maximumRecordBytes: Int = 32 << 20, splitsPlainLines: Bool = true
    ) -> RunOutcome {
        var options = RunOptions(
            input: folder.path(input), output: folder.path(output), report: report.map(folder.path),
            jobs: jobs)
        options.columnNames = columns
        options.writesHeader = writesHeader
        options.outputFormat = outputFormat
        options.chunkSize = chunkSize
        options.policy = policy
        options.quarantine = quarantine.map(folder.path)
        options.delimiter = delimiter
        options.maximumRecordBytes = maximumRecordBytes
        options.splitsPlainLines = splitsPlainLines
        do {
            return .finished(try Runner.run(spec, options))
        } catch {
            return .failed(error)
        }
    }

    // MARK: The headered run, minus its header line

    /// The benchmark sample (2,000 messy records, quoted fields with line breaks among them) and
    /// the demo export, each with its header line taken off, cleaned with the kept outputs'
    /// spec: the kept output minus its header line, and the kept report, exactly.
    @Test(
        "a real export minus its header gives the headered output minus its header, any jobs and chunks",
        arguments: ["bench-sample", "demo"], [1, 2, 7])
    func identicalToHeadered(fixture: String, jobs: Int) throws {
        let spec = try loadSpec(String(decoding: try Self.fixture("\(fixture)/spec.json"), as: UTF8.self))
        let (headerLine, records) = Self.splitFirstLine(
            try Self.fixture(fixture == "demo" ? "demo/customers.csv" : "bench-sample/messy.csv"))
        let columns = try ColumnList.parse(
            String(decoding: headerLine, as: UTF8.self).trimmingCharacters(in: .newlines),
            delimiter: UInt8(ascii: ","))
        let scratch = try TemporaryFolder()
        _ = try scratch.write("headered.csv", headerLine + records)
        _ = try scratch.write("part.csv", records)
        let kept = Self.run(
            spec: spec, input: "headered.csv", in: scratch, columns: nil, writesHeader: true,
            output: "kept.csv", report: "kept.json")
        #expect(kept.report != nil, "\(kept.error?.message ?? "")")
        let keptOutput = try scratch.read("kept.csv")
        let keptReport = try scratch.read("kept.json")
        let (keptHeader, keptRecords) = Self.splitFirstLine(keptOutput)
        #expect(keptHeader.starts(with: headerLine.dropLast()), "the kept output starts with its header")
        #expect(keptRecords.count > 100_000, "the records are there: \(keptRecords.count) bytes")
        for chunkSize in [5, 61, 4096, 1 << 20] {
            for header in [false, true] {
                let outcome = Self.run(
                    spec: spec, input: "part.csv", in: scratch, columns: columns, writesHeader: header,
                    jobs: jobs, chunkSize: chunkSize)
                let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
                #expect(report.rows == (fixture == "demo" ? 1000 : 2000))
                let output = try scratch.read("out.csv")
                let expected = header ? keptOutput : keptRecords
                if let first = output.indices.first(where: {
                    $0 >= expected.count || output[$0] != expected[$0]
                }) {
                    Issue.record(
                        "chunk size \(chunkSize), --header \(header): first difference at byte \(first)")
                }
                #expect(output.count == expected.count, "chunk size \(chunkSize), --header \(header)")
                // The two inputs' names and sizes differ (one has the header line); the counts may not.
                #expect(
                    countsOnly(try scratch.read("report.json")) == countsOnly(keptReport),
                    "chunk size \(chunkSize)")
            }
        }
    }

    @Test("JSON output takes its keys from --columns: the headered run's records exactly", arguments: [1, 3])
    func jsonKeysFromColumns(jobs: Int) throws {
        let spec = try loadSpec(String(decoding: try Self.fixture("demo/spec.json"), as: UTF8.self))
        let (headerLine, records) = Self.splitFirstLine(try Self.fixture("demo/customers.csv"))
        let columns = ["id", "name", "phone", "card", "date", "zip", "note"]
        #expect(headerLine == Array("id,name,phone,card,date,zip,note\n".utf8))
        let scratch = try TemporaryFolder()
        _ = try scratch.write("headered.csv", headerLine + records)
        _ = try scratch.write("part.csv", records)
        for format in [RecordFormat.ndjson, .json] {
            let kept = Self.run(
                spec: spec, input: "headered.csv", in: scratch, columns: nil, writesHeader: true,
                output: "kept.\(format)", outputFormat: format, report: nil, jobs: jobs, chunkSize: 977)
            #expect(kept.report?.rows == 1000)
            // --header changes nothing here: JSON has no header line.
            for header in [false, true] {
                let outcome = Self.run(
                    spec: spec, input: "part.csv", in: scratch, columns: columns, writesHeader: header,
                    output: "out.\(format)", outputFormat: format, report: nil, jobs: jobs, chunkSize: 977)
                #expect(outcome.report?.rows == 1000, "\(outcome.error?.message ?? "")")
                let same = try scratch.read("out.\(format)") == scratch.read("kept.\(format)")
                #expect(same, "\(format), --header \(header): the records differ from the headered run's")
            }
        }
        let first = try scratch.text("out.json").split(separator: "\n")[1]
        #expect(first.hasPrefix(#"{"id":"1","name":"Ðorđe O'Connor","phone":"(680) 645-7833","#))
    }

    // MARK: The input's start

    @Test("a byte-order mark is kept and CRLF line ends followed, as with a header")
    func byteOrderMarkAndCRLF() throws {
        let spec = try loadSpec(#"{"columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#)
        let records = "1,5551234,\"a note\r\nover two lines\"\r\n2,555,x\r\n3,,\"12\"\" ruler\"\r\n"
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let scratch = try TemporaryFolder()
        _ = try scratch.write("headered.csv", mark + Array("id,phone,note\r\n\(records)".utf8))
        _ = try scratch.write("part.csv", mark + Array(records.utf8))
        let kept = Self.run(
            spec: spec, input: "headered.csv", in: scratch, columns: nil, writesHeader: true,
            output: "kept.csv")
        #expect(kept.report?.rows == 3)
        let keptOutput = try scratch.read("kept.csv")
        let header = Array("id,phone,note,phone_formatted,phone_extracted,phone_status\r\n".utf8)
        #expect(keptOutput.starts(with: mark + header))
        for chunkSize in [1, 7, 1 << 20] {
            for writesHeader in [false, true] {
                let outcome = Self.run(
                    spec: spec, input: "part.csv", in: scratch, columns: ["id", "phone", "note"],
                    writesHeader: writesHeader, jobs: 2, chunkSize: chunkSize)
                #expect(outcome.report?.rows == 3, "\(outcome.error?.message ?? "")")
                let expected =
                    writesHeader ? keptOutput : mark + Array(keptOutput.dropFirst(3 + header.count))
                #expect(
                    try scratch.read("out.csv") == expected,
                    "chunk size \(chunkSize), --header \(writesHeader)")
            }
        }
        #expect(
            try scratch.text("out.csv").hasSuffix("3,,\"12\"\" ruler\",,,empty\r\n"),
            "every record ends with the input's CRLF")
    }

    @Test("the first record's line end is the output's; the records start at the first byte")
    func start() throws {
        let folder = try TemporaryFolder()
        func given(_ bytes: [UInt8], limit: Int = 32 << 20) throws -> CSVHeader {
            let path = try folder.write("part.csv", bytes)
            return try CSVHeader.given(
                ["id", "phone"], InputFile(path: path), delimiter: UInt8(ascii: ","), limit: limit)
        }
        let crlf = try given(Array("1,5551234567\r\n2,555\r\n".utf8))
        #expect(crlf.names == ["id", "phone"])
        #expect(crlf.lineEnd == [0x0D, 0x0A])
        #expect(crlf.leftover == Array("1,5551234567\r\n2,555\r\n".utf8), "the first record is no header")
        #expect(crlf.nextLine == 1)
        #expect(!crlf.byteOrderMark)
        // A CRLF inside a quoted field is data: the record ends with its LF.
        let quoted = try given(Array("1,\"555\r\n1234\"\n2,555\n".utf8))
        #expect(quoted.lineEnd == [0x0A])
        let lastWithCRLF = try given(Array("1,5551234567\r\n".utf8))
        #expect(lastWithCRLF.lineEnd == [0x0D, 0x0A])
        let bareCR = try given(Array("1,5551234567\r2,555\r".utf8))
        #expect(bareCR.lineEnd == [0x0A], "a bare CR becomes LF, as a header's does")
        #expect(bareCR.leftover == Array("1,5551234567\r2,555\r".utf8))
        let marked = try given([0xEF, 0xBB, 0xBF] + Array("1,555\r\n".utf8))
        #expect(marked.byteOrderMark)
        #expect(marked.leftover == Array("1,555\r\n".utf8))
        #expect(marked.lineEnd == [0x0D, 0x0A])
        let empty = try given([])
        #expect(empty.leftover.isEmpty && empty.lineEnd == [0x0A] && !empty.byteOrderMark)
        let markOnly = try given([0xEF, 0xBB, 0xBF])
        #expect(markOnly.leftover.isEmpty && markOnly.byteOrderMark)
        // A first record longer than the limit, and than a read, is left to the records'
        // reading: what was read of it is handed on, and its line end is not looked for.
        let long =
            Array("1,\"".utf8) + [UInt8](repeating: UInt8(ascii: "5"), count: 200 << 10)
            + Array("\"\r\n".utf8)
        let tooLong = try given(long, limit: 100)
        #expect(tooLong.lineEnd == [0x0A])
        #expect(tooLong.leftover.count < long.count && long.starts(with: tooLong.leftover))
        #expect(try given(long).lineEnd == [0x0D, 0x0A], "read whole within the limit")
        #expect(throws: MaskCleanError.self) { try given(utf16("1,555\n", marked: true)) }
    }

    @Test("an empty input is 0 records, not malformed: it fails only minRows")
    func emptyInput() throws {
        let spec = try loadSpec(#"{"columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#)
        let scratch = try TemporaryFolder()
        for (name, bytes) in [("empty.csv", [UInt8]()), ("mark.csv", [0xEF, 0xBB, 0xBF])] {
            _ = try scratch.write(name, bytes)
            for writesHeader in [false, true] {
                let outcome = Self.run(
                    spec: spec, input: name, in: scratch, columns: ["id", "phone"], writesHeader: writesHeader
                )
                let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
                #expect(report.rows == 0)
                #expect(!report.passed, "below the default minRows of 1")
                let header =
                    writesHeader ? Array("id,phone,phone_formatted,phone_extracted,phone_status\n".utf8) : []
                #expect(try scratch.read("out.csv") == Array(bytes) + header)
            }
        }
        let lenient = try loadSpec(
            #"{"minRows": 0, "columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#)
        #expect(
            Self.run(
                spec: lenient, input: "empty.csv", in: scratch, columns: ["id", "phone"], writesHeader: false
            )
            .report?.passed == true)
    }

    // MARK: Bad records and spec errors

    static let phoneSpec = #"{"columns": [{"name": "phone", "format": "[000]-[0000]"}]}"#

    @Test(
        "a record with another field count is the usual bad record, named by its line",
        arguments: [1, 5, 1 << 20])
    func fieldCount(chunkSize: Int) throws {
        let spec = try loadSpec(Self.phoneSpec)
        let scratch = try TemporaryFolder()
        _ = try scratch.write("part.csv", "1,5551234,a\n2,555,\"two\nlines\"\n3,5559876\n4,555,d\n5,1,e,f\n")
        let failed = Self.run(
            spec: spec, input: "part.csv", in: scratch, columns: ["id", "phone", "note"], writesHeader: false,
            chunkSize: chunkSize)
        #expect(
            failed.error?.message(naming: \.description, setting: SettingTests.flag)
                == "\(scratch.path("part.csv")):4: expected 3 fields as in --columns, found 2")
        #expect(
            failed.error?.message
                == "\(scratch.path("part.csv")):4: expected 3 fields as in the column list given for a header-less input, found 2"
        )
        #expect(failed.error?.status == .dataError)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.csv")), "no half-written output")
        let skipped = Self.run(
            spec: spec, input: "part.csv", in: scratch, columns: ["id", "phone", "note"], writesHeader: false,
            jobs: 2, chunkSize: chunkSize, policy: .quarantine, quarantine: "bad.csv")
        let report = try #require(skipped.report, "\(skipped.error?.message ?? "")")
        #expect(report.rows == 5)
        #expect(report.rejectedCount == 2)
        #expect(
            report.rejected.map { "\($0.line): \($0.reason)" } == [
                "4: expected 3 fields as in --columns, found 2",
                "6: expected 3 fields as in --columns, found 4",
            ])
        #expect(try scratch.text("bad.csv") == "3,5559876\n5,1,e,f\n")
        #expect(
            try scratch.text("out.csv")
                == "1,5551234,a,555-1234,5551234,complete\n2,555,\"two\nlines\",555-,555,incomplete\n"
                + "4,555,d,555-,555,incomplete\n")
        // The masked cells' samples count rows from the first record, as without --no-header.
        #expect(report.columns[0].stats.incompleteSamples.map(\.row) == [2, 4])
    }

    @Test("a first record too long is a bad record at line 1, not a header error")
    func firstRecordTooLong() throws {
        let spec = try loadSpec(Self.phoneSpec)
        let scratch = try TemporaryFolder()
        let long = "1,\"" + String(repeating: "5", count: 300) + "\"\n"
        _ = try scratch.write("part.csv", long + "2,5551234\n")
        let outcome = Self.run(
            spec: spec, input: "part.csv", in: scratch, columns: ["id", "phone"], writesHeader: false,
            chunkSize: 16, policy: .skip, maximumRecordBytes: 100)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        #expect(report.rejected.map(\.line) == [1])
        #expect(report.rows == 2)
        #expect(try scratch.text("out.csv") == "2,5551234,555-1234,5551234,complete\n")
    }

    @Test("a masked column missing from --columns, or an added column repeating one, is a spec error")
    func specErrors() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("part.csv", "1,5551234\n")
        let missing = Self.run(
            spec: try loadSpec(Self.phoneSpec), input: "part.csv", in: scratch, columns: ["id", "Phone"],
            writesHeader: false)
        #expect(missing.error?.status == .config)
        #expect(
            missing.error?.message(naming: \.description, setting: SettingTests.flag)
                == "spec.json: columns[0] \"phone\": no column \"phone\" in \(scratch.path("part.csv")) (its columns, as --columns names them: \"id\", \"Phone\"); did you mean \"Phone\"?"
        )
        #expect(
            missing.error?.message.contains(
                "(its columns, as the column list given for a header-less input names them: ") == true)
        let clash = Self.run(
            spec: try loadSpec(Self.phoneSpec), input: "part.csv", in: scratch,
            columns: ["id", "phone", "phone_status"], writesHeader: false)
        #expect(clash.error?.status == .config)
        #expect(clash.error?.message.contains("added column \"phone_status\" repeats a column of") == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.csv")))
    }

    @Test("column names are for CSV and TSV input only, and keep the --columns rules")
    func runnerUsageErrors() throws {
        let spec = try loadSpec(Self.phoneSpec)
        let scratch = try TemporaryFolder()
        _ = try scratch.write("part.ndjson", "{\"id\":1,\"phone\":\"5551234\"}\n")
        _ = try scratch.write("part.csv", "1,5551234\n")
        let json = Self.run(
            spec: spec, input: "part.ndjson", in: scratch, columns: ["id", "phone"], writesHeader: false,
            output: "out.ndjson")
        #expect(
            json.error
                == .usage(
                    "\(Setting.headerless) is for CSV and TSV input; ndjson records name their own keys"))
        let twice = Self.run(
            spec: spec, input: "part.csv", in: scratch, columns: ["phone", "phone"], writesHeader: false)
        #expect(
            twice.error
                == .spec(
                    "spec.json", "columns[0] \"phone\"",
                    "\"phone\" names 2 columns of \(Setting.columnNames) (columns 1, 2); the spec cannot tell which to mask: give the column a name of its own there"
                ))
        #expect(scratch.files.filter { $0.hasPrefix("out") }.isEmpty, "nothing written")
    }

    /// An official layout that pads its records with six unnamed filler columns, each called
    /// `Null`: --columns may repeat a name no spec column names, and the output keeps every
    /// field; a spec column naming it is a spec error that lists the positions.
    @Test("--columns may repeat a name the spec does not name; naming it in the spec lists the positions")
    func repeatedNames() throws {
        let spec = try loadSpec(Self.phoneSpec)
        let scratch = try TemporaryFolder()
        _ = try scratch.write("part.csv", "1,,,5551234,,,,\n2,,,5559876,,,,\n")
        let columns = try ColumnList.parse(
            "id,Null,Null,phone,Null,Null,Null,Null", delimiter: UInt8(ascii: ","))
        let outcome = Self.run(
            spec: spec, input: "part.csv", in: scratch, columns: columns, writesHeader: true)
        #expect(outcome.report?.rows == 2, "\(outcome.error?.message ?? "")")
        #expect(
            try scratch.text("out.csv")
                == "id,Null,Null,phone,Null,Null,Null,Null,phone_formatted,phone_extracted,phone_status\n"
                + "1,,,5551234,,,,,555-1234,5551234,complete\n2,,,5559876,,,,,555-9876,5559876,complete\n")
        let named = try loadSpec(#"{"columns": [{"name": "Null", "format": "[000]"}]}"#)
        let refused = Self.run(
            spec: named, input: "part.csv", in: scratch, columns: columns, writesHeader: true)
        #expect(
            refused.error?.message
                == "spec.json: columns[0] \"Null\": \"Null\" names 6 columns of the column list given for a header-less input (columns 2, 3, 5, 6, 7, 8); the spec cannot tell which to mask: give the column a name of its own there"
        )
        let json = Self.run(
            spec: spec, input: "part.csv", in: scratch, columns: columns, writesHeader: false,
            output: "out.ndjson", outputFormat: .ndjson)
        #expect(json.error?.message.contains("JSON output would give each record two \"Null\" keys") == true)
    }

    @Test("TSV: the names are read with the tab, as a TSV header would be")
    func tabSeparated() throws {
        let spec = try loadSpec(Self.phoneSpec)
        let scratch = try TemporaryFolder()
        _ = try scratch.write("part.tsv", "1\t5551234\tZoë, \"Z\"\n")
        let columns = try ColumnList.parse("id\tphone\t\"note, free\"", delimiter: 0x09)
        #expect(columns == ["id", "phone", "note, free"])
        let outcome = Self.run(
            spec: spec, input: "part.tsv", in: scratch, columns: columns, writesHeader: true,
            output: "out.tsv")
        #expect(outcome.report?.rows == 1, "\(outcome.error?.message ?? "")")
        #expect(
            try scratch.text("out.tsv")
                == "id\tphone\tnote, free\tphone_formatted\tphone_extracted\tphone_status\n"
                + "1\t5551234\tZoë, \"Z\"\t555-1234\t5551234\tcomplete\n",
            "a field the run does not replace keeps its bytes (docs/record-formats.md)")
    }

    // MARK: Reading --columns

    @Test("--columns is one CSV line: quoted names may hold the delimiter, quotes and line breaks")
    func parsing() throws {
        let comma = UInt8(ascii: ",")
        #expect(try ColumnList.parse("id,name,phone", delimiter: comma) == ["id", "name", "phone"])
        #expect(
            try ColumnList.parse(#"id,"name, full",phone"#, delimiter: comma) == [
                "id", "name, full", "phone",
            ])
        #expect(
            try ColumnList.parse(#""say ""hi""",12" ruler"#, delimiter: comma) == [
                #"say "hi""#, #"12" ruler"#,
            ])
        #expect(try ColumnList.parse("\"first\nname\",id", delimiter: comma) == ["first\nname", "id"])
        #expect(try ColumnList.parse("id;name,full", delimiter: UInt8(ascii: ";")) == ["id", "name,full"])
        #expect(
            try ColumnList.parse(" id , phone", delimiter: comma) == [" id ", " phone"], "nothing trimmed")
        #expect(
            try ColumnList.parse("id,phone\n", delimiter: comma) == ["id", "phone"],
            "a final line end is no record")
        #expect(try ColumnList.parse("Zoë,téléphone", delimiter: comma) == ["Zoë", "téléphone"])
    }

    @Test(
        "a list that is not one line of non-empty names is a usage error saying what is wrong",
        arguments: [
            ("", "--columns is empty; name the input's columns in order: --columns id,name,phone"),
            ("id,,phone", "--columns: column 2 of 3 has an empty name"),
            ("id,phone,", "--columns: column 3 of 3 has an empty name"),
            (#"id,"""#, "--columns: column 2 of 2 has an empty name"),
            ("id,phone\nname", "--columns holds a line break outside quotes; it is one header line"),
            ("id\rphone", "--columns holds a line break outside quotes; it is one header line"),
            (#"id,"phone"#, "--columns: unterminated quoted field"),
            (
                #"id,"pho"ne"#,
                "--columns: unexpected character after a closing quote (a quote inside a quoted field must be doubled)"
            ),
        ])
    func badLists(text: String, message: String) {
        do {
            _ = try ColumnList.parse(text, delimiter: UInt8(ascii: ","))
            Issue.record("\(text.debugDescription) parsed")
        } catch {
            #expect(error.status == .usage)
            #expect(error.message(naming: \.description, setting: SettingTests.flag) == message)
            // The library's own words name the setting, not the flag.
            #expect(!error.message.contains("--columns"), "\(error.message)")
            #expect(
                error.message.contains("the column list given for a header-less input"), "\(error.message)")
        }
    }
}
