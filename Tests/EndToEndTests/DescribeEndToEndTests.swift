import Foundation
import MaskClean
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `maskclean describe` as a user runs it: the spec it proposes passes `maskclean check` on the
/// data it was proposed from, and it stops reading once it has its sample.
@Suite("describe proposes a spec that check passes")
struct DescribeEndToEndTests {
    /// The demo export and two exports of other shapes and formats (TSV with day-first dates and
    /// Luhn-valid cards; a JSON array with numbers, nested values and an all-null key), a zstd
    /// NDJSON export, and a cleaned output, whose `zip_formatted` a proposed `zip` column must not
    /// add again.
    static let inputs = [
        "demo/customers.csv", "cases/describe-orders-tsv/orders.tsv",
        "cases/describe-contacts-json/contacts.json", "cases/ndjson-zstd-input/records.ndjson.zst",
        "cases/postcodes-mixed-lengths/expected.csv", "dialects/customers.csv",
    ]

    @Test(
        "describe, then check with the proposed spec (YAML and JSON) on the same data, exits 0",
        arguments: inputs)
    func proposedSpecPassesCheck(_ input: String) throws {
        let scratch = try TemporaryFolder()
        let spec = scratch.url.appendingPathComponent("spec.json").path
        let described = try Maskclean.run(["describe", Maskclean.fixture(input), "-o", spec])
        #expect(described.status == 0, "stderr: \(described.stderr)")
        let checked = try Maskclean.run(["check", spec, Maskclean.fixture(input), "--quiet"])
        #expect(checked.status == 0, "stderr: \(checked.stderr)")
        // The YAML form, the default, is the same spec.
        let yaml = scratch.path("spec.yaml")
        #expect(try Maskclean.run(["describe", Maskclean.fixture(input), "-o", yaml]).status == 0)
        let checkedYAML = try Maskclean.run(["check", yaml, Maskclean.fixture(input), "--quiet"])
        #expect(checkedYAML.status == 0, "stderr: \(checkedYAML.stderr)")
        #expect(try SpecLoader.load(path: yaml).fingerprint == SpecLoader.load(path: spec).fingerprint)
        // The thresholds are the sample's own: each is met, and not by more than a hundredth.
        let report = scratch.url.appendingPathComponent("report.json").path
        _ = try Maskclean.run(["check", spec, Maskclean.fixture(input), "--quiet", "--report", report])
        let columns =
            try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
                    as? [String: Any])["columns"] as? [[String: Any]]
        #expect(columns?.isEmpty == false)
        for column in columns ?? [] {
            let ratio = try #require(column["completeRatio"] as? Double)
            let threshold = try #require(column["minComplete"] as? Double)
            #expect(ratio >= threshold && ratio - threshold < 0.01, "\(column["name"] ?? "")")
        }
    }

    /// A wide export's summary named every proposed column: 100,000 of them made one line of
    /// over a megabyte on stderr. It names the first ten and counts the rest.
    @Test("the summary names the first ten columns proposed and counts the others")
    func summaryOfAWideExport() throws {
        let scratch = try TemporaryFolder()
        let header = (0..<30).map { "c\($0)" }.joined(separator: ",")
        let rows = (0..<20).map { row in
            (0..<30).map { "K\(100 + (row * 7 + $0) % 900)" }.joined(separator: ",")
        }
        let input = try scratch.write("wide.csv", ([header] + rows).joined(separator: "\n") + "\n")
        let described = try Maskclean.run(["describe", input, "-o", scratch.path("spec.yaml")])
        #expect(described.status == 0, "stderr: \(described.stderr)")
        #expect(
            described.stderr.contains(
                "30 of 30 columns proposed (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 and 20 more) from 20 records"
            ),
            "\(described.stderr)")
    }

    @Test("a CSV without a header line is read with --no-header --columns, as run and check read it")
    func headerless() throws {
        let scratch = try TemporaryFolder()
        let demo = try String(contentsOfFile: Maskclean.fixture("demo/customers.csv"), encoding: .utf8)
        let input = try scratch.write("part.csv", String(demo.drop { $0 != "\n" }.dropFirst()))
        let reading = ["--no-header", "--columns", "id,name,phone,card,date,zip,note"]
        let spec = scratch.path("spec.json")
        let described = try Maskclean.run(["describe", input, "-o", spec] + reading)
        #expect(described.status == 0, "stderr: \(described.stderr)")
        #expect(
            described.stderr.contains("4 of 7 columns proposed (phone, card, date, zip) from 1000 records"))
        let checked = try Maskclean.run(["check", spec, input, "--quiet"] + reading)
        #expect(checked.status == 0, "stderr: \(checked.stderr)")
        // The same spec as from the file with its header, but for the input's name.
        let withHeader = try Maskclean.run(["describe", Maskclean.fixture("demo/customers.csv"), "-o", "-"])
        let headerless = try Maskclean.run(["describe", input] + reading)
        let body = { (text: String) in text.split(separator: "\n").dropFirst(2).joined(separator: "\n") }
        #expect(body(headerless.stdoutText) == body(withHeader.stdoutText))
    }

    @Test("the demo export gets phone, card, date and zip, and nothing for names, notes and ids")
    func demoColumns() throws {
        let outcome = try Maskclean.run(["describe", Maskclean.fixture("demo/customers.csv"), "-o", "-"])
        #expect(outcome.status == 0)
        let text = outcome.stdoutText
        let proposed = text.split(separator: "\n").filter { $0.hasPrefix("  - name: ") }
        #expect(
            proposed == [
                #"  - name: "phone""#, #"  - name: "card""#, #"  - name: "date""#, #"  - name: "zip""#,
            ])
        #expect(text.contains(#"# "name" left out: free text"#))
        #expect(text.contains(#"# "note" left out: free text"#))
        #expect(text.contains(#"# "id" left out: whole numbers"#))
        // No spec.schema.json where the spec goes: no line points at one (issue 28, item 5).
        #expect(!text.hasPrefix("# yaml-language-server"))
        #expect(text.contains("# For an editor to check it: maskclean schema > spec.schema.json beside it"))
    }

    @Test(
        "the YAML points editors at spec.schema.json only where it is: beside -o, or where stdout's spec is read"
    )
    func schemaLine() throws {
        let scratch = try TemporaryFolder()
        let input = Maskclean.fixture("demo/customers.csv")
        let before = try Maskclean.run(["describe", input, "-o", scratch.path("before.yaml")])
        #expect(before.status == 0)
        #expect(
            !(try String(contentsOfFile: scratch.path("before.yaml"), encoding: .utf8)).hasPrefix(
                "# yaml-language-server"))
        let schema = try Maskclean.run(["schema"])
        _ = try scratch.write("spec.schema.json", schema.stdoutText)
        let after = try Maskclean.run(["describe", input, "-o", scratch.path("after.yaml")])
        #expect(after.status == 0)
        let text = try String(contentsOfFile: scratch.path("after.yaml"), encoding: .utf8)
        #expect(text.hasPrefix("# yaml-language-server: $schema=spec.schema.json\n"))
        #expect(!text.contains("# For an editor to check it"))
        let printed = try Maskclean.run(["describe", input], in: scratch.url)
        #expect(printed.stdoutText.hasPrefix("# yaml-language-server: $schema=spec.schema.json\n"))
    }

    @Test("a gzip input is read as run reads it, and gives the spec the plain input gives")
    func compressedInput() throws {
        let scratch = try TemporaryFolder()
        let compressed = scratch.url.appendingPathComponent("customers.csv.gz")
        try #require(FileManager.default.createFile(atPath: compressed.path, contents: nil))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-c", Maskclean.fixture("demo/customers.csv")]
        gzip.standardOutput = try FileHandle(forWritingTo: compressed)
        try gzip.run()
        gzip.waitUntilExit()
        try #require(gzip.terminationStatus == 0)
        let fromPlain = try Maskclean.run(["describe", Maskclean.fixture("demo/customers.csv"), "-o", "-"])
        let fromGzip = try Maskclean.run(["describe", compressed.path])
        #expect(fromGzip.status == 0, "stderr: \(fromGzip.stderr)")
        let body = { (text: String) in text.split(separator: "\n").dropFirst(2).joined(separator: "\n") }
        #expect(body(fromGzip.stdoutText) == body(fromPlain.stdoutText))
    }

    @Test("with --head N it stops after N records: a pipe that never ends does not keep it waiting")
    func stopsAfterHead() throws {
        let process = Process()
        process.executableURL = Maskclean.binary
        process.arguments = ["describe", "-", "--input-format", "csv", "--head", "20"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var records = "id,phone\n"
        for row in 1...200 { records += "\(row),(555) 201-\(String(format: "%04d", row))\n" }
        input.fileHandleForWriting.write(Data(records.utf8))
        // The pipe stays open: a reader that wanted its end would wait for ever.
        let outputHandle = output.fileHandleForReading
        let reader = BackgroundReader { outputHandle.readDataToEndOfFile() }
        let ended = eventually(seconds: 30) { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(ended, "describe --head 20 kept reading an open pipe")
        #expect(process.terminationStatus == 0)
        let text = String(decoding: reader.data, as: UTF8.self)
        #expect(text.contains("from 20 records of \"stdin\""))
        #expect(text.contains(#"# "phone": 20 values sampled, 100% North American phone numbers."#))
    }

    @Test("records after --head are not read: a malformed one there does not fail describe")
    func malformedRecordAfterHead() throws {
        let scratch = try TemporaryFolder()
        var text = "id,zip\n"
        for row in 1...3000 { text += "\(row),\(10000 + row * 7)\n" }
        text += "3001,\"94105\n"  // an unterminated quote on line 3002
        let input = try scratch.write("zips.csv", text)
        let headed = try Maskclean.run(["describe", input, "--head", "100"])
        #expect(headed.status == 0, "stderr: \(headed.stderr)")
        #expect(headed.stdoutText.contains("from 100 records"))
        let whole = try Maskclean.run(["describe", input, "--sample", "100", "-o", scratch.path("spec.yaml")])
        #expect(whole.status == 65)
        #expect(whole.stderr.contains("zips.csv:3002: unterminated quoted field"), "stderr: \(whole.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("spec.yaml")))
    }

    @Test("a header that starts with two byte-order marks: the name keeps the second, in YAML as in JSON")
    func doubledByteOrderMark() throws {
        let scratch = try TemporaryFolder()
        // The first mark is the file's; the second is part of the first column's name.
        var records = "\u{FEFF}\u{FEFF}phone,id\n"
        for row in 1...200 { records += "(555) 201-\(String(format: "%04d", row)),\(row)\n" }
        let input = try scratch.write("phones.csv", records)
        for spec in ["spec.json", "spec.yaml"] {
            let described = try Maskclean.run(["describe", input, "-o", scratch.path(spec)])
            #expect(described.status == 0, "stderr: \(described.stderr)")
            let checked = try Maskclean.run(["check", scratch.path(spec), input, "--quiet"])
            #expect(checked.status == 0, "\(spec): \(checked.stderr)")
            #expect(try SpecLoader.load(path: scratch.path(spec)).columns.map(\.name) == ["\u{FEFF}phone"])
        }
        #expect(try scratch.text("spec.yaml").contains(#"  - name: "\uFEFFphone""#))
    }
}

/// Issue 24, item 9: `describe --sample 0` kept every sampled cell, about six times the input.
/// It keeps counts now: a column's memory stops growing at its first 10,000 distinct values.
@Suite("describe reads in bounded memory")
struct DescribeMemoryTests {
    /// A column of `records` distinct 40-character codes, one shape.
    static func codes(_ records: Int) -> String {
        "id,code\n"
            + (1...records).map { "\($0),AB-\(String(format: "%08d", $0))-CDEFGHIJKLMNOPQRSTUVWXYZ1234\n" }
            .joined()
    }

    @Test("150,000 distinct values take no more memory than 20,000, and are all measured")
    func distinctValues() throws {
        let folder = try TemporaryFolder()
        let small = try folder.write("small.csv", Self.codes(20_000))
        let large = try folder.write("large.csv", Self.codes(150_000))
        let (smallStatus, smallPeak) = try peakMemory([
            "describe", small, "--sample", "0", "-o", folder.path("s.yaml"),
        ])
        let (largeStatus, largePeak) = try peakMemory([
            "describe", large, "--sample", "0", "-o", folder.path("l.yaml"),
        ])
        #expect(smallStatus == 0 && largeStatus == 0)
        if !isAddressSanitized {
            #expect(
                largePeak - smallPeak < 6 << 20, "peak \(smallPeak >> 20) MiB, then \(largePeak >> 20) MiB")
        }
        let spec = try String(contentsOfFile: folder.path("l.yaml"), encoding: .utf8)
        #expect(spec.contains(#"# "code": 150000 values sampled, 100% in these formats' shapes."#), "\(spec)")
        #expect(spec.contains("#   100% complete."))
    }
}

extension DescribeMemoryTests {
    @Test(
        "a temporary file for standard input's second reading that cannot be made is exit 73, with nothing written"
    )
    func inputCopyNotMade() throws {
        let folder = try TemporaryFolder()
        let outcome = try Maskclean.run(
            ["describe", "-", "--input-format", "csv", "-o", folder.path("spec.yaml")],
            stdin: Data(Self.codes(100).utf8), environment: ["TMPDIR": folder.path("missing")])
        #expect(outcome.status == 73)
        #expect(outcome.stderr.contains("cannot create the temporary file"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("spec.yaml")))
    }
}

/// Issue 24, item 19: `--only` split its text at every comma, so a column whose name holds one
/// could not be named, yet the suggestion for a mistyped name showed it as if it could.
@Suite("describe --only names any column, as the shell types it")
struct DescribeOnlyTests {
    static let input =
        "id,\"name, full\",O'Brien \"x\",phone\n1,A1,AB-1,(555) 201-0001\n2,B2,AB-2,(555) 201-0002\n"

    @Test("a name with a comma or quotes is quoted as in CSV, and --only may be repeated")
    func quotedAndRepeated() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("people.csv", Self.input)
        let outcome = try Maskclean.run([
            "describe", input, "--only", #""name, full",phone"#, "--only", #""O'Brien ""x""""#,
        ])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let names = outcome.stdoutText.split(separator: "\n").filter { $0.hasPrefix("  - name: ") }
        #expect(
            names == [#"  - name: "name, full""#, #"  - name: "O'Brien \"x\"""#, #"  - name: "phone""#],
            "\(outcome.stdoutText)")
        #expect(!outcome.stdoutText.contains(#""id""#))
        let broken = try Maskclean.run(["describe", input, "--only", #"phone,"name"#])
        #expect(broken.status == 64 && broken.stderr.contains("--only: unterminated quoted field"))
    }

    @Test(
        "the suggestion for a mistyped name is what to type: through a shell it names the column",
        arguments: [(#""Name, Full""#, "name, full"), (#""o'brien ""X""""#, #"O'Brien "x""#)])
    func typeableSuggestion(_ mistyped: String, _ column: String) throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("people.csv", Self.input)
        let outcome = try Maskclean.run(["describe", input, "--only", mistyped])
        #expect(outcome.status == 64)
        let marker = "Type it as --only "
        let typed = try #require(outcome.stderr.range(of: marker).map { outcome.stderr[$0.upperBound...] })
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (_, text) = try Self.describeThroughShell(input, only: typed)
        #expect(
            text.contains("# \"\(column.replacingOccurrences(of: "\"", with: "\\\""))\""), "\(typed): \(text)"
        )
    }

    /// The probe of issue 24's fixes: a name with a character messages show as an escape was
    /// suggested as its escape's text, which `--only` then did not find, and the two looked alike.
    @Test(
        "a name holding an invisible character is suggested as printf makes it, and a shell runs that",
        arguments: ["x", #"d\u{fe0f}"#, #"a\u{200b}"#])
    func invisibleCharacterSuggestion(_ mistyped: String) throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("odd.csv", "a\u{200B},d\u{FE0F}\n555-1234,2024-01-31\n")
        let outcome = try Maskclean.run(["describe", input, "--only", mistyped])
        #expect(outcome.status == 64)
        if mistyped != "x" {
            #expect(outcome.stderr.contains("what you typed is the escape's text"), "\(outcome.stderr)")
        }
        let marker = "Type it as --only "
        let typed = try #require(outcome.stderr.range(of: marker).map { outcome.stderr[$0.upperBound...] })
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(typed.hasPrefix(#""$(printf '"#), "\(typed)")
        let (status, _) = try Self.describeThroughShell(input, only: typed)
        #expect(status == 0, "\(typed) did not name the column")
    }

    /// `maskclean describe INPUT --only TYPED`, with TYPED as a user types it at /bin/sh (dash).
    static func describeThroughShell(_ input: String, only typed: String) throws -> (
        status: Int32, stdout: String
    ) {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "exec \"$0\" describe \"$1\" --only \(typed)", Maskclean.binary.path, input]
        let output = Pipe()
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        return (shell.terminationStatus, text)
    }
}
