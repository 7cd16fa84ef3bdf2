import TestSupport
import Testing

@testable import MaskClean

/// docs/spec.md, "Specs in YAML": how deep a YAML spec nests and how many values it holds are
/// counted with what its aliases bring in, before any tree is built, so that a few lines of
/// aliases are refused with their line (78) instead of overflowing the stack; and a scalar keeps
/// every character it was written with.
@Suite("YAML spec: bounds and exact scalars")
struct YAMLSpecBoundsTests {
    /// `a0: &a0 [x]`, then `count` lines that each wrap the one before in `brackets` levels.
    static func chain(_ count: Int, brackets: Int = 1) -> String {
        var yaml = "a0: &a0 [x]\n"
        for level in 1...count {
            yaml +=
                "a\(level): &a\(level) " + String(repeating: "[", count: brackets) + "*a\(level - 1)"
                + String(repeating: "]", count: brackets) + "\n"
        }
        return yaml + "columns: *a\(count)\n"
    }

    /// The billion laughs: each line is ten of the line before, `levels` lines in all.
    static func laughs(levels: Int) -> String {
        var yaml = "a0: &a0 [" + Array(repeating: "\"lol\"", count: 10).joined(separator: ", ") + "]\n"
        for level in 1...levels {
            yaml +=
                "a\(level): &a\(level) ["
                + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        return yaml
    }

    @Test("50,000 chained aliases are refused at the line where they pass 512 levels")
    func chainedAliases() {
        // a_k's value is a sequence (level 1) around a_(k-1), which is k + 1 levels: a510's
        // deepest value is at level 512, one past the limit.
        #expect(
            specError(Self.chain(50_000), file: "spec.yaml") == "spec.yaml:511: nested more than 512 deep")
    }

    @Test("chained aliases that each add several levels are refused at their line")
    func deepPerLevel() {
        // Each line adds 4 levels: a128's alias reaches level 1 + 4 + 4 × 127 + 1 = 514.
        #expect(
            specError(Self.chain(50_000, brackets: 4), file: "spec.yaml")
                == "spec.yaml:129: nested more than 512 deep")
        // Just under the limit, the spec loads as far as what it says.
        #expect(specError(Self.chain(120, brackets: 4), file: "spec.yaml")?.contains("nested") == false)
    }

    @Test("aliases that expand to billions of values are refused at the line where they pass the limit")
    func billionLaughs() {
        // a5 is 1,111,111 values once expanded (a4, 111,111, is within the bound).
        #expect(
            specError(Self.laughs(levels: 9) + "columns: *a9\n", file: "spec.yaml")
                == "spec.yaml:6: more than 250000 values once its aliases are expanded")
    }

    @Test("an alias as a mapping key counts for all it brings in, wide or deep")
    func aliasAsKey() {
        // a0 to a3 are 12,348 values with their keys; 22 a3 (11,111 each) in one key pass 250,000.
        #expect(
            specError(
                Self.laughs(levels: 3) + "columns:\n  ? ["
                    + Array(repeating: "*a3", count: 22).joined(separator: ", ")
                    + "]\n  : x\n", file: "spec.yaml")
                == "spec.yaml:6: more than 250000 values once its aliases are expanded")
        // 510 levels are fine where they are written, one level below the key's, not two.
        let deep =
            "a: &deep " + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "\n"
        #expect(
            specError(deep + "b:\n  - ? *deep\n    : x\n", file: "spec.yaml")
                == "spec.yaml:3: nested more than 512 deep")
        #expect(specError(deep + "b:\n  ? *deep\n  : x\n", file: "spec.yaml")?.contains("nested") == false)
    }

    /// The probe of the fixes: past libyaml's own bound (1,000 flow levels) its message came
    /// instead, quoting the whole value (200 KB on one line for 100,000 levels).
    @Test("flow nesting past libyaml's own bound is refused with the same message, in one short line")
    func flowNestingPastLibYAML() {
        for levels in [1_100, 100_000] {
            let deep =
                "columns: " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
                + "\n"
            #expect(specError(deep, file: "spec.yaml") == "spec.yaml:1: nested more than 512 deep")
        }
        let long = "columns:\n  - name: x\n    format: [" + String(repeating: "0", count: 5_000) + "]x\n"
        let message = specError(long, file: "spec.yaml") ?? ""
        #expect(message.contains("quote it, as \"[0000") && message.count < 400, "\(message.prefix(500))")
    }

    @Test("a spec indented deeper than 512 columns but nested shallow loads")
    func indentationIsNotDepth() throws {
        let indent = String(repeating: " ", count: 600)
        let spec = try loadSpec(
            "columns:\n\(indent)- name: phone\n\(indent)  format: \"[000]\"\n", file: "spec.yaml")
        #expect(spec.columns.map(\.name) == ["phone"])
    }

    @Test(
        "a name that starts with U+FEFF keeps it, quoted either way, escaped or written, or plain",
        arguments: [
            #""\uFEFF\uFEFFid""#, "\"\u{FEFF}\u{FEFF}id\"", "'\u{FEFF}\u{FEFF}id'", "\u{FEFF}\u{FEFF}id",
            #""\uFEFFid""#, "'\u{FEFF}id'",
        ])
    func byteOrderMarkKept(name: String) throws {
        let yaml = "columns:\n  - name: \(name)\n    format: \"[000]\"\n"
        let expected =
            name.contains("FEFF\\uFEFF") || name.contains("\u{FEFF}\u{FEFF}")
            ? "\u{FEFF}\u{FEFF}id" : "\u{FEFF}id"
        #expect(
            try loadSpec(yaml, file: "spec.yaml").columns[0].name.unicodeScalars.elementsEqual(
                expected.unicodeScalars))
    }

    @Test("a value from an alias, and a key, keep a leading U+FEFF too")
    func byteOrderMarkThroughAliases() throws {
        let aliased =
            "columns:\n  - name: &id \"\\uFEFFid\"\n    format: \"[000]\"\n  - name: *id\n    format: \"[0]\"\n"
        #expect(
            specError(aliased, file: "spec.yaml")?.hasPrefix("spec.yaml:4: columns[1] \"\u{FEFF}id\": ")
                == true,
            "\(specError(aliased, file: "spec.yaml") ?? "loaded")")
        let keyed = "columns:\n  - \"\\uFEFFname\": id\n    format: \"[000]\"\n"
        #expect(
            specError(keyed, file: "spec.yaml")
                == "spec.yaml:2: columns[0]: unknown key \"\u{FEFF}name\" (did you mean \"name\"?)")
    }
}
