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
        ]
        var seen: Set<String> = [base]
        for spec in changed {
            let fingerprint = try loadSpec(spec).fingerprint
            #expect(!seen.contains(fingerprint), "\(spec)")
            seen.insert(fingerprint)
        }
    }

    @Test("the canonical text keeps one setting a line, so that no value passes for another setting")
    func canonicalText() throws {
        let text = SpecFingerprint.canonicalText(
            try loadSpec(#"{"columns": [{"name": "a\n  format \"x\"", "format": "[0]"}]}"#))
        #expect(text.contains(#"column "a\n  format \"x\"""#))
        #expect(text.components(separatedBy: "\n  format ").count == 2)
    }
}
