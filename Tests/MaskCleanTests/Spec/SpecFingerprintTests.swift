import Foundation
import TestSupport
import Testing

@testable import MaskClean

@Suite("The spec fingerprint")
struct SpecFingerprintTests {
    static let spec = """
        {"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]",
          "affineFormats": ["[000]-[0000]"], "minComplete": 0.98}]}
        """

    @Test("is sha256: and 64 hex digits, the same on every load")
    func shape() throws {
        let fingerprint = try loadSpec(Self.spec).fingerprint
        #expect(fingerprint.hasPrefix("sha256:"))
        #expect(fingerprint.dropFirst(7).count == 64)
        #expect(fingerprint.dropFirst(7).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(try loadSpec(Self.spec).fingerprint == fingerprint)
    }

    @Test("specs that say the same thing share it: key order, spacing, number spelling, defaults")
    func sameMeaning() throws {
        let fingerprint = try loadSpec(Self.spec).fingerprint
        let twins = [
            // Keys in another order, on other lines.
            """
            {
              "columns": [
                {
                  "minComplete": 0.980,
                  "affineFormats": ["[000]-[0000]"],
                  "format": "+1 ([000]) [000]-[0000]",
                  "name": "phone"
                }
              ]
            }
            """,
            // Every default spelled out.
            """
            {"maxRejected": 0, "minRows": 1, "samples": 5, "notations": [], "columns": [{"name": "phone",
              "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"], "minComplete": 98e-2,
              "syntax": "input-mask", "affinityStrategy": "bestStatus", "autocomplete": true,
              "rightToLeft": false, "required": false, "trim": false, "warnComplete": null,
              "formattedColumn": "phone_formatted", "extractedColumn": "phone_extracted",
              "statusColumn": "phone_status", "placeholderCharacter": "_"}]}
            """,
        ]
        for twin in twins { #expect(try loadSpec(twin).fingerprint == fingerprint, "\(twin)") }
    }

    @Test("any change that could change a cell, a count or a verdict changes it")
    func everyDifferenceCounts() throws {
        let base = try loadSpec(Self.spec).fingerprint
        let column =
            #""name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]""#
        let changed = [
            #"{"columns": [{\#(column)], "minComplete": 0.97}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "warnComplete": 0.99}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "required": true}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "trim": true}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "affinityStrategy": "prefix"}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "statusColumn": null}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "replace": "formatted"}]}"#,
            #"{"samples": 6, "columns": [{\#(column)], "minComplete": 0.98}]}"#,
            #"{"maxRejected": 1, "columns": [{\#(column)], "minComplete": 0.98}]}"#,
            #"{"minRows": 2, "columns": [{\#(column)], "minComplete": 0.98}]}"#,
            #"{"columns": [{"name": "Phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"], "minComplete": 0.98}]}"#,
            #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[000]"], "minComplete": 0.98}]}"#,
            #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]", "minComplete": 0.98}]}"#,
            #"{"notations": [{"character": "D", "characterSet": "0123456789"}], "columns": [{\#(column)], "minComplete": 0.98}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98}, {"name": "zip", "format": "[00000]"}]}"#,
            // A check, its keys and the column rules each make another spec (docs/spec.md#checks).
            #"{"columns": [{\#(column)], "minComplete": 0.98, "check": "luhn"}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "check": "gtin"}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "check": "luhn", "luhnPrefix": "80840"}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "check": "luhn", "maxInvalid": 0.01}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "case": "upper"}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "case": "lower"}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "ignore": " -"}]}"#,
            #"{"columns": [{\#(column)], "minComplete": 0.98, "significant": " -"}]}"#,
            #"{"columns": [{"name": "d", "format": "[00]/[00]/[0000]", "check": "date", "dateOrder": "DMY"}]}"#,
            #"{"columns": [{"name": "d", "format": "[00]/[00]/[0000]", "check": "date", "dateOrder": "MDY"}]}"#,
            #"{"columns": [{"name": "d", "format": "[00]/[00]/[0000]", "check": "date", "dateOrder": "MDY", "normalizedColumn": null}]}"#,
        ]
        var seen: Set<String> = [base]
        for spec in changed {
            let fingerprint = try loadSpec(spec).fingerprint
            #expect(!seen.contains(fingerprint), "\(spec)")
            seen.insert(fingerprint)
        }
    }

    @Test(
        "a spec without the keys of checks, case and separators keeps the fingerprint it had before they existed"
    )
    func unchangedWithoutNewKeys() throws {
        // The fingerprint of this spec (Fixtures/cases/check-required-below-threshold) as maskclean
        // 7f757eb wrote it: reports of last night's runs still merge with tonight's when the spec
        // did not change.
        let spec = #"""
            {"columns": [
              {"name": "phone", "format": "+1 ([000]) [000]-[0000]", "required": true, "minComplete": 0.7},
              {"name": "email_code", "format": "[AAA]-[000]", "minComplete": 0.6}]}
            """#
        let before = "sha256:75d1bba3989af38729f3e7ecc72bbccd86f26a72debe23f2b0623e31c3ca6e53"
        #expect(try loadSpec(spec).fingerprint == before)
        let explicit = #"""
            {"columns": [
              {"name": "phone", "format": "+1 ([000]) [000]-[0000]", "required": true, "minComplete": 0.7,
               "case": "keep", "ignore": "", "significant": "", "normalizedColumn": null},
              {"name": "email_code", "format": "[AAA]-[000]", "minComplete": 0.6}]}
            """#
        #expect(try loadSpec(explicit).fingerprint == before)
    }

    @Test("the canonical text keeps one setting a line, so that no value passes for another setting")
    func canonicalText() throws {
        let text = SpecFingerprint.canonicalText(
            try loadSpec(#"{"columns": [{"name": "a\n  format \"x\"", "format": "[0]"}]}"#))
        #expect(text.contains(#"column "a\n  format \"x\"""#))
        #expect(text.components(separatedBy: "\n  format ").count == 2)
    }
}

/// The SHA-256 under the fingerprint is libmd's: it must agree with an independent implementation,
/// coreutils' sha256sum, on inputs of every length around the 64-byte block and its 56-byte
/// padding boundary, and on large ones.
@Suite("The fingerprint's SHA-256")
struct SpecFingerprintSHA256Tests {
    @Test("FIPS 180-4's examples: \"abc\" and the 448-bit message")
    func knownAnswers() {
        func hex(_ text: String) -> String {
            SpecFingerprint.sha256(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("agrees with sha256sum on 330 inputs, 0 to 300 bytes and up to 3 MB")
    func agreesWithSHA256Sum() throws {
        let folder = try TemporaryFolder()
        var generator = SplitMix64(seed: 0x5EED_F1A6)
        let lengths =
            Array(0...300) + [511, 512, 513, 1023, 1024, 1025, 4095, 4096, 65_535, 65_536, 1_000_000]
            + (0..<18).map { _ in Int(generator.next() % 3_000_000) }
        var paths: [String] = []
        var expected: [String: String] = [:]
        for (index, length) in lengths.enumerated() {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let path = try folder.write("input-\(index)", bytes)
            paths.append(path)
            expected[path] = SpecFingerprint.sha256(bytes).map { String(format: "%02x", $0) }.joined()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum"] + paths
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = text.split(separator: "\n")
        #expect(lines.count == lengths.count)
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1)
            let path = String(parts[1].drop(while: { $0 == " " || $0 == "*" }))
            #expect(expected[path] == String(parts[0]), "\(path)")
        }
    }
}
