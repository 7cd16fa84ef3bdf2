import Foundation
import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// docs/command-line.md, `describe`: shapes, kinds, what is proposed and why, and the spec text.
@Suite("describe: proposing a spec from the data")
struct DescribeTests {
    static let fixtures =
        repositoryRoot
        .appendingPathComponent("Fixtures")

    @Test(
        "a value's shape is the format it fills exactly",
        arguments: [
            ("(555) 123-4567", "([000]) [000]-[0000]"),
            ("AB-1234", "[AA]-[0000]"),
            ("SO-20240001", "[AA]-[00000000]"),
            ("Zoë 7", "[AAA] [0]"),
            ("٣٤٥-12", "[000]-[00]"),
            ("[x]{y}\\", "\\[[A]\\]\\{[A]\\}\\\\"),
            ("**** 6434", "**** [0000]"),
        ])
    func shapeFormat(_ value: String, _ format: String) throws {
        #expect(ValueShape(value).format == format)
        // The format compiles and takes the value whole.
        let mask = try AffineMask(
            format: format, affineFormats: [], strategy: .bestStatus, autocomplete: true)
        #expect(mask.apply(value).result.status == .complete, "\(value) in \(format)")
    }

    @Test("North American phone numbers in their shapes, with extensions; other numbers are not")
    func phones() {
        let phones = [
            "(680) 645-7833", "383.908.6266", "6084623036", "+1 826 879 6703", "1-209-982-4705",
            "(965) 734-6354 ext. 31", "708-900-2625 x12", "708-900-2625x1234", "(708)9002625 #5",
        ]
        for value in phones { #expect(ValueKind.phone.match(value) != nil, "\(value)") }
        let others = [
            "763661024l", "84664690", "555-1234", "1234567890", "(065) 734-6354", "708-900-2625 ext", "none",
        ]
        for value in others { #expect(ValueKind.phone.match(value) == nil, "\(value)") }
        guard case .phone(let number) = ValueKind.phone.match("(965) 734-6354 ext. 31") else {
            Issue.record("not a phone")
            return
        }
        #expect(number.extensionMarker == " ext. ")
        #expect(number.extensionDigits == 2)
    }

    @Test("card numbers have 13 to 19 digits and pass the Luhn check")
    func cards() {
        #expect(ValueKind.cardDigits("4111 1111 1111 1111") == 16)
        #expect(ValueKind.cardDigits("3782-822463-10005") == 15)
        #expect(ValueKind.cardDigits("4111 1111 1111 1112") == nil)
        #expect(ValueKind.failsLuhn("4111 1111 1111 1112"))
        #expect(ValueKind.cardDigits("411111111111") == nil)  // 12 digits
        #expect(!ValueKind.failsLuhn("411111111111"))
        #expect(ValueKind.cardDigits("**** **** **** 1111") == nil)
    }

    @Test("dates are told apart by their values' ranges")
    func dates() {
        #expect(DateValue("1948-07-13")?.order == .iso)
        #expect(DateValue("19461214")?.order == .iso)
        #expect(DateValue("13/07/1948")?.order == .dayFirst)
        #expect(DateValue("7/13/48")?.order == .monthFirst)
        #expect(DateValue("3.4.2024")?.order == .either)
        #expect(DateValue("13/13/2024") == nil)
        #expect(DateValue("2024-13-01") == nil)
        #expect(DateValue("12/24/202") == nil)
        #expect(DateValue("20241301") == nil)
    }

    @Test("ZIP and ZIP+4 codes")
    func zips() {
        #expect(ValueKind.zipPlusFour("06429") == false)
        #expect(ValueKind.zipPlusFour("72662-3811") == true)
        for value in ["6429", "064290", "72662 3811", "7266A"] {
            #expect(ValueKind.zipPlusFour(value[...]) == nil, "\(value)")
        }
    }

    @Test("a phone column gets the canonical format and one per extension marker, and its complete share")
    func phoneColumn() throws {
        let cells = [
            "(680) 645-7833", "383.908.6266", "", "6084623036", "+1 826 879 6703", "(965) 734-6354 ext. 31",
            "763661024l", "555-1234", "1-209-982-4705", "",
        ]
        let column = try SpecProposer.propose("phone", cells: cells, unmaskable: 0)
        #expect(column.leftOut == nil)
        #expect(column.kind == "North American phone numbers")
        #expect(column.formats == ["+1 ([000]) [000]-[0000]", "+1 ([000]) [000]-[0000] ext. [09]"])
        #expect(column.values == 8 && column.empty == 2)
        #expect(column.covered == 6 && column.complete == 6)
        #expect(column.minCompleteHundredths == 75)
        #expect(
            column.uncovered == [
                ShapeCount(shape: "[000000000][A]", count: 1), ShapeCount(shape: "[000]-[0000]", count: 1),
            ])
    }

    @Test("below half of a kind, the shapes decide; a column of shapes too scattered is left out")
    func shapeColumns() throws {
        let codes = Array(repeating: "AB-1234", count: 6) + ["AB1234", "ab-12", "XY-9876"]
        let column = try SpecProposer.propose("sku", cells: codes, unmaskable: 0)
        // `AB1234` has the skeleton of `AB-1234` and is complete in its format.
        #expect(column.formats == ["[AA]-[0000]"])
        #expect(column.complete == 8)
        #expect(column.minCompleteHundredths == 88)
        let scattered = ["A1", "1A-B", "C.2.3", "9_9", "AB/C", "A B1", "1-1-1", "A:1"]
        let left = try SpecProposer.propose("code", cells: scattered, unmaskable: 0)
        #expect(left.formats.isEmpty)
        #expect(left.leftOut?.hasPrefix("too many shapes: 8 in 8 values") == true)
    }

    @Test("free text, identifiers, empty columns and nested JSON values are left out, each saying why")
    func leftOut() throws {
        let names = [
            "Ava Garcia", "Thảo Lee", "Perez, Emma", "Wyatt Le Blanc", "Nora Robinson", "Zoey Kowalczyk",
        ]
        #expect(
            try SpecProposer.propose("name", cells: names, unmaskable: 0).leftOut?.hasPrefix("free text")
                == true
        )
        let ids = (1...120).map(String.init)
        #expect(
            try SpecProposer.propose("id", cells: ids, unmaskable: 0).leftOut?.hasPrefix(
                "whole numbers of 3 lengths") == true)
        #expect(
            try SpecProposer.propose("fax", cells: ["", ""], unmaskable: 0).leftOut
                == "every sampled cell is empty (2 records)")
        #expect(
            try SpecProposer.propose("tags", cells: ["", "", "vip"], unmaskable: 2).leftOut?.contains(
                "in 2 values") == true)
    }

    @Test("ambiguous dates say that the data cannot tell day first from month first")
    func ambiguousDates() throws {
        let column = try SpecProposer.propose(
            "birthday", cells: ["3/4/1970", "12/1/1985", "1/11/2001"], unmaskable: 0)
        #expect(column.formats == ["[09]{/}[09]{/}[0000]"])
        #expect(column.notes.contains { $0.contains("cannot tell day first from month first") })
        let iso = try SpecProposer.propose(
            "placed", cells: ["2024-01-31", "20240301", "31/01/2024"], unmaskable: 0)
        #expect(iso.formats == ["[0000]{-}[00]{-}[00]", "[00]{/}[00]{/}[0000]"])
        #expect(iso.complete == 3)
    }

    @Test("the YAML quotes every string, escapes what would break a line, and says what JSON says")
    func specText() throws {
        var column = try SpecProposer.propose(
            "phone\n\"home\"", cells: ["(680) 645-7833", "0000"], unmaskable: 0)
        column.name = "phone\n\"home\"\u{202E}"
        let proposal = SpecProposal(
            file: "export.csv", records: 2,
            columns: [
                column, ColumnProposal(name: "note", leftOut: "free text: words in 2 of 2 values, 2 shapes"),
            ])
        let yaml = proposal.yaml(schemaBeside: true)
        #expect(yaml.hasPrefix(SpecProposal.schemaLine + "\n"))
        // Without the schema beside the spec, no line points at it: the comment says how to have it.
        let withoutSchema = proposal.yaml(schemaBeside: false)
        #expect(!withoutSchema.hasPrefix("# yaml-language-server"))
        #expect(
            withoutSchema.contains(
                "# For an editor to check it: maskclean schema > spec.schema.json beside it"))
        #expect(withoutSchema.contains("# first line: " + SpecProposal.schemaLine + "\n"))
        #expect(yaml.contains(#"  - name: "phone\u000A\"home\"\u202E""#))
        #expect(yaml.contains(#"    format: "+1 ([000]) [000]-[0000]""#))
        #expect(yaml.contains("    minComplete: 0.5\n"))
        #expect(yaml.contains(#"  # "note" left out: free text: words in 2 of 2 values, 2 shapes."#))
        #expect(yaml.contains(#"not complete, by shape: "[0000]" 1."#))
        // Every line is a comment, a key or a list item: no string broke a line.
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            #expect(line.hasPrefix("#") || line.hasPrefix("  ") || line == "columns:", "\(line)")
        }
        let spec = try SpecLoader.parse(Array(proposal.json.utf8), file: "proposed.json")
        #expect(spec.columns.map(\.name) == ["phone\n\"home\"\u{202E}"])
        #expect(spec.columns[0].minComplete == 0.5)
        #expect(spec.columns[0].affinityStrategy == .bestStatus)
    }

    @Test(
        "the YAML parses as the spec the JSON is, for every describe fixture",
        arguments: [
            "cases/describe-demo/expected.yaml", "cases/describe-orders-tsv/expected.yaml",
            "cases/describe-contacts-json/expected.yaml", "cases/describe-stdin-sample-only/expected.yaml",
            "cases/describe-no-header/expected.yaml",
        ])
    func yamlRoundTrip(_ fixture: String) throws {
        let path = Self.fixtures.appendingPathComponent(fixture).path
        let yaml = try SpecLoader.load(path: path)
        #expect(!yaml.columns.isEmpty)
        // The same proposal written as JSON: rebuilt from the loaded spec's columns.
        let columns = yaml.columns.map { column in
            var proposal = ColumnProposal(name: column.name, formats: column.formats)
            proposal.values = 100
            proposal.complete = Int(((column.minComplete ?? 0) * 100).rounded())
            proposal.omittedOutputs = SpecProposer.outputKeys.filter { key in
                let name: String? =
                    switch key.key {
                    case "formattedColumn": column.formattedColumn
                    case "extractedColumn": column.extractedColumn
                    default: column.statusColumn
                    }
                return name == nil
            }.map(\.key)
            proposal.check = column.check?.name
            proposal.dateOrder = column.check?.dateOrder
            proposal.significant = column.syntaxOptions.significant
            return proposal
        }
        let json = try SpecLoader.parse(Array(SpecProposal.json(columns).utf8), file: "spec.json")
        #expect(json.fingerprint == yaml.fingerprint)
        #expect(yaml.columns.allSatisfy { $0.affinityStrategy == .bestStatus })
    }

    @Test("the demo's YAML and JSON proposals are one spec")
    func demoYAMLIsJSON() throws {
        let yaml = try SpecLoader.load(
            path: Self.fixtures.appendingPathComponent("cases/describe-demo/expected.yaml").path)
        let json = try SpecLoader.load(
            path: Self.fixtures.appendingPathComponent("cases/describe-demo-json/expected.json").path)
        #expect(yaml.fingerprint == json.fingerprint)
        #expect(yaml.columns.map(\.name) == ["phone", "card", "date", "zip"])
    }

    @Test("a long value's shape is cut in the comment")
    func longShape() throws {
        let note = String(repeating: "word ", count: 40)
        var column = try SpecProposer.propose("ref", cells: ["AB-1", "AB-2", note], unmaskable: 0)
        column.name = "ref"
        #expect(column.uncovered.map(\.count) == [1])
        let yaml = SpecProposal(file: "x.csv", records: 3, columns: [column]).yaml(schemaBeside: false)
        let shown = "\"" + String(repeating: "[AAAA] ", count: 8) + "[AAA…\" 1"
        #expect(yaml.contains(shown), "\(yaml)")
    }

    @Test(
        "a comment shows no letter or numeral of the data: circled, superscript and marked ones are placeholders"
    )
    func commentsHideData() throws {
        let cells = Array(repeating: "06429", count: 8) + ["⑤⑤⑤-①②③④", "1\u{301}2\u{301}x²"]
        let column = try SpecProposer.propose("zip", cells: cells, unmaskable: 0)
        let yaml = SpecProposal(file: "x.csv", records: 10, columns: [column]).yaml(schemaBeside: false)
        #expect(yaml.contains(#"not complete, by shape: "999-9999" 1, "99[A]9" 1."#), "\(yaml)")
        for character in ["⑤", "①", "²", "\u{301}"] { #expect(!yaml.contains(character)) }
    }

    @Test(
        "a value with a character no one types makes no format and counts against the column",
        arguments: [
            "\u{1B}[31m", "\u{1B}[0m\u{7}", "AB\u{200E}-1234", "\u{E000}\u{E001}", "\u{FFFD}\u{FFFD}",
            "AB-12\u{2028}34", "\u{378}1",
        ])
    func untypeable(_ garbage: String) throws {
        let cells = (1...18).map { "AB-\(1000 + $0)" } + [garbage, garbage]
        let column = try SpecProposer.propose("code", cells: cells, unmaskable: 0)
        #expect(column.formats == ["[AA]-[0000]"])
        #expect(column.covered == 18)
        #expect(column.notes == ["2 with a control or invisible character, which no format takes"])
    }

    @Test("a column one in ten of whose values is a terminal escape is not 100% complete")
    func terminalEscapes() throws {
        let cells = (1...90).map { "AB-\(1000 + $0)" } + Array(repeating: "\u{1B}[31m", count: 10)
        let column = try SpecProposer.propose("code", cells: cells, unmaskable: 0)
        #expect(column.formats == ["[AA]-[0000]"])
        #expect(column.complete == 90 && column.minCompleteHundredths == 90)
        let yaml = SpecProposal(file: "x.csv", records: 100, columns: [column]).yaml(schemaBeside: false)
        #expect(!yaml.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
    }

    @Test("minComplete is the complete share rounded down to hundredths, written as its shortest decimal")
    func minCompleteText() {
        #expect(SpecProposal.minComplete(100) == "1")
        #expect(SpecProposal.minComplete(90) == "0.9")
        #expect(SpecProposal.minComplete(93) == "0.93")
        #expect(SpecProposal.minComplete(5) == "0.05")
        #expect(SpecProposal.minComplete(0) == "0")
        #expect(ColumnProposal(name: "x", values: 3, complete: 2).minCompleteHundredths == 66)
        #expect(SpecProposer.percent(2, of: 3) == "66.66%")
    }

    @Test("the sample is read as run reads it: CSV fields by header, JSON members by key, numbers as written")
    func sampling() throws {
        let folder = try TemporaryFolder()
        let csv = try folder.write("a.csv", "id,phone\r\n1,\"(555) 201-0001\"\r\n2,\r\n3,555.201.0003\r\n")
        var options = DescribeOptions(input: csv)
        let sample = try RecordSample.read(options)
        #expect(sample.columns == ["id", "phone"])
        #expect(sample.records == 3)
        #expect(
            sample.tallies.map(\.distinct) == [
                ["1": 1, "2": 1, "3": 1], ["(555) 201-0001": 1, "555.201.0003": 1],
            ])
        let ndjson = try folder.write(
            "b.ndjson",
            #"{"zip": 6429, "n": {"a": 1}}"# + "\n" + #"{"phone": "5552010001", "zip": null, "n": true}"#
                + "\n")
        options = DescribeOptions(input: ndjson)
        options.head = 1
        let first = try RecordSample.read(options)
        #expect(first.records == 1)
        // The object's member is a column of its own, named by its path.
        #expect(first.columns == ["zip", "n", "n.a"])
        #expect(first.tallies[0].distinct == ["6429": 1])
        // A sample of one record of two: every record is read, and every key is a column.
        options.head = 0
        options.sample = 1
        let one = try RecordSample.read(options)
        #expect(one.records == 2 && one.sampled == 1 && !one.isWhole)
        #expect(one.columns == ["zip", "n", "n.a", "phone"])
        #expect(one.tallies.map(\.unmaskable) == [0, 2, 0, 0])
        #expect(one.tallies.map(\.objects) == [0, 1, 0, 0], "the object; `true` is no object")
        options.sample = 0
        let all = try RecordSample.read(options)
        #expect(all.columns == ["zip", "n", "n.a", "phone"])
        #expect(all.tallies.map(\.distinct) == [["6429": 1], [:], ["1": 1], ["5552010001": 1]])
        #expect(all.tallies.map(\.unmaskable) == [0, 2, 0, 0])
    }

    /// Found by attack: describe stopped with `key "x.y" appears twice` on a record that has the
    /// top-level key `x.y` and the path x.y, which a run reads as one value: the key's.
    @Test("a top-level key spelled as a path wins over the path in its record, as a run reads it")
    func literalKeyOverPath() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write(
            "x.ndjson",
            #"{"x.y": "111-1111", "x": {"y": "222-2222"}}"# + "\n"
                + #"{"x": {"y": "333-3333"}, "x.y": "444-4444"}"#
                + "\n" + #"{"x": {"y": "555-5555"}}"# + "\n")
        var options = DescribeOptions(input: input)
        options.sample = 0
        let sample = try RecordSample.read(options)
        let column = try #require(sample.columns.firstIndex(of: "x.y"))
        #expect(sample.tallies[column].distinct == ["111-1111": 1, "444-4444": 1, "555-5555": 1])
        #expect(sample.columns.filter { $0 == "x.y" }.count == 1)
    }

    /// Found by attack: describe proposed `contact.phone` from the records where contact is an
    /// object, and check of its own spec failed on the record where it is a string.
    @Test(
        "a path through a value that is not an object fails describe as it would fail the run",
        arguments: [0, 2])
    func pathThroughAString(sample: Int) throws {
        let folder = try TemporaryFolder()
        let input = try folder.write(
            "mixed.ndjson",
            #"{"contact": {"phone": "555-1234"}}"# + "\n" + #"{"contact": {"phone": "555-2345"}}"# + "\n"
                + #"{"contact": "call the desk"}"# + "\n")
        var options = DescribeOptions(input: input)
        options.sample = sample
        do {
            _ = try SpecProposer.describe(options)
            Issue.record("describe proposed a spec that its data fails")
        } catch {
            #expect(error.status == .dataError)
            #expect(
                error.message.description.hasSuffix(
                    #"mixed.ndjson:3: key path "contact.phone" goes through "contact", which holds a string; expected an object"#
                ), "\(error.message)")
        }
    }

    @Test("an added column whose default name the input has is written as null, which run accepts")
    func addedColumnsTheInputHas() throws {
        let folder = try TemporaryFolder()
        let csv = try folder.write(
            "clean.csv", "zip,zip_formatted,zip_status\n06429,06429,complete\n72662,72662,complete\n")
        var options = DescribeOptions(input: csv)
        options.only = ["zip"]
        let proposal = try SpecProposer.describe(options)
        #expect(proposal.proposed.map(\.omittedOutputs) == [["formattedColumn", "statusColumn"]])
        #expect(
            proposal.yaml(schemaBeside: false).contains("    formattedColumn: null\n    statusColumn: null\n")
        )
        let spec = try SpecLoader.parse(Array(proposal.json.utf8), file: "proposed.json")
        #expect(spec.columns[0].formattedColumn == nil && spec.columns[0].statusColumn == nil)
        #expect(spec.columns[0].extractedColumn == "zip_extracted")
        let report = try Runner.run(spec, RunOptions(input: csv, output: nil, jobs: 1))
        #expect(report.passed)
    }

    @Test("--only names columns the input has; another is a usage error with a suggestion")
    func only() throws {
        let folder = try TemporaryFolder()
        let csv = try folder.write("a.csv", "id,phone,zip\n1,(555) 201-0001,06429\n")
        var options = DescribeOptions(input: csv)
        options.only = ["zip"]
        #expect(try SpecProposer.describe(options).columns.map(\.name) == ["zip"])
        options.only = ["Phone"]
        #expect(
            throws: MaskCleanError.usage(
                "\(Setting.proposedColumns): no column \"Phone\" in \(csv) (its columns: \"id\", \"phone\", \"zip\"); did you mean \"phone\"?"
            )
        ) { try SpecProposer.describe(options) }
    }

    @Test(
        "values beyond a column's distinct ones are measured in a second reading as if kept",
        arguments: ["demo/customers.csv", "cases/describe-orders-tsv/orders.tsv", "dialects/customers.csv"])
    func spooledValues(_ fixture: String) throws {
        var options = DescribeOptions(input: Self.fixtures.appendingPathComponent(fixture).path)
        options.sample = 0
        let kept = try SpecProposer.describe(options)
        let spooled = try SpecProposer.describe(options, limits: .init(distinctValues: 3, shapes: .max))
        #expect(spooled.yaml(schemaBeside: false) == kept.yaml(schemaBeside: false))
        let sample = try RecordSample.read(options, limits: .init(distinctValues: 3, shapes: .max))
        #expect(sample.tallies.contains { $0.beyond != nil })
    }

    @Test("a column of more shapes than are counted says so, and its other values make no format")
    func shapesBeyondTheCount() throws {
        let folder = try TemporaryFolder()
        let notes = (1...40).map { "\(String(repeating: "word ", count: $0))" }
        let csv = try folder.write(
            "notes.csv", "id,zip,note\n" + notes.enumerated().map { "\($0),0642\($0 % 10),\($1)\n" }.joined())
        var options = DescribeOptions(input: csv)
        options.only = ["zip", "note"]
        let proposal = try SpecProposer.describe(options, limits: .init(distinctValues: 2, shapes: 3))
        #expect(proposal.columns[1].leftOut == "free text: words in 40 of 40 values, more than 5 shapes")
        #expect(proposal.columns[0].formats == ["[00000]"] && proposal.columns[0].complete == 40)
    }

    @Test("a shape's format names it: read back, it is the same shape")
    func shapeFromFormat() {
        for value in ["(555) 123-4567", "Zoë 7", "٣٤٥-12", "[x]{y}\\", "**** 6434", "a\u{301}-b", ""] {
            let shape = ValueShape(value)
            #expect(ValueShape(format: shape.format) == shape, "\(value)")
        }
    }
}

/// `describe` reads records with the readers a run uses, straight from their batches: a CSV
/// record's fields are never written as JSON to be read back (docs/architecture.md).
@Suite("describe reads record batches")
struct DescribeBatchReadingTests {
    @Test("a cell that is not UTF-8 is named as the run names it, with no word of JSON")
    func invalidUTF8() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("export.csv", Array("id,name\n1,Zoë\n2,caf".utf8) + [0xE9, 0x0A])
        #expect(throws: MaskCleanError.data(path, line: 3, "invalid UTF-8 in column \"name\"")) {
            try RecordSample.read(DescribeOptions(input: path))
        }
    }

    @Test(
        "CSV fields come from the batch decoded: quotes and doubled quotes are the format's, not the value's")
    func quotedFields() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "export.csv", "id,note\r\n1,\"say \"\"hi\"\"\"\r\n2,\"two\r\nlines\"\r\n3,plain\r\n")
        let sample = try RecordSample.read(DescribeOptions(input: path))
        #expect(sample.records == 3)
        #expect(sample.columns == ["id", "note"])
        #expect(sample.tallies[1].distinct.keys.sorted() == ["plain", "say \"hi\"", "two\r\nlines"])
    }

    /// Each reading checks that the file does not change while it is read; between the two,
    /// an export rewritten or replaced would be measured on records the proposal was not judged
    /// from. The second reading refuses a file that is not the one the first read.
    @Test(
        "an input rewritten or replaced between describe's two readings is refused",
        arguments: ["replaced", "appended", "unchanged"])
    func changedBetweenReadings(_ change: String) throws {
        let folder = try TemporaryFolder()
        let text = (0..<2_000).map { "\(10_000 + $0),555-\(1000 + $0)\n" }.joined()
        let input = try folder.write("export.csv", "zip,phone\n" + text)
        var options = DescribeOptions(input: input)
        options.sample = 100
        let sample = try RecordSample.read(options)
        switch change {
        case "replaced":
            try ("zip,phone\n" + text.uppercased()).write(toFile: input, atomically: true, encoding: .utf8)
        case "appended":
            let handle = try #require(FileHandle(forWritingAtPath: input))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("99999,555-0000\n".utf8))
            try handle.close()
        default: break
        }
        if change == "unchanged" {
            #expect(try sample.reopened().name == input)
        } else {
            #expect {
                _ = try sample.reopened()
            } throws: { error in
                (error as? MaskCleanError)?.message.contains("changed between describe's two readings")
                    == true
                    && (error as? MaskCleanError)?.status == .dataError
            }
        }
    }
}
