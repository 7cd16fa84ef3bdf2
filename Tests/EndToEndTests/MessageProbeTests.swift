import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Messages that pointed the wrong way, and data that drove the terminal: each test reproduces
/// what main printed before the fix.
@Suite("Hostile probes: messages")
struct MessageProbeTests {
    static let spec = OutputSafetyProbeTests.spec
    static let input = OutputSafetyProbeTests.input

    func scratch() throws -> TemporaryFolder {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        _ = try scratch.write("in.csv", Self.input)
        return scratch
    }

    /// Regression: a header cell with escape sequences was printed raw in the "no column" message.
    @Test("data quoted in a message cannot drive the terminal")
    func escapesInMessages() throws {
        let scratch = try scratch()
        _ = try scratch.write("evil.csv", "id,\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}x\n1,2\n")
        let outcome = try Maskclean.run(["check", "spec.json", "evil.csv"], in: scratch.url)
        #expect(outcome.status == 78)
        #expect(!outcome.stderr.contains("\u{1B}"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("\u{07}"))
        #expect(!outcome.stderr.contains("\u{202E}"))
        #expect(
            outcome.stderr.contains(#"(its columns: "id", "\x1b]0;pwned\x07\x1b[2J\u{202e}x")"#),
            "\(outcome.stderr)")
        #expect(outcome.stderr.hasSuffix("\n") && outcome.stderr.filter { $0 == "\n" }.count == 1, "one line")
    }

    /// Regression: closed standard streams were "invalid argument", and with `>&-` the records
    /// could land in the report's temporary file.
    @Test("a closed standard output or input is said to be closed")
    func closedStandardStreams() throws {
        let scratch = try scratch()
        for (redirection, message, status) in [
            (">&-", "stdout: cannot write: standard output is closed", 74),
            ("<&-", "stdin: cannot read: standard input is closed", 66),
        ] {
            let input = redirection == "<&-" ? "- --input-format csv" : "in.csv"
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = [
                "-c",
                "'\(Maskclean.binary.path)' run spec.json \(input) --report report.json --quiet \(redirection) 2>err.txt",
            ]
            shell.currentDirectoryURL = scratch.url
            try shell.run()
            shell.waitUntilExit()
            #expect(shell.terminationStatus == Int32(status), "\(redirection)")
            let errors = try String(contentsOfFile: scratch.path("err.txt"), encoding: .utf8)
            #expect(errors == message + "\n", "\(redirection): \(errors)")
            // The report says what stopped the run (docs/report.md#a-run-that-stopped).
            let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
            #expect(
                report.contains(#""error": {"status": \#(status), "message": "\#(message)""#), "\(report)")
        }
    }

    @Test(
        "messages say what is actually wrong",
        arguments: [
            (
                ["run", "spec.json", "in.csv", "-o", "/proc/self/status"], 73,
                "/proc/self/status: cannot create a file in /proc/self"
            ),
            (["check", "/dev/zero", "in.csv"], 78, "/dev/zero: larger than 4 MiB: not a spec file"),
        ])
    func wrongMessages(arguments: [String], status: Int32, message: String) throws {
        let scratch = try scratch()
        let outcome = try Maskclean.run(arguments, in: scratch.url)
        #expect(outcome.status == status, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
    }

    /// Regression: a UTF-16 export was reported as a syntax error or a NUL byte.
    @Test("a UTF-16 input is named as such, in every format, with or without a byte-order mark")
    func utf16() throws {
        let scratch = try scratch()
        let text = "id,phone\n1,5551234567\n"
        let encodings: [(String, [UInt8])] = [
            ("le.csv", [0xFF, 0xFE] + Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            (
                "be.ndjson",
                [0xFE, 0xFF]
                    + Array("{\"phone\":\"5551234567\"}\n".utf16).flatMap {
                        [UInt8($0 >> 8), UInt8($0 & 0xFF)]
                    }
            ),
            ("bare.json", Array("[{\"phone\":\"1\"}]".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("bare.csv", Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
        ]
        for (name, bytes) in encodings {
            try Data(bytes).write(to: scratch.url.appendingPathComponent(name))
            let outcome = try Maskclean.run(["check", "spec.json", name], in: scratch.url)
            #expect(outcome.status == 65, "\(name)")
            let which = name.hasPrefix("bare") ? "utf-16le" : "utf-16"
            #expect(
                outcome.stderr
                    == "\(name):1: not UTF-8: looks like \(which.uppercased()): try --encoding \(which)\n",
                "\(name): \(outcome.stderr)")
            // Read with it, it passes.
            let read = try Maskclean.run(["check", "spec.json", name, "--encoding", which], in: scratch.url)
            #expect(read.status == 0 || read.status == 1, "\(name): \(read.stderr)")
        }
    }

    /// Regression: every record over the limit was "(an unterminated quote?)", even a plain
    /// 100 MB cell.
    @Test("a record over the limit is called a runaway quote only when it is inside quotes")
    func oversizedRecordMessage() throws {
        let scratch = try scratch()
        let cell = String(repeating: "x", count: 40 << 20)
        _ = try scratch.write("plain.csv", "id,phone\n1," + cell + "\n")
        _ = try scratch.write("quoted.csv", "id,phone\n1,\"" + cell + "\n")
        let plain = try Maskclean.run(["check", "spec.json", "plain.csv"], in: scratch.url)
        #expect(plain.stderr == "plain.csv:2: record longer than 32 MiB\n", "\(plain.stderr)")
        let quoted = try Maskclean.run(["check", "spec.json", "quoted.csv"], in: scratch.url)
        #expect(
            quoted.stderr == "quoted.csv:2: record longer than 32 MiB (a quoted field that never closes?)\n",
            "\(quoted.stderr)")
    }

    /// Regression: a spec starting with a UTF-8 byte-order mark was refused as bad JSON.
    @Test("a spec with a byte-order mark is read like one without")
    func specByteOrderMark() throws {
        let scratch = try scratch()
        _ = try scratch.write("bom.json", "\u{FEFF}" + Self.spec)
        let outcome = try Maskclean.run(["run", "bom.json", "in.csv", "--quiet"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdoutText == OutputSafetyProbeTests.cleaned)
    }

    /// Regression: `0e99999999999` is zero, not "too large to write out".
    @Test("a zero with a huge exponent is masked as 0")
    func zeroWithHugeExponent() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", #"{"columns":[{"name":"n","format":"[0]"}]}"#)
        _ = try scratch.write("in.ndjson", "{\"n\":0e99999999999}\n{\"n\":-0.0E+5}\n")
        let outcome = try Maskclean.run(["run", "spec.json", "in.ndjson", "--quiet"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdoutText
                == """
                {"n":0e99999999999,"n_formatted":"0","n_extracted":"0","n_status":"complete"}
                {"n":-0.0E+5,"n_formatted":"0","n_extracted":"0","n_status":"complete"}

                """)
    }
}

/// Regression: `printf 'phone\n5551234567\n\n5551234567\n'` with `required` and `minComplete: 1`
/// passed `check` with "2 rows": the blank line vanished.
@Suite("Hostile probes: blank lines")
struct BlankLineProbeTests {
    static let spec =
        #"{"columns":[{"name":"phone","format":"+1 ([000]) [000]-[0000]","required":true,"minComplete":1}]}"#

    @Test("in a one-column CSV a blank line is a record with one empty field", arguments: ["\n", "\r\n"])
    func oneColumn(lineEnd: String) throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        _ = try scratch.write(
            "in.csv", ["phone", "5551234567", "", "5551234567", ""].joined(separator: lineEnd))
        let check = try Maskclean.run(["check", "spec.json", "in.csv"], in: scratch.url)
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stderr.contains("3 rows: FAILED"), "\(check.stderr)")
        let run = try Maskclean.run(
            ["run", "spec.json", "in.csv", "--quiet", "--output-format", "ndjson"], in: scratch.url)
        #expect(run.stdoutText.split(separator: "\n").count == 3)
        #expect(
            run.stdoutText.contains(
                #"{"phone":"","phone_formatted":"","phone_extracted":"","phone_status":"empty"}"#))
    }

    @Test("in a CSV of several columns a blank line is skipped, never silently")
    func severalColumns() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Self.spec)
        _ = try scratch.write("in.csv", "id,phone\n1,5551234567\n\n2,5551234567\r\n\r\n3,5551234567\n\n")
        let outcome = try Maskclean.run(
            ["check", "spec.json", "in.csv", "--report", "r.json"], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("3 blank lines skipped (lines 3, 5, 7)"), "\(outcome.stderr)")
        let report =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: scratch.url.appendingPathComponent("r.json"))) as? [String: Any]
        let blank = report?["blankLines"] as? [String: Any]
        #expect(blank?["count"] as? Int == 3)
        #expect(blank?["lines"] as? [Int] == [3, 5, 7])
        #expect(report?["rows"] as? Int == 3)
    }
}
