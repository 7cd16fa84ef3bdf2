import Foundation
import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// A validator for the keywords docs/spec.schema.json uses, and no others: a keyword it does not
/// know is reported, so that the schema cannot use one that this test would silently skip.
struct SchemaValidator {
    let root: JSONNode

    /// Keywords that say nothing about validity.
    static let annotations: Set = ["$schema", "$id", "$defs", "title", "description", "default"]

    /// Where `instance` breaks `schema` (the root when nil): `columns[0].format: expected string`.
    func errors(_ instance: JSONNode, _ schema: JSONNode? = nil, at path: String = "$") -> [String] {
        guard case .object(let keywords, _) = schema ?? root else {
            return ["\(path): the schema is not an object"]
        }
        var errors: [String] = []
        let members = Self.members(instance)
        for (keyword, value) in keywords {
            switch keyword {
            case _ where Self.annotations.contains(keyword):
                continue
            case "$ref":
                guard case .string(let reference, _) = value, let target = resolve(reference) else {
                    errors.append("\(path): $ref does not resolve")
                    continue
                }
                errors += self.errors(instance, target, at: path)
            case "type":
                let types = Self.strings(value)
                if !types.contains(where: { Self.has(instance, type: $0) }) {
                    errors.append(
                        "\(path): expected \(types.joined(separator: " or ")), got \(instance.kindDescription)"
                    )
                }
            case "enum":
                guard case .array(let choices, _) = value else { continue }
                if !choices.contains(where: { Self.equal($0, instance) }) {
                    errors.append("\(path): \(instance.kindDescription) is not one of the allowed values")
                }
            case "properties":
                guard let members, case .object(let properties, _) = value else { continue }
                for (key, property) in properties {
                    if let member = members.first(where: { $0.key == key }) {
                        errors += self.errors(member.value, property, at: "\(path).\(key)")
                    }
                }
            case "required":
                guard let members else { continue }
                for key in Self.strings(value) where !members.contains(where: { $0.key == key }) {
                    errors.append("\(path): missing \(key)")
                }
            case "additionalProperties":
                guard let members else { continue }
                let known = Self.propertyNames(keywords)
                for member in members where !known.contains(member.key) {
                    if case .bool(false, _) = value {
                        errors.append("\(path): unknown key \(member.key)")
                    } else {
                        errors += self.errors(member.value, value, at: "\(path).\(member.key)")
                    }
                }
            case "dependentRequired":
                guard let members, case .object(let dependencies, _) = value else { continue }
                for (key, needed) in dependencies where members.contains(where: { $0.key == key }) {
                    for other in Self.strings(needed) where !members.contains(where: { $0.key == other }) {
                        errors.append("\(path): \(key) needs \(other)")
                    }
                }
            case "if":
                // `then` or `else` by whether the instance passes `if` (draft 2020-12).
                let branch = self.errors(instance, value, at: path).isEmpty ? "then" : "else"
                if let chosen = keywords.first(where: { $0.key == branch }) {
                    errors += self.errors(instance, chosen.value, at: path)
                }
            case "then", "else":
                continue  // with `if`
            case "not":
                if self.errors(instance, value, at: path).isEmpty {
                    errors.append("\(path): matches a schema it must not")
                }
            case "anyOf":
                guard case .array(let choices, _) = value else { continue }
                if !choices.contains(where: { self.errors(instance, $0, at: path).isEmpty }) {
                    errors.append("\(path): matches none of anyOf")
                }
            case "items":
                guard case .array(let elements, _) = instance else { continue }
                for (index, element) in elements.enumerated() {
                    errors += self.errors(element, value, at: "\(path)[\(index)]")
                }
            case "minItems":
                if case .array(let elements, _) = instance, Double(elements.count) < Self.number(value) {
                    errors.append("\(path): fewer than \(Self.number(value)) items")
                }
            case "minimum":
                if case .number(let number, _, _) = instance, number < Self.number(value) {
                    errors.append("\(path): below \(Self.number(value))")
                }
            case "maximum":
                if case .number(let number, _, _) = instance, number > Self.number(value) {
                    errors.append("\(path): above \(Self.number(value))")
                }
            case "minLength":
                // JSON Schema counts code points.
                if case .string(let text, _) = instance,
                    Double(text.unicodeScalars.count) < Self.number(value)
                {
                    errors.append("\(path): shorter than \(Self.number(value))")
                }
            default:
                errors.append("\(path): the validator does not know the keyword \(keyword)")
            }
        }
        return errors
    }

    func resolve(_ reference: String) -> JSONNode? {
        guard reference.hasPrefix("#/") else { return nil }
        var node = root
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let member = Self.members(node)?.first(where: { $0.key == part }) else { return nil }
            node = member.value
        }
        return node
    }

    static func members(_ node: JSONNode) -> [(key: String, value: JSONNode)]? {
        if case .object(let pairs, _) = node { return pairs }
        return nil
    }

    static func propertyNames(_ keywords: [(key: String, value: JSONNode)]) -> [String] {
        guard
            let properties = keywords.first(where: { $0.key == "properties" }).flatMap({ members($0.value) })
        else { return [] }
        return properties.map(\.key)
    }

    static func strings(_ node: JSONNode) -> [String] {
        switch node {
        case .string(let text, _): return [text]
        case .array(let elements, _):
            return elements.compactMap {
                if case .string(let text, _) = $0 { return text }
                return nil
            }
        default: return []
        }
    }

    static func number(_ node: JSONNode) -> Double {
        if case .number(let value, _, _) = node { return value }
        return .nan
    }

    static func has(_ node: JSONNode, type: String) -> Bool {
        switch (type, node) {
        case ("object", .object), ("array", .array), ("string", .string), ("number", .number),
            ("boolean", .bool),
            ("null", .null):
            return true
        case ("integer", .number(let value, _, _)):
            return value == value.rounded()
        default:
            return false
        }
    }

    static func equal(_ a: JSONNode, _ b: JSONNode) -> Bool {
        switch (a, b) {
        case (.string(let x, _), .string(let y, _)): x == y
        case (.number(let x, _, _), .number(let y, _, _)): x == y
        case (.bool(let x, _), .bool(let y, _)): x == y
        case (.null, .null): true
        default: false
        }
    }
}

/// docs/spec.schema.json: the schema `maskclean schema` prints, that every fixture spec passes,
/// that refuses what the loader refuses for a key or a type, and that knows the loader's keys,
/// values and defaults.
@Suite("The spec's JSON Schema")
struct SpecSchemaTests {
    static let repository = repositoryRoot

    static func parse(_ text: String) throws -> JSONNode {
        try Array(text.utf8).withUnsafeBufferPointer { try JSONNode.parse($0) }
    }

    /// Parsed anew for each use rather than kept in a static: a JSONNode tree held by a global
    /// keeps its case in the pointer's spare bits, where LeakSanitizer does not see the pointer and
    /// reports the whole tree as leaked.
    static var validator: SchemaValidator {
        // A schema that does not parse fails every test that uses it, with the parse error.
        SchemaValidator(root: (try? parse(SpecSchema.text)) ?? .null(offset: 0))
    }

    /// A spec as the tree the loader reads, from JSON or (by its name) YAML.
    static func tree(_ text: String, file: String = "spec.json") throws -> JSONNode {
        if SpecLoader.isYAML(Array(text.utf8), file: file) {
            do {
                return try YAMLSpec.parse(Array(text.utf8), file: file).0
            } catch {
                throw SpecTestError(message: error.message)
            }
        }
        return try parse(text)
    }

    static func schemaErrors(_ text: String, file: String = "spec.json") throws -> [String] {
        validator.errors(try tree(text, file: file))
    }

    @Test("the schema maskclean prints is docs/spec.schema.json, byte for byte, and is JSON Schema 2020-12")
    func embedded() throws {
        let file = Self.repository.appendingPathComponent("docs/spec.schema.json")
        let onDisk = try Data(contentsOf: file)
        #expect(
            Array(onDisk) == Array(SpecSchema.text.utf8), "paste docs/spec.schema.json into SpecSchema.swift")
        let root = try Self.parse(SpecSchema.text)
        let members = try #require(SchemaValidator.members(root))
        #expect(
            members.first { $0.key == "$schema" }.map { SchemaValidator.strings($0.value) }
                == ["https://json-schema.org/draft/2020-12/schema"])
        // The validator knows every keyword the schema uses: a spec that uses every key passes.
        #expect(Self.validator.errors(try Self.parse(#"{"columns":[{"name":"a","format":"[0]"}]}"#)) == [])
    }

    /// Every spec in Fixtures/: those the cases run (`run`, `check`, `merge` SPEC …) and every
    /// file whose name ends in spec.json, spec.yaml or spec.yml.
    static let fixtureSpecs: [URL] = {
        let fixtures = repository.appendingPathComponent("Fixtures")
        var found: Set<String> = []
        let names = FileManager.default.enumerator(atPath: fixtures.path)?.compactMap { $0 as? String } ?? []
        for name in names {
            let base = (name as NSString).lastPathComponent
            if ["spec.json", "spec.yaml", "spec.yml"].contains(where: base.hasSuffix) { found.insert(name) }
            guard base == "case.json",
                let data = FileManager.default.contents(atPath: fixtures.appendingPathComponent(name).path),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let args = object["args"] as? [String], args.count > 1,
                ["run", "check", "merge"].contains(args[0])
            else { continue }
            let spec = ((name as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
                args[1])
            if FileManager.default.fileExists(atPath: fixtures.appendingPathComponent(spec).path) {
                found.insert((spec as NSString).standardizingPath)
            }
        }
        return found.sorted().map { fixtures.appendingPathComponent($0) }
    }()

    @Test(
        "every spec the loader accepts in Fixtures/ passes the schema; those it refuses for a key or type fail it"
    )
    func fixtures() throws {
        #expect(Self.fixtureSpecs.count >= 60)
        var accepted = 0
        for url in Self.fixtureSpecs {
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            let file = url.lastPathComponent
            let loaded = Result { () throws(MaskCleanError) in
                try SpecLoader.parse(Array(text.utf8), file: file)
            }
            guard let tree = try? Self.tree(text, file: file) else {
                #expect(throws: (any Error).self, "\(url.path) does not parse but loads") { try loaded.get() }
                continue
            }
            let errors = Self.validator.errors(tree)
            switch loaded {
            case .success:
                accepted += 1
                #expect(errors == [], "\(url.path)")
            case .failure(let error):
                // A key the loader does not know, or a value of the wrong type, the schema refuses too.
                // (Not `yes` for a boolean: YAML 1.1, as the loader's parser, reads it as true, and the
                // loader refuses it since YAML 1.2, as editors, reads a string.)
                if error.message.contains("unknown key")
                    || error.message.contains(": expected ")
                        && !error.message.contains("YAML readers differ")
                {
                    #expect(errors != [], "\(url.path): \(error.message)")
                }
            }
        }
        #expect(accepted >= 60)
    }

    @Test(
        "specs with an unknown key, a wrong type or a value out of range are refused by the schema and the loader",
        arguments: [
            #"{"columns":[{"name":"a","format":"[0]"}],"colums":[]}"#,
            #"{"columns":[{"name":"a","format":"[0]","formt":"x"}]}"#,
            #"{"notations":[{"character":"s","characterSet":"$","optional":true}],"columns":[{"name":"a","format":"[0]"}]}"#,
            #"{"columns":[{"name":"a","format":5}]}"#,
            #"{"columns":[{"name":"","format":"[0]"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","minComplete":"0.9"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","minComplete":95}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","autocomplete":"yes"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","affinityStrategy":"capacty"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","syntax":"inputMask"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","replace":"both"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","replaceIncomplete":true}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","affineFormats":"[00]"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","formattedColumn":""}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","placeholderCharacter":""}]}"#,
            #"{"columns":[{"name":"a"}]}"#,
            #"{"columns":[]}"#,
            #"{"columns":{}}"#,
            #"{"maxRejected":-1,"columns":[{"name":"a","format":"[0]"}]}"#,
            #"{"minRows":1.5,"columns":[{"name":"a","format":"[0]"}]}"#,
            #"{"samples":1001,"columns":[{"name":"a","format":"[0]"}]}"#,
            #"{"notations":[{"character":"s"}],"columns":[{"name":"a","format":"[0]"}]}"#,
            "maxRejected: 10\ncolumns:\n  - name: a\n    format: \"[0]\"\n    trim: \"true\"\n",
            #"{"columns":[{"name":"a","kind":"phone","format":"[0]"}]}"#,
            #"{"columns":[{"name":"a","kind":"phone","check":"luhn"}]}"#,
            #"{"columns":[{"name":"a","kind":"phone","replace":"normalized"}]}"#,
            #"{"columns":[{"name":"a","kind":"fone"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","defaultRegion":"GB"}]}"#,
            #"{"columns":[{"name":"a","format":"[0]","phoneFormat":"national"}]}"#,
            #"{"columns":[{"name":"a","kind":"phone","phoneFormat":"E164"}]}"#,
            #"{"columns":[{"name":"a","kind":"phone","regionColumn":""}]}"#,
        ])
    func refused(_ spec: String) throws {
        let file = spec.hasPrefix("{") ? "spec.json" : "spec.yaml"
        #expect(try Self.schemaErrors(spec, file: file) != [], "\(spec)")
        #expect(specError(spec, file: file) != nil, "\(spec)")
    }

    @Test(
        "phone columns the loader accepts pass the schema",
        arguments: [
            #"{"columns":[{"name":"a","kind":"phone"}]}"#,
            #"{"columns":[{"name":"a","kind":"phone","defaultRegion":"gb","phoneFormat":"national","maxInvalid":0.1}]}"#,
            #"{"columns":[{"name":"a","kind":"phone","defaultRegion":null,"regionColumn":"cc","countryColumn":null}]}"#,
            #"{"columns":[{"name":"a","kind":"phone","replace":"extracted","replaceIncomplete":true,"trim":true}]}"#,
            "columns:\n  - name: a\n    kind: phone\n    defaultRegion: US\n    phoneFormat: e164\n",
        ])
    func phoneAccepted(_ spec: String) throws {
        let file = spec.hasPrefix("{") ? "spec.json" : "spec.yaml"
        #expect(try Self.schemaErrors(spec, file: file) == [], "\(spec)")
        #expect(specError(spec, file: file) == nil, "\(spec)")
    }

    // MARK: The schema and the loader agree

    /// The keywords of the schema at `reference` (`#/$defs/column`).
    func keywords(_ reference: String) throws -> [(key: String, value: JSONNode)] {
        try #require(Self.validator.resolve(reference).flatMap(SchemaValidator.members), "\(reference)")
    }

    func properties(_ reference: String) throws -> [(key: String, value: JSONNode)] {
        let properties = try keywords(reference).first { $0.key == "properties" }.flatMap {
            SchemaValidator.members($0.value)
        }
        return try #require(properties, "\(reference) has no properties")
    }

    @Test("the schema lists exactly the loader's keys, at the top, in a column and in a notation")
    func sameKeys() throws {
        #expect(Set(try properties("#/").map(\.key)) == Set(SpecLoader.topKeys))
        #expect(Set(try properties("#/$defs/column").map(\.key)) == Set(SpecLoader.columnKeys))
        #expect(Set(try properties("#/$defs/notation").map(\.key)) == Set(SpecLoader.notationKeys))
        // Each level refuses other keys, as the loader does.
        for reference in ["#/", "#/$defs/column", "#/$defs/notation"] {
            let node = try keywords(reference)
            #expect(
                node.contains { $0.key == "additionalProperties" && Self.isFalse($0.value) }, "\(reference)")
            #expect(node.contains { $0.key == "description" }, "\(reference)")
        }
    }

    static func isFalse(_ node: JSONNode) -> Bool {
        if case .bool(false, _) = node { return true }
        return false
    }

    @Test("every key has a type (or names one) and a one-line description; the enums are the loader's values")
    func describedKeys() throws {
        for reference in ["#/", "#/$defs/column", "#/$defs/notation"] {
            for (key, property) in try properties(reference) {
                let keywords = try #require(SchemaValidator.members(property))
                let description = keywords.first { $0.key == "description" }.map {
                    SchemaValidator.strings($0.value)
                }
                #expect(description?.count == 1 && description?[0].contains("\n") == false, "\(key)")
                #expect(keywords.contains { ["type", "$ref"].contains($0.key) }, "\(key)")
            }
        }
        let column = Dictionary(
            uniqueKeysWithValues: try properties("#/$defs/column").map { ($0.key, $0.value) })
        func allowed(_ key: String) -> [String] {
            column[key].flatMap(SchemaValidator.members)?.first { $0.key == "enum" }.map {
                SchemaValidator.strings($0.value)
            } ?? []
        }
        #expect(allowed("syntax") == Syntax.allCases.map(\.rawValue))
        #expect(allowed("affinityStrategy") == AffinityStrategy.allCases.map(\.rawValue))
        #expect(allowed("replace") == Replacement.allCases.map(\.rawValue))
    }

    @Test("each key's default is the loader's: spelling it out leaves the spec's fingerprint unchanged")
    func defaults() throws {
        let base = #"{"name":"phone","format":"[000]-[0000]""#
        // Keys that belong to one syntax, or need another key, are tried where they are allowed.
        let context = [
            "template": #"{"name":"phone","format":"[000]-[0000]","syntax":"akmask""#,
            "symbols": #"{"name":"phone","format":"DDD-DDDD","syntax":"maskara""#,
            "replaceIncomplete": #"{"name":"phone","format":"[000]-[0000]","replace":"formatted""#,
            "defaultRegion": #"{"name":"phone","kind":"phone""#,
            "regionColumn": #"{"name":"phone","kind":"phone""#,
            "phoneFormat": #"{"name":"phone","kind":"phone""#,
        ]
        var checked = 0
        for (reference, level) in [
            ("#/", "top"), ("#/$defs/column", "column"), ("#/$defs/notation", "notation"),
        ] {
            for (key, property) in try properties(reference) {
                guard let keywords = SchemaValidator.members(property),
                    let value = keywords.first(where: { $0.key == "default" })?.value
                else { continue }
                let written = Self.json(value)
                let (without, with): (String, String)
                switch level {
                case "top":
                    without = #"{"columns":[\#(base)}]}"#
                    with = #"{"\#(key)":\#(written),"columns":[\#(base)}]}"#
                case "column":
                    let column = context[key] ?? base
                    without = #"{"columns":[\#(column)}]}"#
                    with = #"{"columns":[\#(column),"\#(key)":\#(written)}]}"#
                default:
                    let notation = #"{"character":"s","characterSet":"$"}"#
                    let spelled = #"{"character":"s","characterSet":"$","\#(key)":\#(written)}"#
                    without = #"{"notations":[\#(notation)],"columns":[\#(base)}]}"#
                    with = #"{"notations":[\#(spelled)],"columns":[\#(base)}]}"#
                }
                #expect(try loadSpec(with).fingerprint == loadSpec(without).fingerprint, "\(key): \(written)")
                checked += 1
            }
        }
        #expect(checked >= 18)
    }

    @Test("the required keys are the ones the loader says are missing")
    func requiredKeys() throws {
        func required(_ reference: String) throws -> [String] {
            try self.keywords(reference).first { $0.key == "required" }.map {
                SchemaValidator.strings($0.value)
            } ?? []
        }
        #expect(try required("#/") == ["columns"])
        #expect(try required("#/$defs/column") == ["name"])
        // `format` unless the column has a `kind`.
        let column = try keywords("#/$defs/column")
        let otherwise = try #require(
            column.first { $0.key == "else" }.flatMap { SchemaValidator.members($0.value) })
        #expect(
            otherwise.first { $0.key == "required" }.map { SchemaValidator.strings($0.value) } == ["format"])
        #expect(specError(#"{"columns":[{"name":"a","kind":"phone"}]}"#) == nil)
        #expect(try required("#/$defs/notation") == ["character", "characterSet"])
        #expect(specError(#"{}"#)?.contains(#"missing key "columns""#) == true)
        #expect(specError(#"{"columns":[{"format":"[0]"}]}"#)?.contains(#"missing key "name""#) == true)
        #expect(specError(#"{"columns":[{"name":"a"}]}"#)?.contains(#"missing key "format""#) == true)
        #expect(
            specError(#"{"notations":[{"characterSet":"0"}],"columns":[{"name":"a","format":"[0]"}]}"#)?
                .contains(#"missing key "character""#) == true)
        #expect(
            specError(#"{"notations":[{"character":"s"}],"columns":[{"name":"a","format":"[0]"}]}"#)?
                .contains(#"missing key "characterSet""#) == true)
    }

    /// A default as JSON text.
    static func json(_ node: JSONNode) -> String {
        switch node {
        case .string(let text, _): JSONTextWriter.quoted(text)
        case .number(_, let text, _): text
        case .bool(let value, _): value ? "true" : "false"
        case .null: "null"
        case .array(let elements, _): "[" + elements.map(json).joined(separator: ",") + "]"
        case .object(let pairs, _):
            "{" + pairs.map { JSONTextWriter.quoted($0.key) + ":" + json($0.value) }.joined(separator: ",")
                + "}"
        }
    }
}
