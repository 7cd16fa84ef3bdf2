import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// docs/spec.md, "Specs in YAML": a `.yaml` or `.yml` spec has the keys, defaults and checks of a
/// JSON spec; its messages name the line; YAML that would surprise is refused.
@Suite("Spec loader: YAML")
struct SpecLoaderYAMLTests {
    /// A YAML spec of one column `phone`, with `extra` lines (indented as its keys) after `format`.
    func column(_ extra: String...) -> String {
        (["columns:", "  - name: phone", "    format: \"+1 ([000]) [000]-[0000]\""]
            + extra.map { "    " + $0 })
            .joined(separator: "\n") + "\n"
    }

    func yamlError(_ yaml: String, file: String = "spec.yaml") -> String? {
        specError(yaml, file: file)
    }

    // MARK: The same spec as JSON

    @Test("a YAML spec reads as its JSON twin: every value, default and the fingerprint")
    func sameAsJSON() throws {
        let yaml = try loadSpec(
            """
            # Phones and cards, as the export writes them.
            maxRejected: 10
            minRows: 100
            samples: 3
            notations:
              - {character: "#", characterSet: "0123456789", isOptional: true}
            columns:
              - name: phone
                format: "+1 ([000]) [000]-[0000]"
                affineFormats:
                  - "[000]-[0000]"
                  - '+[0] [000] [000] [0000]'
                affinityStrategy: capacity
                minComplete: 0.98
                warnComplete: 0.995
                trim: true
                formattedColumn: phone_clean
                extractedColumn: null
                statusColumn: ~
              - name: code
                syntax: akmask
                format: "AAA-000"
                template: "___-___"
                required: true
            """, file: "spec.yaml")
        let json = try loadSpec(
            """
            {"maxRejected": 10, "minRows": 100, "samples": 3,
             "notations": [{"character": "#", "characterSet": "0123456789", "isOptional": true}],
             "columns": [
              {"name": "phone", "format": "+1 ([000]) [000]-[0000]",
               "affineFormats": ["[000]-[0000]", "+[0] [000] [000] [0000]"], "affinityStrategy": "capacity",
               "minComplete": 0.98, "warnComplete": 0.995, "trim": true, "formattedColumn": "phone_clean",
               "extractedColumn": null, "statusColumn": null},
              {"name": "code", "syntax": "akmask", "format": "AAA-000", "template": "___-___", "required": true}]}
            """)
        #expect(yaml.fingerprint == json.fingerprint)
        #expect(SpecFingerprint.canonicalText(yaml) == SpecFingerprint.canonicalText(json))
        #expect(yaml.columns[0].affinityStrategy == .capacity)
        #expect(yaml.columns[0].minComplete == 0.98)
        #expect(yaml.columns[0].formattedColumn == "phone_clean")
        #expect(yaml.columns[0].extractedColumn == nil)
        #expect(yaml.columns[0].statusColumn == nil)
        #expect(yaml.columns[0].syntaxOptions.notations.map(\.character) == ["#"])
        #expect(yaml.columns[1].syntax == .akmask)
        #expect(yaml.maxRejected == 10 && yaml.minRows == 100 && yaml.samples == 3)
        #expect(yaml.file == "spec.yaml")
    }

    @Test(".yaml and .yml in any case are YAML; other names JSON; stdin YAML unless it starts with {")
    func whichReader() {
        #expect(SpecLoader.isYAML([], file: "spec.yaml"))
        #expect(SpecLoader.isYAML([], file: "conf/Spec.YML"))
        #expect(!SpecLoader.isYAML([], file: "spec.json"))
        #expect(!SpecLoader.isYAML([], file: "spec.yaml.json"))
        #expect(!SpecLoader.isYAML([], file: "spec"))
        #expect(!SpecLoader.isYAML(Array(" \n {\"columns\": []}".utf8), file: "-"))
        #expect(SpecLoader.isYAML(Array("columns:\n".utf8), file: "-"))
        #expect(SpecLoader.isYAML(Array("# a comment\n{}".utf8), file: "-"))
        // The same text is read by the reader its name says.
        #expect(yamlError("columns: []", file: "-") == "-:1: columns: expected at least one column")
        #expect(
            yamlError("{\"columns\": []}", file: "-") == "-: columns: expected at least one column")
        #expect(
            yamlError("columns: []", file: "spec.json")?.hasPrefix("spec.json: line 1, column 1:") == true)
    }

    @Test("a byte-order mark, comments, flow style, anchors and aliases are fine")
    func yamlFeatures() throws {
        let spec = try loadSpec(
            "\u{FEFF}# Two columns that share their formats.\n"
                + """
                columns: # the columns to mask
                  - {name: phone, format: &phone "[000]-[0000]", affineFormats: &more ["[0000000]"]}
                  - name: fax
                    format: *phone
                    affineFormats: *more
                """, file: "spec.yml")
        #expect(spec.columns.map(\.format) == ["[000]-[0000]", "[000]-[0000]"])
        #expect(spec.columns[1].affineFormats == ["[0000000]"])
    }

    @Test("a merge key (<<) adds an anchored mapping's keys that the column does not write")
    func mergeKeys() throws {
        let spec = try loadSpec(
            """
            columns:
              - &phone
                name: phone
                format: "+1 ([000]) [000]-[0000]"
                minComplete: 0.9
                trim: true
              - <<: *phone
                name: fax
                minComplete: 0.5
            """, file: "spec.yaml")
        #expect(spec.columns[1].name == "fax")
        #expect(spec.columns[1].format == "+1 ([000]) [000]-[0000]")
        #expect(spec.columns[1].minComplete == 0.5)
        #expect(spec.columns[1].trim)
        // A merged key that the loader does not know is named at its own line.
        #expect(
            yamlError(
                """
                columns:
                  - <<: &defaults
                      colour: red
                    name: phone
                    format: "[0]"
                """)
                == #"spec.yaml:3: columns[0] "phone": unknown key "colour""#)
        #expect(
            yamlError("columns:\n  - <<: [1]\n    name: a\n    format: \"[0]\"\n")
                == "spec.yaml:2: << merges mappings, not a scalar")
    }

    // MARK: Messages name the line

    @Test("every message names the file, the line and the key path")
    func lines() {
        #expect(
            yamlError(column("affinityStrategy: capacty"))
                == #"spec.yaml:4: columns[0] "phone": affinityStrategy: expected one of "bestStatus", "wholeString", "prefix", "capacity", "extractedValueCapacity", got "capacty"; did you mean "capacity"?"#
        )
        #expect(
            yamlError(column("formt: x"))
                == #"spec.yaml:4: columns[0] "phone": unknown key "formt" (did you mean "format"?)"#)
        #expect(
            yamlError("columns:\n  - name: phone\n    format: \"[000\"\n")
                == #"spec.yaml:3: columns[0] "phone": format: '[' at offset 0 is never closed"#)
        #expect(
            yamlError(column("affineFormats:", "  - \"[0]\"", "  - \"[0\""))
                == #"spec.yaml:6: columns[0] "phone": affineFormats[1]: '[' at offset 0 is never closed"#)
        #expect(
            yamlError("samples: 5\n")
                == #"spec.yaml:1: missing key "columns": a spec lists the columns to mask"#)
        #expect(
            yamlError("columns:\n  - format: \"[0]\"\n")
                == #"spec.yaml:2: columns[0]: missing key "name": the input column to mask"#)
        #expect(
            yamlError(column("minComplete: 95"))
                == #"spec.yaml:4: columns[0] "phone": minComplete is a fraction from 0 to 1, got 95; did you mean 0.95?"#
        )
        #expect(
            yamlError(column("minComplete: 0.9", "warnComplete: 0.5"))
                == #"spec.yaml:5: columns[0] "phone": warnComplete is a fraction from minComplete (0.9) to 1, got 0.5"#
        )
        #expect(
            yamlError(column("syntax: maskara", "rightToLeft: true"))
                == #"spec.yaml:5: columns[0] "phone": rightToLeft: only for syntax "input-mask", not "maskara""#
        )
        #expect(
            yamlError(
                column("formattedColumn: out")
                    + "  - name: card\n    format: \"[0]\"\n    statusColumn: out\n")
                == #"spec.yaml:7: columns[1] "card": statusColumn: "out" is already the name of columns[0] "phone" formattedColumn"#
        )
        #expect(
            yamlError("samples: 5000\ncolumns:\n  - name: a\n    format: \"[0]\"\n")
                == "spec.yaml:1: samples: expected a whole number from 0 to 1000, got 5000")
        #expect(
            yamlError(
                "notations:\n  - character: \"#\"\n    characterSet: \"0\"\n  - character: \"#\"\n    characterSet: \"1\"\ncolumns:\n  - name: a\n    format: \"[0]\"\n"
            ) == "spec.yaml:2: notations: notation '#' is declared twice (notations[0] and notations[1])")
        #expect(
            yamlError(
                "columns:\n  - name: a\n    format: \"[0]\"\n    notations:\n      - characterSet: \"0\"\n")
                == #"spec.yaml:5: columns[0] "a": notations[0]: missing key "character""#)
    }

    // MARK: Surprises refused

    @Test(
        "a plain scalar that YAML reads as a number, boolean, null or date where a string is wanted: quote it"
    )
    func plainScalarsThatAreNotStrings() {
        #expect(
            yamlError("columns:\n  - name: zip\n    format: 0000\n")
                == #"spec.yaml:3: columns[0] "zip": format: expected a string, got 0000, which YAML reads as a number; quote it: "0000""#
        )
        #expect(
            yamlError("columns:\n  - name: no\n    format: \"[0]\"\n")
                == #"spec.yaml:2: columns[0]: name: expected a string, got no, which YAML reads as a boolean; quote it: "no""#
        )
        for (written, readsAs) in [
            ("yes", "a boolean"), ("on", "a boolean"), ("Off", "a boolean"), ("true", "a boolean"),
            ("~", "null"), ("null", "null"), ("1e3", "a number"), ("12", "a number"), ("0x1F", "a number"),
            ("-.5", "a number"), (".inf", "a number"), ("2024-01-31", "a date"),
        ] {
            #expect(
                yamlError("columns:\n  - name: \(written)\n    format: \"[0]\"\n")
                    == #"spec.yaml:2: columns[0]: name: expected a string, got \#(written), which YAML reads as \#(readsAs); quote it: "\#(written)""#
            )
        }
        #expect(
            yamlError("columns:\n  - name: phone\n    format:\n")
                == #"spec.yaml:3: columns[0] "phone": format: expected a string, got nothing, which YAML reads as null; quote it: """#
        )
        #expect(
            yamlError(column("placeholderCharacter: 0"))
                == #"spec.yaml:4: columns[0] "phone": placeholderCharacter: expected a string, got 0, which YAML reads as a number; quote it: "0""#
        )
        #expect(
            yamlError(column("affinityStrategy: on"))
                == #"spec.yaml:4: columns[0] "phone": affinityStrategy: expected a string, got on, which YAML reads as a boolean; quote it: "on""#
        )
        // Quoted, each is the string it says; so is a value tagged !!str.
        for quoted in ["\"0000\"", "'no'", "\"~\"", "!!str 1e3", "'2024-01-31'"] {
            #expect(yamlError("columns:\n  - name: \(quoted)\n    format: \(quoted)\n") == nil, "\(quoted)")
        }
    }

    @Test("booleans are true or false; yes, no, on and off are refused, since YAML readers differ")
    func booleans() throws {
        #expect(try loadSpec(column("autocomplete: false", "trim: True"), file: "s.yaml").columns[0].trim)
        #expect(
            yamlError(column("autocomplete: no"))
                == #"spec.yaml:4: columns[0] "phone": autocomplete: expected true or false, got no; write false (YAML readers differ on no)"#
        )
        #expect(
            yamlError(column("required: \"true\""))
                == #"spec.yaml:4: columns[0] "phone": required: expected true or false, got the string "true""#
        )
    }

    @Test("numbers are decimal, as in JSON: 0.98, 12, 1e3; 0777, 0x1F, 1_000 and .inf are refused")
    func numbers() throws {
        let spec = try loadSpec(
            "maxRejected: 1e3\nminRows: 12\ncolumns:\n  - name: a\n    format: \"[0]\"\n    minComplete: .98\n",
            file: "s.yaml")
        #expect(spec.maxRejected == 1000 && spec.minRows == 12)
        #expect(spec.columns[0].minComplete == 0.98)
        for written in ["0777", "0x1F", "1_000", "0o17", "1:30", ".inf"] {
            #expect(
                yamlError("maxRejected: \(written)\ncolumns:\n  - name: a\n    format: \"[0]\"\n")
                    == "spec.yaml:1: maxRejected: expected a decimal number, got \(written): write it in decimal, as 12 or 0.98",
                "\(written)")
        }
        #expect(
            yamlError(column("minComplete: .nan"))
                == #"spec.yaml:4: columns[0] "phone": minComplete: expected a decimal number, got .nan: write it in decimal, as 12 or 0.98"#
        )
        #expect(
            yamlError(column("minComplete: \"0.9\""))
                == #"spec.yaml:4: columns[0] "phone": minComplete: expected a number from 0 to 1, got the string "0.9""#
        )
        #expect(
            yamlError("maxRejected: -1\ncolumns:\n  - name: a\n    format: \"[0]\"\n")
                == "spec.yaml:1: maxRejected: expected a whole number of records from 0 to 9007199254740991, got -1"
        )
    }

    @Test("a key written twice, a tag, a second document, a root that is not a mapping: refused")
    func structure() {
        #expect(
            yamlError(column("trim: true", "trim: false"))
                == #"spec.yaml:4: key "trim" written twice in one mapping (the first is on this line): YAML would keep one silently"#
        )
        #expect(
            yamlError(column("format: \"[0]\""))
                == #"spec.yaml:3: key "format" written twice in one mapping (the first is on this line): YAML would keep one silently"#
        )
        // A key is its text, quoted or not, and the first of several keys written twice is named
        // where it is first written, in sorted order: `b` and `a` twice give a and b, at a's line.
        #expect(
            yamlError("columns: []\n\"columns\": []\n")
                == #"spec.yaml:1: key "columns" written twice in one mapping (the first is on this line): YAML would keep one silently"#
        )
        #expect(
            yamlError("b: 1\na: 2\nb: 3\na: 4\ncolumns: []\n")
                == #"spec.yaml:2: key "a", "b" written twice in one mapping (the first is on this line): YAML would keep one silently"#
        )
        #expect(
            yamlError(column("template: !!binary aGVsbG8="))
                == "spec.yaml:4: the tag !!binary is not part of a spec: write the value without it")
        #expect(
            yamlError("columns: !!set {a, b}\n")
                == "spec.yaml:1: the tag !!set is not part of a spec: write the value without it")
        #expect(
            yamlError(column("minComplete: !!float 0.5"))
                == "spec.yaml:4: the tag !!float is not part of a spec: write the value without it")
        #expect(
            yamlError(column() + "---\ncolumns: []\n")
                == "spec.yaml:5: a second YAML document (after ---): a spec is one document")
        #expect(
            yamlError("- name: phone\n  format: \"[0]\"\n")
                == #"spec.yaml:1: the document is a sequence, not a mapping: a spec is a mapping with the key "columns""#
        )
        #expect(
            yamlError("phone\n")
                == #"spec.yaml:1: the document is a scalar, not a mapping: a spec is a mapping with the key "columns""#
        )
        #expect(
            yamlError("# nothing yet\n")
                == #"spec.yaml:1: no YAML document: a spec is a mapping with the key "columns""#)
        #expect(
            yamlError("columns:\n  - ? [a]\n    : x\n")
                == "spec.yaml:2: a key that is a sequence: keys are names")
        #expect(
            yamlError("columns:\n  - name: *nowhere\n")?.hasPrefix(
                "spec.yaml:2: column 11: found undefined alias") == true)
    }

    @Test("bad YAML names the line and column, and what the parser expected")
    func syntax() {
        #expect(
            yamlError("columns:\n  - name: phone\n   format: \"[0]\"\n")
                == "spec.yaml:3: column 4: did not find expected '-' indicator (while parsing a block collection, line 2)"
        )
        #expect(
            yamlError("columns: [{name: a, format: \"[0]\"\n")
                == "spec.yaml:2: column 1: did not find expected ',' or '}' (while parsing a flow mapping, line 1)"
        )
        #expect(
            yamlError("columns:\n\t- name: a\n")
                == "spec.yaml:2: column 1: found character that cannot start any token (while scanning for the next token, line 2)"
        )
        #expect(yamlError("columns: \"a\u{1}\"\n")?.hasPrefix("spec.yaml:1: ") == true)
    }

    @Test("a format written unquoted that starts with [ or { gets a hint to quote it")
    func flowHints() {
        #expect(
            yamlError("columns:\n  - name: zip\n    format: [00000]-[9999]\n")
                == #"spec.yaml:3: column 20: did not find expected key (while parsing a block mapping, line 2); a value that starts with [ is a YAML list or mapping: quote it, as "[00000]-[9999]""#
        )
        #expect(
            yamlError("columns:\n  - name: zip\n    format: [00000]\n")
                == #"spec.yaml:3: columns[0] "zip": format: expected a string, got an array (YAML reads an unquoted value that starts with [ or { as one: quote it)"#
        )
        // JSON says nothing of YAML.
        #expect(
            specError(#"{"columns":[{"name":"zip","format":["[00000]"]}]}"#)
                == #"spec.json: columns[0] "zip": format: expected a string, got an array"#)
    }

    @Test("bytes that are not UTF-8 name their line")
    func notUTF8() {
        var bytes = Array("columns:\n  - name: a\n    format: \"[0]\"\n    template: \"".utf8)
        bytes += [0xFF, 0x22, 0x0A]
        do {
            _ = try SpecLoader.parse(bytes, file: "spec.yaml")
            Issue.record("a spec that is not UTF-8 loaded")
        } catch {
            #expect(
                error.message == "spec.yaml:4: not UTF-8 (byte 55 of the file): a YAML spec is UTF-8 text")
            #expect(error.status == .config)
        }
    }

    @Test("aliases that expand beyond reason and nesting beyond the limit are refused, not followed")
    func limits() {
        var laughs =
            "a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
        for level in 1...8 {
            laughs +=
                "a\(level): &a\(level) ["
                + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        laughs += "columns: *a8\n"
        #expect(
            yamlError(laughs)?.hasSuffix("more than 250000 values once its aliases are expanded") == true,
            "\(yamlError(laughs) ?? "loaded")")
        let deep =
            "columns: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "\n"
        #expect(yamlError(deep) == "spec.yaml:1: nested more than 512 deep")
        // A sequence a `- `: 600 of them under the root mapping are 601 levels.
        let dashes = "columns:\n  " + String(repeating: "- ", count: 600) + "x\n"
        #expect(yamlError(dashes) == "spec.yaml:2: nested more than 512 deep")
    }

    @Test("a YAML spec file loads from its path, and its errors name the path and line")
    func loadFromPath() throws {
        let folder = try TemporaryFolder()
        let good = try folder.write("spec.yml", "columns:\n  - name: phone\n    format: \"[000]\"\n")
        #expect(try SpecLoader.load(path: good).columns[0].name == "phone")
        let bad = try folder.write("bad.yaml", "columns:\n  - name: phone\n    formt: x\n")
        do {
            _ = try SpecLoader.load(path: bad)
            Issue.record("a bad spec loaded")
        } catch {
            #expect(
                error.message
                    == #"\#(bad):3: columns[0] "phone": unknown key "formt" (did you mean "format"?)"#)
            #expect(error.status == .config)
        }
    }
}
