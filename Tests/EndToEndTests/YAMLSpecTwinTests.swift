import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// A JSON spec written again as YAML, block style, every string quoted (docs/spec.md, "Specs in
/// YAML"): keys that are plain names stay plain, numbers keep the text they were written with.
enum YAMLTwin {
    static func yaml(fromJSON bytes: [UInt8]) throws -> String {
        let root = try bytes.withUnsafeBufferPointer { try JSONNode.parse($0) }
        return "# Written by YAMLSpecTwinTests from a JSON spec.\n"
            + lines(root, indent: "").joined(separator: "\n")
            + "\n"
    }

    /// The lines of `node` as a block value at `indent`; a scalar or an empty collection is one
    /// line with no indentation, for the caller to put after its key or dash.
    static func lines(_ node: JSONNode, indent: String) -> [String] {
        switch node {
        case .object(let pairs, _) where !pairs.isEmpty:
            return pairs.flatMap { pair in
                let key = indent + self.key(pair.key) + ":"
                if isBlock(pair.value) { return [key] + lines(pair.value, indent: indent + "  ") }
                return [key + " " + lines(pair.value, indent: "")[0]]
            }
        case .array(let elements, _) where !elements.isEmpty:
            return elements.flatMap { element in
                guard isBlock(element) else { return [indent + "- " + lines(element, indent: "")[0]] }
                // The element's first line goes after the dash; the rest keep its indentation.
                var nested = lines(element, indent: indent + "  ")
                if case .object = element {
                    nested[0] = indent + "- " + nested[0].dropFirst(indent.count + 2)
                    return nested
                }
                return [indent + "-"] + nested
            }
        case .object: return ["{}"]
        case .array: return ["[]"]
        case .string(let text, _): return [quoted(text)]
        case .number(_, let text, _): return [text]
        case .bool(let value, _): return [value ? "true" : "false"]
        case .null: return ["null"]
        }
    }

    static func isBlock(_ node: JSONNode) -> Bool {
        switch node {
        case .object(let pairs, _): !pairs.isEmpty
        case .array(let elements, _): !elements.isEmpty
        default: false
        }
    }

    /// A key as a plain scalar when it is a name (`format`), else quoted.
    static func key(_ text: String) -> String {
        text.wholeMatch(of: /[A-Za-z][A-Za-z0-9]*/) != nil ? text : quoted(text)
    }

    /// A YAML double-quoted scalar: `\` and `"` escaped, and every character YAML would not keep
    /// as it is (controls, line and paragraph separators, a byte-order mark) written as `\u`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x22: out += "\\\""
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Every fixture run whose spec is JSON runs again with the spec written as YAML, and must do
/// exactly what it did: the same exit status, and the same bytes on stdout, in every output and
/// report (whose `specFingerprint` is the same for both forms), and in its messages. Where an
/// output names the spec (an HTML report) or a message names its place, the YAML twin's name and
/// line stand where the JSON spec's name stands.
@Suite("YAML specs: every fixture spec as YAML")
struct YAMLSpecTwinTests {
    /// The fixture cases that read a JSON spec (`run`, `check`, `merge`), and the index of the spec
    /// in their arguments.
    static let cases: [FixtureCase] = FixtureCase.all.filter { specIndex($0) != nil }

    /// (A case whose spec is missing, `spec-missing`, has nothing to write as YAML.)
    static func specIndex(_ testCase: FixtureCase) -> Int? {
        guard testCase.args.count > 1, ["run", "check", "merge"].contains(testCase.args[0]),
            testCase.args[1].hasSuffix(".json"),
            FileManager.default.fileExists(
                atPath: testCase.directory.appendingPathComponent(testCase.args[1]).path)
        else { return nil }
        return 1
    }

    @Test("most fixture cases read a JSON spec, and every one of them has a YAML twin")
    func casesExist() throws {
        #expect(Self.cases.count >= 60)
        for testCase in Self.cases {
            let spec = testCase.directory.appendingPathComponent(testCase.args[1])
            let yaml = try YAMLTwin.yaml(fromJSON: Array(try Data(contentsOf: spec)))
            #expect(yaml.contains("columns:"), "\(testCase.name)")
        }
    }

    @Test(arguments: cases)
    func twin(_ testCase: FixtureCase) throws {
        let index = try #require(Self.specIndex(testCase))
        let jsonSpec = testCase.args[index]
        let twinFolder = try TemporaryFolder()
        let yaml = try YAMLTwin.yaml(
            fromJSON: Array(try Data(contentsOf: testCase.directory.appendingPathComponent(jsonSpec))))
        let yamlSpec = try twinFolder.write("spec.yaml", yaml)

        let json = try run(testCase, spec: nil)
        let twin = try run(testCase, spec: (index, yamlSpec))
        #expect(twin.status == json.status, "YAML:\n\(yaml)\nstderr: \(twin.stderr)")

        // The twin's name, with its line when a message gives one, in place of the JSON spec's.
        let twinName = try Regex(NSRegularExpression.escapedPattern(for: yamlSpec) + "(:[0-9]+)?")
        func normalized(_ text: String) -> String {
            text.replacing(twinName, with: jsonSpec).replacingOccurrences(
                of: twin.scratch, with: json.scratch)
        }
        #expect(normalized(twin.stderr) == json.stderr, "YAML:\n\(yaml)")
        #expect(
            normalized(String(decoding: twin.stdout, as: UTF8.self))
                == String(decoding: json.stdout, as: UTF8.self))
        #expect(twin.files.keys.sorted() == json.files.keys.sorted())
        for (name, bytes) in json.files {
            // When each run started and how long it took differ; nothing else may.
            var twinText = untimed(normalized(String(decoding: twin.files[name] ?? [], as: UTF8.self)))
            var jsonText = untimed(String(decoding: bytes, as: UTF8.self))
            if jsonText.contains(#""error": {"status": 78,"#) {
                // A YAML spec's error names its line, where a JSON spec's has its place in the message.
                twinText = twinText.replacing(#/"line": [0-9]+\}/#, with: #""line": null}"#)
            }
            if let pattern = testCase.varies?[name] {
                let regex = try Regex(pattern)
                twinText = twinText.replacing(regex, with: "VARIES")
                jsonText = jsonText.replacing(regex, with: "VARIES")
            }
            #expect(twinText == jsonText, "\(name) differs with the YAML spec")
            if name.hasSuffix(".json"), jsonText.contains("\"specFingerprint\"") {
                // The same spec, however written: the same fingerprint, byte for byte.
                let fingerprint = #/"specFingerprint": [^\n]*/#
                let twinFingerprint = String(decoding: twin.files[name] ?? [], as: UTF8.self).firstMatch(
                    of: fingerprint)?.output
                #expect(twinFingerprint == jsonText.firstMatch(of: fingerprint)?.output, "\(name)")
            }
        }
    }

    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
        var scratch: String
        var files: [String: [UInt8]]
    }

    /// Runs the case as its `case.json` says, with `spec` (an index in its arguments, and a path)
    /// in place of its own when given; returns what it wrote in its scratch folder.
    func run(_ testCase: FixtureCase, spec: (index: Int, path: String)?) throws -> Run {
        let scratch = try TemporaryFolder()
        let outcome = try testCase.run(writingTo: scratch, replacing: spec.map { ($0.index, $0.path) })
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: scratch.url.path) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: scratch.path(name), isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            files[name] = try scratch.read(name)
        }
        return Run(
            status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderr, scratch: scratch.url.path,
            files: files)
    }
}
