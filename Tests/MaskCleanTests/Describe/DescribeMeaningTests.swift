import Foundation
import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// Issue 28, item 2: `describe` proposes no column whose formats would write a complete cell so
/// that it says something else: letters and digits in order, signs and decimal points kept, digit
/// groups kept as written unless the kind defines them (docs/command-line.md, `describe`).
@Suite("describe: a proposed format keeps what each value says")
struct DescribeMeaningTests {
    static func change(_ input: String, _ formatted: String, _ check: MeaningCheck = MeaningCheck())
        -> MeaningChange?
    {
        var input = input
        var formatted = formatted
        return input.withUTF8 { input in formatted.withUTF8 { check.change(input, $0) } }
    }

    @Test(
        "values written as they came, or with separators dropped or put in where none grouped them, say the same",
        arguments: [
            ("-33.8688", "-33.8688"), ("151.2093", "151.2093"), ("−12.5", "-12.5"),
            ("1,234,567", "1,234,567"),
            ("12 345", "12345"), ("+33 1 23 45 67 89", "+33123456789"),
            ("4111111111111111", "4111 1111 1111 1111"),
            ("2020-01-02", "20200102"), ("20200102", "2020-01-02"), ("1234AB", "1234 AB"),
            ("SW1A1AA", "SW1A 1AA"),
            ("K1A 0B1", "K1A0B1"), ("Zoë 7", "Zoë7"), ("(555) 123-4567", "555-123-4567"),
            ("AB-1234", "AB1234"),
            ("01310-100", "01310-100"), ("-.5", "-.5"), ("No. 5", "No 5"),
        ])
    func kept(_ input: String, _ formatted: String) {
        #expect(Self.change(input, formatted) == nil, "\(input) written \(formatted)")
    }

    @Test(
        "a sign dropped or added, a decimal point moved, digits regrouped or data changed is a change",
        arguments: [
            ("-33.8688", "338688", MeaningChange.signDropped(0x2D)),
            ("-33.8688", "33.8688", .signDropped(0x2D)),
            ("−0.1278", "0.1278", .signDropped(0x2D)),
            ("+5", "5", .signDropped(0x2B)),
            ("5", "-5", .signAdded(0x2D)),
            ("-33.8688", "-338.688", .pointMoved),
            ("151.2093", "1512093", .pointMoved),
            ("12345", "12.345", .pointMoved),
            ("1,234,567", "1234567", .pointMoved),
            ("1,234,567", "12,34,567", .pointMoved),
            ("3,14", "3.14", .pointMoved),
            ("12 345", "123 45", .regrouped),
            ("+44 20 7946 0958", "+44 207 946 0958", .regrouped),
            ("+33 1 23 45 67 89", "+33 12 34 56 78 9", .regrouped),
            ("4111 1111 1111 1111", "41111 111 1111 1111", .regrouped),
            ("020-7946-0958", "0207 946 0958", .regrouped),
            ("AB12", "AB1", .dataDropped),
            ("AB12", "BA12", .dataChanged),
            ("sw1a 1aa", "SW1A 1AA", .dataChanged),
            ("Zoë 7", "Zoe 7", .dataChanged),
            ("1234", "ID-1234", .dataAdded),
        ])
    func changed(_ input: String, _ formatted: String, _ expected: MeaningChange) {
        #expect(Self.change(input, formatted) == expected, "\(input) written \(formatted)")
    }

    @Test("a column in a case compares letters in either case; its ignored characters are not data")
    func caseAndIgnored() {
        let upper = MeaningCheck(foldsCase: true)
        #expect(Self.change("sw1a 1aa", "SW1A 1AA", upper) == nil)
        #expect(Self.change("straße", "STRASSE", upper) == .dataAdded)
        #expect(Self.change("ab12", "AB13", upper) == .dataChanged)
        let ignoring = MeaningCheck(ignore: "x")
        #expect(Self.change("12x34", "12-34", ignoring) == nil)
        #expect(Self.change("12x34", "1234", MeaningCheck()) == .dataDropped)
    }

    @Test("a kind's formats define their grouping and separators, never its signs or its data")
    func kinds() {
        let card = MeaningCheck(kind: ValueKind.card.name)
        #expect(Self.change("4111 1111 1111 1111", "4111-1111-1111-1111", card) == nil)
        #expect(Self.change("4111 1111 1111 1111", "4111 11111111 1111", card) == nil)
        #expect(Self.change("4111 1111 1111 1111", "4111 1111 1111 1112", card) == .dataChanged)
        let date = MeaningCheck(kind: ValueKind.date.name)
        #expect(Self.change("13.07.1948", "13/07/1948", date) == nil)
        #expect(Self.change("13.07.1948", "13/07/1948") == .pointMoved)
        #expect(Self.change("13.07.1948", "31/07/1948", date) == .dataChanged)
        // North American formats write the country code +1 that a value may lack or have.
        let phone = MeaningCheck(kind: ValueKind.phone.name)
        #expect(Self.change("5551234567", "+1 (555) 123-4567", phone) == nil)
        #expect(Self.change("1-555-123-4567", "+1 (555) 123-4567", phone) == nil)
        #expect(Self.change("(202) 456-1414 x123", "+1 (202) 456-1414 x123", phone) == nil)
        #expect(Self.change("555-123-4567", "+1 (555) 123-4568", phone) == .dataChanged)
        #expect(Self.change("555-123-4567 x12", "+1 (555) 123-4567", phone) == .dataDropped)
        #expect(Self.change("329.955.9281x300", "+1 (329) 955-9281 ext. 300", phone) == nil)
        #expect(Self.change("708-900-2625 #5", "+1 (708) 900-2625 x5", phone) == nil)
        // Twelve bare digits are no number with an extension: the marker is a letter put in.
        #expect(Self.change("947576690561", "+1 (947) 576-6905x61", phone) == .dataAdded)
        #expect(Self.change("5551234567", "+1 (555) 123-4567") == .signAdded(0x2B))
    }

    /// The verifier itself, whatever proposed the formats: a column whose formats move a decimal
    /// point, as a format of the digits' count did for coordinates, is left out with the reason.
    @Test("a column whose formats change a complete value is left out, with redacted shapes")
    func measureLeavesOut() throws {
        var column = ColumnProposal(name: "lat", values: 3)
        // Without `significant`, a point is punctuation a format may drop and put in.
        column.formats = ["[00].[0000]"]
        var measure = try Measure(column)
        for value in ["33.8688", "51.5074", "151.209"] { measure.add(value, count: 1) }
        measure.finish(&column)
        #expect(column.complete == 3)
        #expect(
            column.leftOut
                == "its formats would change what 1 value says: a decimal point or comma between digits dropped, moved or added in 1 (\"[000].[000]\" written \"[00].[0000]\")"
        )
        // The comment shows shapes, never a digit of the data.
        #expect(column.leftOut?.contains("151") == false)
    }

    @Test("a phone column's numbers read back as the same numbers, trunk prefix dropped or not")
    func phoneNumbersReadBack() throws {
        var column = ColumnProposal(name: "tel", values: 3)
        column.kind = PhoneChoice.kindName
        column.phone = PhoneProposal(defaultRegion: "GB")
        var measure = try Measure(column)
        for value in ["+44 (0)20 7946 0958", "020 7946 0958", "+33 1 42 68 53 00"] {
            measure.add(value, count: 1)
        }
        measure.finish(&column)
        #expect(column.complete == 3)
        #expect(column.leftOut == nil)
    }

    @Test("coordinates are proposed in their own shapes, each again after its sign, or left out as numbers")
    func coordinates() throws {
        // Six digits each, the point in three places: formats of the digits' count moved it.
        let latitudes = Array(repeating: ["-33.8688", "51.5074", "151.209", "-0.12780", "40.7128"], count: 4)
            .joined()
        let column = try SpecProposer.propose("lat", cells: Array(latitudes), unmaskable: 0)
        #expect(column.leftOut == nil)
        #expect(
            column.formats == [
                "[00].[0000]", "-[00].[0000]", "[000].[000]", "-[000].[000]", "[0].[00000]", "-[0].[00000]",
            ])
        #expect(column.complete == 20)
        let longitudes = [
            "-74.006", "139.6503", "2.35", "-43.1729", "151.20932", "-0.127758", "37.6", "12.4964",
            "-122.4194155",
            "103.819836", "-58.3816", "28.97835", "18.0686", "100.5018",
        ]
        let varied = try SpecProposer.propose("lon", cells: longitudes, unmaskable: 0)
        #expect(varied.leftOut?.hasPrefix("signed or decimal numbers in 11 shapes") == true, "\(varied)")
    }

    /// North American numbers, one in twenty with an extension, and twelve bare digits (an
    /// extension format writes them as a number with one) in three records or in one of 25. A
    /// format at fault that the sample shows is taken out before every record is read, and the
    /// comment says the sample showed it; one the sample misses is found in the reading of
    /// every record, and the column measured again.
    @Test(
        "a kind's format at fault is taken out: from the sample when it shows it, else from every record",
        arguments: [
            (rare: true, said: "it would change what 3 values say"),
            (false, "in the sample, it would change what 6 values say"),
        ])
    func formatTakenOut(_ rare: Bool, _ said: String) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "maskclean-taken-out-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var text = "id,phone\n"
        for index in 0..<20_000 {
            let (area, exchange, line) = (200 + index % 700, 200 + index * 7 % 700, 1000 + index * 37 % 9000)
            let bare = rare ? [5003, 12_007, 17_011].contains(index) : index % 25 == 3
            let phone =
                bare
                ? "1\(area)\(exchange)\(line)\(index % 10)"
                : index % 20 == 0
                    ? "(\(area)) \(exchange)-\(line) x\(10 + index % 80)"
                    : index % 20 < 10 ? "(\(area)) \(exchange)-\(line)" : "\(area)-\(exchange)-\(line)"
            text += "\(index),\(phone)\n"
        }
        try text.write(to: scratch, atomically: true, encoding: .utf8)
        var options = DescribeOptions(input: scratch.path)
        options.sample = 200
        let proposal = try SpecProposer.describe(options)
        let phone = try #require(proposal.proposed.first { $0.name == "phone" })
        #expect(phone.formats == ["+1 ([000]) [000]-[0000]"])
        #expect(phone.formatsTakenOut == ["+1 ([000]) [000]-[0000] x[09]"])
        let note = try #require(phone.notes.first { $0.hasPrefix("taken out ") })
        #expect(note.contains(said), "\(note)")
        // Measured with the format taken out: the bare digits are not complete.
        #expect(phone.uncovered.contains { $0.shape == "[000000000000]" && $0.count == (rare ? 3 : 800) })
    }

    /// A format the sample showed at fault and one only every record showed are said apart, each
    /// with the count where it was found: the reading of every record's count was said as the
    /// sample's before.
    @Test("formats taken out in the sample and in every record have a comment each")
    func takenOutInSampleAndInEveryRecord() throws {
        var column = ColumnProposal(name: "phone", values: 0)
        column.kind = "North American phone numbers"
        column.formats = [
            "+1 ([000]) [000]-[0000]", "+1 ([000]) [000]-[0000]x[0999]", "+1 ([000]) [000]-[0000] ext. [09]",
        ]
        var sample = try Measure(column)
        for value in ["155520100012", "155520100013", "(555) 201-0001"] { sample.add(value, count: 1) }
        #expect(sample.finish(&column, sampled: true))
        var every = try Measure(column)
        for value in ["155520100012", "155520100013", "155520100014", "155520100015", "(555) 201-0001"] {
            every.add(value, count: 1)
        }
        #expect(every.finish(&column))
        #expect(column.formats == ["+1 ([000]) [000]-[0000]"])
        let notes = column.notes.filter { $0.hasPrefix("taken out ") }
        #expect(notes.count == 2, "\(notes)")
        #expect(
            notes.first?.hasPrefix(
                #"taken out "+1 ([000]) [000]-[0000]x[0999]": in the sample, it would change what 2 values say"#
            ) == true, "\(notes)")
        #expect(
            notes.last?.hasPrefix(
                #"taken out "+1 ([000]) [000]-[0000] ext. [09]": it would change what 4 values say"#) == true,
            "\(notes)")
    }
}
