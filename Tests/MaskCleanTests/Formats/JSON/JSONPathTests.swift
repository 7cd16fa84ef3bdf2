import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// A spec column's name as a path into a JSON record (docs/record-formats.md#nested-values): how
/// it is spelled, what it finds, and where the added cells go.
@Suite("JSON paths")
struct JSONPathTests {
    // MARK: Spelling

    @Test("dots, indexes and quoted keys spell the steps; a bare name is no path")
    func spelling() throws {
        #expect(JSONPath("phone") == nil)
        #expect(JSONPath("contact.phone")?.steps == [.key("contact"), .key("phone")])
        #expect(JSONPath("phones[0]")?.steps == [.key("phones"), .index(0)])
        #expect(JSONPath("a.b[12].c")?.steps == [.key("a"), .key("b"), .index(12), .key("c")])
        #expect(JSONPath(#"["a.b"].phone"#)?.steps == [.key("a.b"), .key("phone")])
        #expect(JSONPath(#"contact["x[1]"]"#)?.steps == [.key("contact"), .key("x[1]")])
        #expect(JSONPath(#"["say \"hi\""]"#)?.steps == [.key(#"say "hi""#)])
        #expect(JSONPath(#"["a.b"]"#)?.isTopLevel == true, "one quoted key is a top-level key")
        #expect(JSONPath("tél.numéro")?.steps == [.key("tél"), .key("numéro")])
        // Not paths: read as the key written.
        for text in [
            "a..b", ".a", "a.", "a[", "a[]", "a[01]", "a[-1]", "a[x]", "[0]", "a[0]b", #"["a"#, #"a["b"x]"#,
        ] {
            #expect(JSONPath(text) == nil, "\(text)")
        }
    }

    @Test("the cells' object is the run of keys before the value, and never an array")
    func container() throws {
        let cases: [(String, [String], String)] = [
            ("contact.phone", ["contact"], "contact"),
            ("a.b.c", ["a", "b"], "a.b"),
            ("phones[0]", [], ""),
            ("contact.phones[1]", ["contact"], "contact"),
            ("a.b[0].c", ["a"], "a"),
            (#"["a.b"].phone"#, ["a.b"], #"["a.b"]"#),
        ]
        for (text, keys, written) in cases {
            let path = try #require(JSONPath(text))
            #expect(path.containerKeys == keys, "\(text)")
            #expect(path.containerText == written, "\(text)")
        }
        let path = try #require(JSONPath("contact.phone"))
        #expect(path.memberName(ofAdded: "contact.phone_formatted") == "phone_formatted")
        #expect(path.memberName(ofAdded: "phone_fmt") == "phone_fmt", "a name given as it is")
        #expect(path.memberName(ofAdded: "contactphone") == "contactphone")
        let quoted = try #require(JSONPath(#"["meta.v2"]["tel.home"]"#))
        #expect(quoted.memberName(ofAdded: #"["meta.v2"]["tel.home"]_status"#) == "tel.home_status")
    }

    @Test("a path's steps written back read as the same steps")
    func prefixRoundTrip() throws {
        for text in ["a.b.c", "phones[3]", #"["a.b"].c"#, #"a["b.c"][0]"#, #"x[""]"#] {
            let path = try #require(JSONPath(text))
            for count in 2...path.steps.count {
                #expect(
                    JSONPath(path.prefix(count))?.steps == Array(path.steps.prefix(count)), "\(text) \(count)"
                )
            }
        }
        #expect(JSONPath.member("phone", of: nil) == "phone")
        #expect(JSONPath.member("a.b", of: nil) == #"["a.b"]"#)
        #expect(JSONPath.member("zip", of: #"["a.b"]"#) == #"["a.b"].zip"#)
    }

    // MARK: Finding

    func find(_ text: String, in record: String) throws -> JSONPath.Found {
        let path = try #require(JSONPath(text))
        return withBytes(record) { bytes in
            var scanner = JSONScanner(bytes)
            var root: JSONToken?
            _ = try? scanner.scanObject { (key: JSONToken, value: JSONToken) throws(JSONSyntaxError) in
                if JSONPath.keyEquals(key, Array(path.rootKey.utf8), bytes) { root = value }
            }
            var container: JSONToken?
            guard let root else { return .missing }
            switch path.find(from: root, in: bytes, container: &container) {
            case .value(let token):
                // The value's text, for comparing.
                return .value(JSONToken(kind: token.kind, range: token.range))
            case let other: return other
            }
        }
    }

    @Test("a path finds its value, or says it is missing, blocked or twice")
    func finding() throws {
        let record =
            #"{"c": {"p": "5", "q\u002e": 1, "n": null, "s": "x", "arr": [10, {"z": "7"}], "d": 1, "d": 2}}"#
        func value(_ text: String) throws -> String? {
            guard case .value(let token) = try find(text, in: record) else { return nil }
            return String(decoding: Array(record.utf8)[token.range], as: UTF8.self)
        }
        #expect(try value("c.p") == #""5""#)
        #expect(try value(#"c["q."]"#) == "1", "an escaped key is compared decoded")
        #expect(try value("c.arr[0]") == "10")
        #expect(try value("c.arr[1].z") == #""7""#)
        #expect(try value("c.n") == "null")
        #expect(try find("c.missing", in: record) == .missing)
        #expect(try find("c.n.deeper", in: record) == .missing, "null on the way is missing")
        #expect(try find("c.arr[2]", in: record) == .missing)
        #expect(try find("c.s.deeper", in: record) == .blocked(step: 2, found: .string))
        #expect(try find("c.p[0]", in: record) == .blocked(step: 2, found: .string))
        #expect(try find("c[0]", in: record) == .blocked(step: 1, found: .object))
        #expect(try find("c.d", in: record) == .twice(step: 1))
    }

    // MARK: Whole runs against a reference

    static let spec = #"""
        {"columns": [
          {"name": "contact.phone", "format": "[000]-[0000]"},
          {"name": "contact.address.zip", "format": "[00000]"},
          {"name": "phones[1]", "format": "[000]-[0000]"},
          {"name": "id", "format": "[000]"}
        ]}
        """#

    /// A record of a made-up API export: the phone and ZIP nested, sometimes missing, null, a
    /// string where an object belongs, or under a flat dotted key; random white space.
    static func record(_ id: Int, _ random: inout SplitMix64) -> [String: Any] {
        var record: [String: Any] = ["id": String(format: "%03d", id % 1000)]
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
        }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: break  // no contact
        case 1: record["contact"] = NSNull()
        case 2: record["contact"] = [String: Any]()
        case 3: record["contact"] = "see notes"  // a bad record
        case 4: record["contact.phone"] = digits(7)  // the flat key wins
        case 5: record["contact"] = ["phone": NSNull(), "address": NSNull()]
        default:
            var contact: [String: Any] = ["phone": digits(7), "email": "x\(id)@example.org"]
            if Bool.random(using: &random) { contact["address"] = ["zip": digits(5), "city": "Ulm"] }
            record["contact"] = contact
        }
        if Int.random(in: 0..<3, using: &random) > 0 {
            record["phones"] = (0..<Int.random(in: 0..<3, using: &random)).map { _ in digits(7) }
        }
        return record
    }

    /// `value` as JSON text, with white space here and there.
    static func text(_ value: Any, _ random: inout SplitMix64) -> String {
        let space = { (random: inout SplitMix64) in [" ", "", "", "\t", " "].randomElement(using: &random)! }
        switch value {
        case let object as [String: Any]:
            let members = object.keys.sorted().map { key in
                space(&random) + json(key) + space(&random) + ":" + space(&random)
                    + text(object[key]!, &random)
            }
            return "{" + members.joined(separator: ",") + space(&random) + "}"
        case let array as [Any]:
            return "[" + array.map { text($0, &random) }.joined(separator: ",") + "]"
        case is NSNull: return "null"
        default: return json(value as! String)
        }
    }

    static func json(_ string: String) -> String {
        String(
            decoding: try! JSONSerialization.data(withJSONObject: string, options: .fragmentsAllowed),
            as: UTF8.self)
    }

    /// What maskclean should write for `record`: nil for a bad record, else the record with the
    /// added members where docs/record-formats.md#nested-values puts them.
    static func expected(_ record: [String: Any]) -> [String: Any]? {
        var out = record
        func cells(_ prefix: String, _ value: String?, _ format: (String) -> String, _ length: Int)
            -> [String: Any]
        {
            guard let value, !value.isEmpty else {
                return [prefix + "_formatted": "", prefix + "_extracted": "", prefix + "_status": "empty"]
            }
            return [
                prefix + "_formatted": format(value), prefix + "_extracted": value,
                prefix + "_status": value.count == length ? "complete" : "incomplete",
            ]
        }
        let phoneFormat = { (value: String) in String(value.prefix(3)) + "-" + String(value.dropFirst(3)) }
        // contact.phone and contact.address.zip
        let contact = record["contact"]
        if contact is String { return nil }
        let flat = record["contact.phone"] as? String
        var contactObject = contact as? [String: Any] ?? [:]
        if flat != nil {
            for (key, value) in cells("contact.phone", flat, phoneFormat, 7) { out[key] = value }
        } else {
            for (key, value) in cells("phone", contactObject["phone"] as? String, phoneFormat, 7) {
                contactObject[key] = value
            }
        }
        var address = contactObject["address"] as? [String: Any] ?? [:]
        for (key, value) in cells("zip", address["zip"] as? String, { $0 }, 5) { address[key] = value }
        contactObject["address"] = address
        out["contact"] = contactObject
        let phones = record["phones"] as? [String]
        for (key, value) in cells("phones[1]", phones.flatMap { $0.count > 1 ? $0[1] : nil }, phoneFormat, 7)
        {
            out[key] = value
        }
        for (key, value) in cells("id", record["id"] as? String, { $0 }, 3) { out[key] = value }
        return out
    }

    /// The keys that some object of `text` (JSON) has twice.
    static func repeatedKeys(_ text: String) -> [String] {
        withBytes(text) { bytes in
            var repeated: [String] = []
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "{") else {
                    index += 1
                    continue
                }
                var scanner = JSONScanner(bytes)
                scanner.position = index
                var keys: Set<String> = []
                _ = try? scanner.scanObject { (key: JSONToken, _: JSONToken) throws(JSONSyntaxError) in
                    let name = JSONScanner(bytes).decodeString(key) ?? ""
                    if !keys.insert(name).inserted { repeated.append(name) }
                }
                index += 1  // objects inside are checked from their own brace
            }
            return repeated
        }
    }

    @Test(
        "2,000 records of nested values: every output record is the reference's, at any chunk size and jobs",
        arguments: [(1 << 20, 1), (512, 1), (700, 3)])
    func againstReference(chunkSize: Int, jobs: Int) throws {
        var random = SplitMix64(seed: 31)
        let records = (0..<2000).map { Self.record($0, &random) }
        for format in ["ndjson", "json"] {
            let folder = try TemporaryFolder()
            let lines = records.map { Self.text($0, &random) }
            let input =
                format == "json"
                ? "[\n" + lines.joined(separator: ",\n") + "\n]\n" : lines.joined(separator: "\n") + "\n"
            _ = try folder.write("data.\(format)", input)
            let outcome = try runPipeline(
                spec: Self.spec, input: "data.\(format)", in: folder, output: "out.\(format)", policy: .skip,
                jobs: jobs, chunkSize: chunkSize)
            let report = try #require(outcome.report, "\(String(describing: outcome.error))")
            let expected = records.compactMap(Self.expected)
            #expect(report.rejectedCount == records.count - expected.count)
            let written = try folder.text("out.\(format)")
            let objects: [Any] =
                format == "json"
                ? try JSONSerialization.jsonObject(with: Data(written.utf8)) as! [Any]
                : try written.split(separator: "\n").map {
                    try JSONSerialization.jsonObject(with: Data($0.utf8))
                }
            #expect(objects.count == expected.count, "\(format)")
            // Foundation keeps the last of a key written twice: no object may have one.
            #expect(Self.repeatedKeys(written) == [], "\(format)")
            for (index, (object, reference)) in zip(objects, expected).enumerated() {
                #expect(
                    NSDictionary(dictionary: object as! [String: Any]).isEqual(to: reference),
                    "\(format) record \(index): \(object) against \(reference)")
            }
        }
    }
}

/// What an attack on nested paths found (a review of this feature): each a record or a spec that
/// went wrong before.
@Suite("JSON paths: found by attack")
struct JSONPathAttackTests {
    func run(_ spec: String, _ input: String, output: RecordFormat? = nil) throws -> (RunOutcome, String) {
        let folder = try TemporaryFolder()
        _ = try folder.write("data.ndjson", input)
        let outcome = try runPipeline(
            spec: spec, input: "data.ndjson", in: folder, output: "out", policy: .skip, outputFormat: output)
        return (outcome, (try? folder.text("out")) ?? "")
    }

    @Test("one value named two ways is a spec error, not a crash or a key written twice")
    func oneValueTwoNames() throws {
        for replace in [true, false] {
            let extra = replace ? #", "replace": "formatted""# : ""
            let spec =
                #"{"columns": [{"name": "contact.phone", "format": "[000]"\#(extra)}, "#
                + #"{"name": "contact[\"phone\"]", "format": "[000]"\#(extra)}]}"#
            let (outcome, _) = try run(spec, #"{"contact": {"phone": "123"}}"# + "\n")
            #expect(outcome.error?.status == .config, "replace: \(replace)")
            #expect(outcome.error?.message.contains("spelled otherwise") == true)
        }
        // The same name twice stays two maskings of one value.
        let twice =
            #"{"columns": [{"name": "contact.phone", "format": "[000]"}, "#
            + #"{"name": "contact.phone", "format": "[0]", "formattedColumn": "a", "extractedColumn": "b", "statusColumn": "c"}]}"#
        #expect(try run(twice, #"{"contact": {"phone": "123"}}"# + "\n").0.report?.rows == 1)
    }

    @Test("two added keys that would land under one name in one object are a spec error")
    func addedKeysCollide() throws {
        let inObject =
            #"{"columns": [{"name": "contact.phone", "format": "[000]", "statusColumn": "contact.check"}, "#
            + #"{"name": "contact.alt", "format": "[000]", "statusColumn": "check"}]}"#
        #expect(try run(inObject, "{}\n").0.error?.status == .config)
        let asObject =
            #"{"columns": [{"name": "phone", "format": "[000]", "statusColumn": "contact"}, "#
            + #"{"name": "contact.phone", "format": "[000]"}]}"#
        #expect(try run(asObject, "{}\n").0.error?.status == .config)
        // In CSV output the names are flat columns, which differ.
        let record = #"{"id": 1, "contact": {"phone": "123", "alt": "456"}}"# + "\n"
        #expect(try run(inObject, record, output: .csv).0.report?.rows == 1)
    }

    static let spec = #"{"columns": [{"name": "contact.phone", "format": "[000]-[0000]"}]}"#

    @Test("a record read by its literal member is not judged by its path")
    func literalWins() throws {
        let input =
            [
                #"{"contact.phone": "5551234", "contact": "desk"}"#,
                #"{"contact.phone": "5551234", "contact": {"phone_status": "x"}}"#,
                #"{"contact.phone": "5551234", "contact": {"phone": "1", "phone": "2"}}"#,
            ].joined(separator: "\n") + "\n"
        let (outcome, out) = try run(Self.spec, input)
        #expect(outcome.report?.rejectedCount == 0)
        #expect(out.split(separator: "\n").allSatisfy { $0.contains(#""contact.phone_status":"complete""#) })
    }

    @Test("a nested column's added keys are looked for where they go")
    func addedKeysWhereTheyGo() throws {
        let input =
            [
                // Nothing goes at the top level: a top-level key of that name clashes with nothing.
                #"{"contact": {"phone": "5551234"}, "contact.phone_status": "legacy"}"#,
                // Inside the object, it clashes.
                #"{"contact": {"phone": "5551234", "phone_status": "x"}}"#,
                // Read by its literal member, its cells go at the top level: there it clashes.
                #"{"contact.phone": "5551234", "contact.phone_status": "x"}"#,
                #"{"contact": {"phone": {"a": 1}}}"#,
            ].joined(separator: "\n") + "\n"
        let (outcome, out) = try run(Self.spec, input)
        let report = try #require(outcome.report)
        #expect(report.rejectedCount == 3)
        #expect(
            report.rejected.map(\.reason) == [
                #"the object "contact" already has a key "phone_status", which maskclean adds there"#,
                #"the record already has a key "contact.phone_status", which maskclean adds"#,
                #"key path "contact.phone" ends at an object; expected a string, a number or null"#,
            ])
        #expect(out.contains(#""contact.phone_status": "legacy""#))
    }
}
