import Foundation
import Testing

@testable import MaskClean

/// What a plain YAML scalar reads as (docs/spec.md#yaml) decides which scalars a spec refuses
/// where it wants a string. The oracle is PyYAML (Debian's python3-yaml, which `make test-deps`
/// installs), the YAML 1.1 reader most data engineers' tools use: every scalar it reads as a
/// boolean, a number, null or a date, ours reads as the same. Ours reads a few more as numbers,
/// as YAML 1.2 readers do (`1e3`, `1.0e3`, `08`, `0o17`): refusing those too is the safe side.
@Suite("YAML's plain scalars")
struct YAMLResolverTests {
    /// Scalars near every rule's edges, and random ones from the characters the rules use.
    static func corpus() -> [String] {
        var scalars = [
            "yes", "Yes", "YES", "yES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "n",
            "true",
            "True", "TRUE", "tRUE", "false", "~", "null", "Null", "NULL", "nULL", "", "0", "-0", "+0", "00",
            "007",
            "08", "0777", "0o17", "0b101", "0b102", "0x1F", "0x1g", "1_000", "1__0", "12", "-12", "+12",
            "1.5",
            "1.", ".5", "-.5", "+.5", "1e3", "1e+3", "1.0e3", "1.0e+3", ".5e+3", ".5e3", ".inf", "-.inf",
            "+.Inf",
            ".INF", ".nan", ".NaN", ".NAN", "-.nan", "1:30", "190:20:30", "1:60", "1:30.5", "-1:30",
            "2001-12-14",
            "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-14T21:59:43Z", "2001-1-1",
            "2001-01-01 1:02:03", "2001-13-45", "20011214", "0000", "00501", "+1 555", "555-1234",
            "(555) 123",
            "[000]-[0000]", "=", "<<", "abc", "N/A", "-", "--", ".", "1.2.3", "1,000", "0.98", "1E3", "1e",
        ]
        var random = SplitMix64(seed: 31)
        let alphabet = Array("0123456789-+._:eExobaflnuTFYNyst ~Z")
        for _ in 0..<3000 {
            scalars.append(
                String(
                    (0..<Int.random(in: 1...8, using: &random)).map { _ in
                        alphabet.randomElement(using: &random)!
                    }))
        }
        // Leading and trailing spaces are not part of a plain scalar.
        return scalars.filter { $0.trimmingCharacters(in: .whitespaces) == $0 }
    }

    /// PyYAML's reading of each scalar, plain, as a mapping's value: bool, int, float, null,
    /// date (timestamp) or str.
    static func pyyamlReadings(_ scalars: [String]) throws -> [String] {
        let script = """
            import json, sys, datetime, yaml
            for line in sys.stdin:
                text = json.loads(line)
                try:
                    value = yaml.safe_load("v: " + text)["v"]
                except Exception:
                    print("error"); continue
                kind = {bool: "bool", int: "int", float: "float", type(None): "null", str: "str"}.get(type(value))
                if isinstance(value, (datetime.date, datetime.datetime)): kind = "timestamp"
                print(kind or type(value).__name__)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let lines = scalars.map { text in
            String(
                decoding: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]),
                as: UTF8.self)
        }
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0, "python3 with PyYAML (python3-yaml; make test-deps installs it)")
        return text.split(separator: "\n").map(String.init)
    }

    @Test("whatever PyYAML reads as a boolean, number, null or date, ours reads the same; 3,000+ scalars")
    func agreesWithPyYAML() throws {
        let scalars = Self.corpus()
        let theirs = try Self.pyyamlReadings(scalars)
        try #require(theirs.count == scalars.count)
        var extra: [String] = []
        for (text, their) in zip(scalars, theirs) where their != "error" {
            let ours = YAMLResolver.reading(ofPlain: text)
            let name: String
            switch ours {
            case .bool: name = "bool"
            case .int: name = "int"
            case .float: name = "float"
            case .null: name = "null"
            case .timestamp: name = "timestamp"
            default: name = "str"
            }
            if their == "str" {
                if name != "str" { extra.append(text) }
                continue
            }
            #expect(name == their, "\(text): PyYAML reads \(their), ours \(name)")
        }
        // Ours reads more as numbers only where YAML 1.2 does: exponents without a point or a
        // sign (1e3, 1.0e3), decimals with leading zeros (08), 0o octal, sexagesimal floats.
        let yaml12Numbers =
            /[-+]?[0-9][0-9_]*(\.[0-9_]*)?[eE][-+]?[0-9]+|\.[0-9_]+[eE][-+]?[0-9]+|[-+]?0o?[0-9_]+|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*/
        for text in extra {
            #expect(
                text.wholeMatch(of: yaml12Numbers) != nil,
                "\(text): ours reads it as \(YAMLResolver.reading(ofPlain: text)), PyYAML as a string")
        }
    }

    @Test("a spec refuses 0777, 1e3, no and ~ where it wants a string, and reads \"0777\" quoted")
    func refusedWhereAStringIsWanted() throws {
        for plain in ["0777", "1e3", "no", "~", "0o17"] {
            let message = specError("columns:\n  - name: a\n    format: \(plain)\n", file: "spec.yaml")
            #expect(message?.hasPrefix("spec.yaml:3: ") == true, "\(plain): \(message ?? "loaded")")
        }
        #expect(specError("columns:\n  - name: a\n    format: \"0777\"\n", file: "spec.yaml") == nil)
    }
}
