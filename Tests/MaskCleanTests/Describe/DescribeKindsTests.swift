import Foundation
import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// Issue 28, item 3: `describe` proposes the international shapes as kinds, recognised by their
/// national rules and with the check each has: postcodes of nine countries (every shape the
/// country allows, `case: upper`), ISO 8601 timestamps, IBANs, ISBNs, GTINs, and US tax numbers
/// where the column's name says so. Each proposal is measured as `check` masks (`Measure`): every
/// valid value of every shape must come out complete.
@Suite("describe: international kinds")
struct DescribeKindsTests {
    /// The column `describe` proposes for `cells`, measured.
    static func propose(_ name: String, _ cells: [String]) throws -> ColumnProposal {
        try SpecProposer.propose(name, cells: cells, unmaskable: 0)
    }

    /// Whether `value` is of `kind` by its rule (not merely of its shape).
    static func recognised(_ kind: ValueKind, _ value: String) -> Bool {
        switch kind.match(value) {
        case .none, .failing: false
        default: true
        }
    }

    /// A UK export's postcodes, of all six shapes, with and without the space, some lower-case.
    static let british = [
        "M1 1AE", "B33 8TH", "CR2 6XH", "DN55 1PT", "W1A 0AX", "EC1A 1BB", "SW1A 2AA", "LS1 4AP",
        "m11ae", "b338th", "cr26xh", "DN551PT", "W1A0AX", "ec1a1bb", "G2 3BZ", "BT7 1NN", "E14 5AB",
        "NW1 6XE", "SE1 9GF", "L3 9PP",
    ]

    @Test("UK postcodes of all six shapes: every shape's format, the seen first, case upper, all complete")
    func ukPostcodes() throws {
        let column = try Self.propose("postcode", Self.british)
        #expect(column.kind == "UK postcodes")
        #expect(Set(column.formats) == Set(PostcodeRules.ukFormats))
        #expect(column.letterCase == "upper")
        #expect(column.complete == Self.british.count, "\(column.uncovered)")
        // A column of only one shape still gets the five others: a valid code of a shape the
        // sample lacked comes out complete on the whole file.
        let outer = try Self.propose("pc", ["SW1A 1AA", "EC1A 1BB", "WC2N 5DU", "W1A 0AX", "EC2V 7HH"])
        #expect(outer.formats.count == 6)
        #expect(outer.formats.first == "[AA0A] [0AA]")
        let spec = SpecProposal(file: "uk.csv", records: 5, columns: [outer])
        #expect(spec.yaml(schemaBeside: false).contains("UK postcodes"))
        #expect(spec.yaml(schemaBeside: false).contains("\n    case: \"upper\"\n"))
    }

    @Test("UK look-alikes that break Royal Mail's rules are not UK postcodes")
    func ukLookalikes() {
        for value in Self.british { #expect(Self.recognised(.ukPostcode, value), "\(value)") }
        // Q first, I second, I and Q third in A9A, C fourth in AA9A, C and K in the inward code, a
        // space in the wrong place, a digit where the inward letters go.
        for value in [
            "QA1 1AA", "AI1 1AA", "W1I 1AA", "W1Q 1AA", "EC1C 1BB", "M1 1CA", "M1 1AK", "M 11AE", "M1 123",
            "SW1A1AA1",
        ] {
            #expect(!Self.recognised(.ukPostcode, value), "\(value)")
        }
    }

    @Test("Canadian, Dutch and Irish codes by their national rules, and their look-alikes refused")
    func canadianDutchIrish() throws {
        let canadian = ["K1A 0B1", "M5V 3L9", "H2X1Y4", "V6B 4Y8", "T2P 2M5", "k1a0b1", "B3H 4R2", "R3C 4A5"]
        for value in canadian { #expect(Self.recognised(.caPostcode, value), "\(value)") }
        // D, F, I, O, Q, U nowhere; W and Z never first.
        for value in ["D1A 0B1", "K1D 0B1", "K1A 0U1", "W1A 0B1", "Z1A 0B1", "K1A0B", "11A 0B1"] {
            #expect(!Self.recognised(.caPostcode, value), "\(value)")
        }
        let ca = try Self.propose("postal_code", canadian)
        #expect((ca.kind, ca.formats, ca.letterCase) == ("Canadian postal codes", ["[A0A] [0A0]"], "upper"))
        #expect(ca.complete == canadian.count)

        let dutch = ["1012 AB", "3511LX", "9999 ZZ", "1000 AA", "2514 ea", "5611 AZ", "6211 LE"]
        for value in dutch { #expect(Self.recognised(.nlPostcode, value), "\(value)") }
        for value in ["0123 AB", "1234 SA", "1234 SD", "1234 SS", "123 AB", "1234 A1"] {
            #expect(!Self.recognised(.nlPostcode, value), "\(value)")
        }
        let nl = try Self.propose("postcode", dutch)
        #expect((nl.kind, nl.formats, nl.letterCase) == ("Dutch postcodes", ["[0000] [AA]"], "upper"))
        #expect(nl.complete == dutch.count)

        let irish = [
            "A65 F4E2", "D02 X285", "D6W YP36", "T12 RW26", "H91 E2K3", "d02x285", "V94 T9PX", "Y35 K7N8",
        ]
        for value in irish { #expect(Self.recognised(.iePostcode, value), "\(value)") }
        // Z99 and A00 are no routing key; B, G, ... are not in the identifier's alphabet.
        for value in ["Z99 F4E2", "A00 F4E2", "A65 B4E2", "A65 F4G2", "A65 F4E", "D6X YP36"] {
            #expect(!Self.recognised(.iePostcode, value), "\(value)")
        }
        let ie = try Self.propose("eircode", irish)
        #expect(ie.kind == "Eircodes (Irish postcodes)")
        #expect(ie.formats == ["[A00] [____]", "[A0A] [____]"])
        #expect(ie.complete == irish.count, "\(ie.uncovered)")
        #expect(PostcodeRules.routingKeys.count == 140)
    }

    @Test("digit-only postcodes are a country's only where the column's name says so")
    func digitOnlyPostcodes() throws {
        let german = ["10115", "80331", "01067", "20095", "50667", "99998", "60311", "70173"]
        let plz = try Self.propose("PLZ", german)
        #expect(plz.kind == "German postcodes (PLZ)")
        #expect(plz.formats == ["[00000]"])
        #expect(plz.complete == german.count)
        #expect(!Self.recognised(.dePostcode, "01000"))
        // The same digits under another name are what they were: US ZIP codes.
        #expect(try Self.propose("zip", german).kind == "US ZIP codes")
        // Under a name that says no postcode, five digits are an identifier, not ZIP codes.
        #expect(try Self.propose("code", german).kind == nil)

        let french = ["75008", "13001", "69002", "20000", "97411", "98000", "33000", "01000"]
        let cp = try Self.propose("Code postal", french)
        #expect(cp.kind == "French postcodes")
        #expect(cp.complete == french.count)
        for value in ["00100", "96000", "99000"] { #expect(!Self.recognised(.frPostcode, value), "\(value)") }

        let brazilian = ["01310-100", "20040-002", "70040-010", "30130-010", "40020000", "90010-150"]
        let cep = try Self.propose("cep", brazilian)
        #expect((cep.kind, cep.formats) == ("Brazilian postcodes (CEP)", ["[00000]-[000]"]))
        #expect(cep.complete == brazilian.count)
        #expect(try Self.propose("ref", brazilian).kind == nil)

        let japanese = ["100-0001", "150-0002", "530-0001", "060-0001", "9000001", "812-0011"]
        let jp = try Self.propose("postal_code", japanese)
        #expect((jp.kind, jp.formats) == ("Japanese postcodes", ["[000]-[0000]"]))
        #expect(jp.complete == japanese.count)
        #expect(try Self.propose("extension", japanese).kind != "Japanese postcodes")

        let indian = ["110001", "400001", "560 001", "600001", "700001", "500001", "380001"]
        let pin = try Self.propose("pincode", indian)
        #expect((pin.kind, pin.formats) == ("Indian postcodes (PIN)", ["[000000]"]))
        #expect(pin.complete == indian.count)
        #expect(!Self.recognised(.inPostcode, "012345"))
        #expect(try Self.propose("order_no", indian).kind == nil)
    }

    @Test("ISO 8601 timestamps: a date-time format with its literal T, colons and zone, never letter slots")
    func timestamps() throws {
        let utc = [
            "2024-03-05T14:22:09Z", "2024-03-06T08:00:00Z", "2024-12-31T23:59:60Z", "2023-01-01T00:00:00Z",
        ]
        let column = try Self.propose("created_at", utc)
        #expect(column.kind == "ISO 8601 timestamps")
        #expect(column.formats == ["[0000]{-}[00]{-}[00]{T}[00]{:}[00]{:}[00]{Z}"])
        #expect(column.check == nil)
        #expect(column.notes.contains { $0.hasPrefix("no date check") })
        #expect(column.complete == utc.count)
        #expect(column.letterCase == nil)

        let mixed = [
            "2024-03-05 14:22:09", "2024-03-05 14:22:10", "2024-03-05 14:22:11.5", "2024-03-05 14:22:12.250",
            "2024-03-05T14:22:09+01:00", "2024-03-05T09:22:09-05:00", "2024-03-05T09:22-0500", "2024-03-05",
        ]
        let offsets = try Self.propose("updated", mixed)
        #expect(offsets.kind == "ISO 8601 timestamps")
        #expect(offsets.formats.contains("[0000]{-}[00]{-}[00]{ }[00]{:}[00]{:}[00]{.}[099]"))
        #expect(offsets.formats.contains("[0000]{-}[00]{-}[00]{T}[00]{:}[00]{:}[00]{-}[00]{:}[00]"))
        #expect(offsets.formats.contains("[0000]{-}[00]{-}[00]{T}[00]{:}[00]{:}[00]{+}[00]{:}[00]"))
        #expect(offsets.significant == "+-")
        #expect(offsets.complete == mixed.count, "\(offsets.uncovered)")
        // An offset's sign is kept: where the column had only `+`, a `-` is not complete in its
        // place (it is significant).
        let plus = try Self.propose("updated", ["2024-03-05T14:22:09+01:00", "2024-03-06T14:22:09+02:00"])
        #expect(plus.significant == "+-")
        var measure = try Measure(plus)
        measure.add("2024-03-05T09:22:09-05:00", count: 1)
        measure.add("2024-03-07T09:22:09+05:00", count: 1)
        #expect(measure.complete == 1)
        for value in [
            "2024-13-05T14:22:09Z", "2024-03-05T25:22:09Z", "2024-03-05X14:22:09", "2024-03-05T14:22:09ZZ",
        ] {
            #expect(!Self.recognised(.timestamp, value), "\(value)")
        }
        // A column of dates alone stays dates, with their check.
        let dates = try Self.propose("day", ["2024-03-05", "2024-03-06", "2024-04-01"])
        #expect((dates.kind, dates.check) == ("dates", .date))
    }

    /// The example IBAN of every country in the SWIFT registry, electronic and in print.
    static func registryIBANs() throws -> [String] {
        let file = repositoryRoot.appendingPathComponent("Tests/Oracles/iban-registry-examples.tsv")
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.flatMap { line -> [String] in
                let fields = line.split(separator: "\t").map(String.init)
                return [fields[2], fields[3]]
            }
    }

    @Test("IBANs of every registered country, electronic and grouped by four, get check: iban and case upper")
    func ibans() throws {
        let ibans = try Self.registryIBANs()
        #expect(ibans.count > 170)
        let column = try Self.propose("iban", ibans)
        #expect(column.kind == "IBANs")
        #expect(column.check == .iban)
        #expect(column.letterCase == "upper")
        #expect(column.formats.count == 6)
        // Six lengths' formats cannot hold 89 countries': a column of one country's is complete.
        let german =
            ibans.filter { $0.hasPrefix("DE") } + ["de89370400440532013000", "DE02 1203 0000 0000 2020 51"]
        let de = try Self.propose("iban", german)
        #expect(de.formats == ["[AA00] [____] [____] [____] [____] [__]"])
        #expect(de.complete == german.count)
        // One in ten may be mistyped; more, and the column is not IBANs.
        let typo = "DE89 3704 0044 0532 0130 01"
        #expect(ValueKind.iban.match(typo).map { if case .failing = $0 { true } else { false } } == true)
        #expect(try Self.propose("iban", german + german + german + [typo]).check == .iban)
        #expect(try Self.propose("iban", [typo, typo, typo] + german).kind == nil)
    }

    /// `count` numbers of `length` digits with their GS1 check digit, the first `prefix`.
    static func gtins(_ count: Int, length: Int, prefix: String = "", seed: UInt64 = 5) -> [String] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let body =
                prefix
                + (0..<(length - 1 - prefix.count)).map { _ in
                    String(Int.random(in: 0...9, using: &generator))
                }
                .joined()
            let digits = body.compactMap(\.wholeNumberValue)
            var sum = 0
            for (position, digit) in digits.reversed().enumerated() {
                sum += digit * (position % 2 == 0 ? 3 : 1)
            }
            return body + String((10 - sum % 10) % 10)
        }
    }

    /// `count` ISBN-10s, some ending in `X`.
    static func isbn10s(_ count: Int, seed: UInt64 = 9) -> [String] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let digits = (0..<9).map { _ in Int.random(in: 0...9, using: &generator) }
            let sum = digits.enumerated().reduce(0) { $0 + $1.element * (10 - $1.offset) }
            let check = (11 - sum % 11) % 11
            return digits.map(String.init).joined() + (check == 10 ? "X" : String(check))
        }
    }

    @Test("ISBNs, hyphenated or not, get check: isbn; GTINs check: gtin; random digits neither")
    func isbnsAndGTINs() throws {
        let tens = Self.isbn10s(60)
        #expect(tens.contains { $0.hasSuffix("X") })
        let thirteens = Self.gtins(40, length: 13, prefix: "978")
        let hyphenated = ["978-0-306-40615-7", "0-306-40615-2", "978-3-16-148410-0", "0-19-853453-1"]
        let isbn = try Self.propose("isbn", tens + thirteens + hyphenated)
        #expect(isbn.kind == "ISBNs")
        #expect(isbn.check == .isbn)
        #expect(Set(isbn.formats) == ["[000000000_]", "[0000000000000]"])
        #expect(isbn.letterCase == "upper")
        #expect(isbn.complete == 104, "\(isbn.uncovered)")

        let eans =
            Self.gtins(80, length: 13, prefix: "40") + Self.gtins(20, length: 12, seed: 2)
            + Self.gtins(10, length: 8, seed: 3)
        let gtin = try Self.propose("ean", eans)
        #expect(gtin.kind == "GTINs (EAN, UPC)")
        #expect(gtin.check == .gtin)
        #expect(gtin.formats == ["[0000000000000]", "[000000000000]", "[00000000]"])
        #expect(gtin.complete == eans.count)

        var generator = SplitMix64(seed: 13)
        let random = (0..<200).map { _ in
            (0..<13).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        }
        let ids = try Self.propose("id", random)
        #expect(ids.kind == nil, "one in ten passes GS1's check: not GTINs")
        #expect(ids.check == nil)
    }

    @Test("US EINs and SSNs only where the column's name says so")
    func usTaxNumbers() throws {
        let eins = ["12-3456789", "45-0987654", "98-7654321", "01-2345678", "203456789", "61-1234567"]
        let ein = try Self.propose("Employer EIN", eins)
        #expect((ein.kind, ein.formats) == ("US employer identification numbers (EIN)", ["[00]-[0000000]"]))
        #expect(ein.complete == eins.count)
        #expect(try Self.propose("account", eins).kind == nil)
        #expect(!Self.recognised(.ein, "07-1234567"))

        let ssns = ["123-45-6789", "234-56-7890", "345678901", "456-78-9012", "567-89-0123", "678-90-1234"]
        let ssn = try Self.propose("ssn", ssns)
        #expect((ssn.kind, ssn.formats) == ("US social security numbers", ["[000]-[00]-[0000]"]))
        #expect(ssn.complete == ssns.count)
        #expect(try Self.propose("socialSecurityNumber", ssns).kind == "US social security numbers")
        #expect(try Self.propose("reference", ssns).kind != "US social security numbers")
        // `tax id` may be either: nine bare digits of an SSN must not be regrouped as an EIN.
        let taxID = try Self.propose("tax_id", ssns)
        #expect(taxID.kind != "US employer identification numbers (EIN)")
        #expect(taxID.kind != "US social security numbers")
        for value in [
            "000-12-3456", "666-12-3456", "912-34-5678", "123-00-4567", "123-45-0000", "078-05-1120",
        ] {
            #expect(!Self.recognised(.ssn, value), "\(value)")
        }
    }

    @Test("a column's name is read word by word, case-blind")
    func nameWords() {
        #expect(ValueKind.words("shipZipCode") == ["ship", "zip", "code"])
        #expect(ValueKind.words("Code_Postal 2") == ["code", "postal", "2"])
        #expect(ValueKind.dePostcode.fits(columnName: "Postleitzahl"))
        #expect(!ValueKind.inPostcode.fits(columnName: "shipping"))
        #expect(!ValueKind.zip.fits(columnName: "plz"))
    }
}
