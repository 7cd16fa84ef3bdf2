import Foundation
import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

extension Tag {
    /// Expectations that need the numbering plan's answers (which numbers are valid, and where),
    /// not only the phone reader's API.
    @Tag static var phoneEngine: Self
}

/// Issue 27: `describe` proposes `kind: phone` for a column of phone numbers of any country, with
/// the region of the numbers written without a country code as `defaultRegion`, and never a card,
/// date, ZIP code or identifier column as phones. Every number here is valid for libphonenumber
/// 9.0.35 (PyPI `phonenumbers`), with the region named.
@Suite("describe: phone columns of every country")
struct DescribePhoneTests {
    /// A UK export's national numbers (London, Manchester, Leeds, ..., mobiles, 03 and 0800), as
    /// an NHS export writes them, one without spaces and one with the area code in parentheses.
    static let british = [
        "020 7946 0958", "0161 496 0000", "07400 123456", "0113 496 0321", "0117 496 0712", "0121 496 0855",
        "0131 496 0042", "07507 123456", "020 7946 0123", "(020) 7946 0001", "0114 496 0123", "0118 496 0456",
        "0151 496 0789", "0141 496 0012", "07834 567890", "0300 123 4567", "0800 123 4567", "02079460958",
        "07123 456789", "0191 498 0111",
    ]
    /// An embassy directory's numbers, each with its country code: CA, GB, DE, FR, AU, JP, US, ES,
    /// NL, IN, BR, MX.
    static let international = [
        "+1 613-563-4223", "+44 20 7946 0958", "+49 30 901820", "+33 1 42 68 53 00", "+49 89 233 00",
        "+33 4 91 55 11 11", "+61 2 9374 4000", "+81 3-3581-3111", "+1 202-456-1414", "+44 161 496 0000",
        "+34 915 66 66 00", "+31 20 552 9111", "+91 11 2301 2113", "+55 11 3311-1234", "+52 55 5093 5300",
        "+44 7400 123456", "+1 (416) 392-2489", "+49 1512 3456789", "+33 6 12 34 56 78", "+1 212-736-3100",
    ]
    /// US city halls and offices, written the American ways, one with an extension and one with
    /// the trunk prefix 1.
    static let american = [
        "(202) 456-1414", "212-736-3100", "(415) 555-0132", "(312) 744-5000", "617-495-1000",
        "(305) 673-7000",
        "206 684 4000", "1-512-974-2000", "(713) 837-0311", "303-865-9000", "(202) 456-1414 x123",
        "404.330.6000", "(617) 635-4500", "213-978-0600", "(215) 686-2181", "602-262-7111", "(614) 645-7380",
        "(503) 823-4000", "720-865-9000", "(608) 266-4611",
    ]

    static func phoneColumn(_ cells: [String], name: String = "phone") throws -> ColumnProposal {
        try SpecProposer.propose(name, cells: cells, unmaskable: 0)
    }

    @Test("the phone shape: digits between separators, a + and an extension; no letters, no decimals")
    func shape() {
        let phones = [
            "020 7946 0958", "+1 613-563-4223", "(202) 456-1414 x123", "+44 20 7946 0958;ext=12",
            "01\u{A0}42\u{A0}68\u{A0}53\u{A0}00", " 0161/496 0000 ", "404.330.6000", "(965) 734-6354 ext. 31",
            "708-900-2625 #5", "2024000123",
        ]
        for value in phones { #expect(Self.shape(value) != nil, "\(value)") }
        let others = [
            "1234.56", "SO-20240001", "Ava Garcia", "12,345", "-12345", "1234", "+", "x123",
            "020 7946 0958 home",
            "020 7946 0958 x", "1234567890123456789", "0161 496 0000 ext. 1234567",
        ]
        for value in others { #expect(Self.shape(value) == nil, "\(value)") }
        // A bare run of digits may be an identifier; with a leading 0 it is a prefix.
        #expect(Self.shape("2024000123")?.isStyled == false)
        #expect(Self.shape("02079460958")?.isStyled == true)
        #expect(Self.shape("613-563-4223")?.isStyled == true)
        #expect(Self.shape("(202) 456-1414 x123")?.extensionDigits == Array("123".utf8))
        #expect(Self.shape("(202) 456-1414 x123")?.digits == Array("2024561414".utf8))
        #expect(Self.shape("(020) 7946 0958")?.splits == 1 << 3 | 1 << 7)
        #expect(Self.shape("+44 (0) 20 7946-0958")?.splits == 1 << 2 | 1 << 3 | 1 << 5 | 1 << 9)
    }

    @Test(
        "a number is written as its region writes it with its national format's digits or its country code",
        arguments: [
            // value, libphonenumber's national format and E.164 under the region, written
            ("0161 496 0000", "0161 496 0000", "+441614960000", true),
            ("161 496 0000", "0161 496 0000", "+441614960000", false),
            ("123-45-6789", "01 23 45 67 89", "+33123456789", false),
            ("1-512-974-2000", "(512) 974-2000", "+15129742000", true),
            ("0044 20 7946 0958", "020 7946 0958", "+442079460958", true),
            ("(202) 456-1414 x123", "(202) 456-1414 ext. 123", "+12024561414", true),
            ("2024000123", "(202) 400-0123", "+12024000123", false),
            ("02079460958", "020 7946 0958", "+442079460958", true),
            ("(020) 7946-0958", "020 7946 0958", "+442079460958", true),
            // Split where the national format does not: half a London number, or a fictional
            // North American 555 number with a Mexico City number's digits.
            ("0207 946 0958", "020 7946 0958", "+442079460958", false),
            ("(555) 201-0001", "55 5201 0001", "+525552010001", false),
        ])
    func written(_ value: String, _ national: String, _ e164: String, _ written: Bool) throws {
        let shape = try #require(Self.shape(value))
        let formatted = Array(national.utf8)
        let e164 = Array(e164.utf8)
        let region: [UInt8] = []
        formatted.withUnsafeBufferPointer { formatted in
            e164.withUnsafeBufferPointer { e164 in
                region.withUnsafeBufferPointer { region in
                    let reading = PhoneReading(
                        status: .complete, formatted: formatted, e164: e164, region: region,
                        droppedCharacters: 0)
                    #expect(PhoneTally.isWritten(shape, reading) == written, "\(value)")
                }
            }
        }
    }

    @Test("the default region and the thresholds, from the counts alone")
    func choice() {
        var tally = PhoneTally()
        (tally.shaped, tally.styled, tally.international, tally.national) = (100, 100, 20, 80)
        tally.regions = ["DE": 15, "GB": 5]
        tally.underRegion = [
            "GB": RegionFigures(valid: 75, written: 75, own: 75),
            // Germany's plan takes the British numbers without their 0, but they are not
            // written its way.
            "DE": RegionFigures(valid: 78, written: 0, own: 78),
        ]
        let british = tally.choice(values: 100)
        #expect(british?.defaultRegion == "GB")
        #expect(british?.valid == 95)
        #expect(
            british?.notes == ["20 with a country code (DE 15, GB 5)", "75 without, valid as numbers of GB"])
        // 79% valid is not a phone column.
        #expect(tally.choice(values: 120) == nil)
        // Valid, but mostly not written as phone numbers.
        var bare = tally
        bare.underRegion["GB"] = RegionFigures(valid: 75, written: 10, own: 75)
        #expect(bare.choice(values: 100) == nil)
        // A tie of numbers written the region's way goes to the region they belong to.
        var american = PhoneTally()
        (american.shaped, american.styled, american.national) = (24, 24, 24)
        american.regions = ["BM": 2]
        american.underRegion = [
            "BM": RegionFigures(valid: 22, written: 20, own: 2),
            "US": RegionFigures(valid: 20, written: 20, own: 20),
            "CA": RegionFigures(valid: 20, written: 20, own: 0),
        ]
        #expect(american.choice(values: 24)?.defaultRegion == "US")
        // Every number with its country code: no default region.
        var international = PhoneTally()
        (international.shaped, international.styled, international.international) = (10, 10, 10)
        international.regions = ["FR": 6, "CA": 4]
        #expect(international.choice(values: 10)?.defaultRegion == nil)
        #expect(international.choice(values: 10)?.valid == 10)
        #expect(international.candidates.prefix(3) == ["FR", "CA", "US"])
    }

    static func shape(_ value: String) -> PhoneShape? {
        var value = value
        return value.withUTF8 { PhoneShape($0) }
    }

    @Test("ZIP codes, card numbers, dates and order numbers are never phones")
    func notPhones() throws {
        let zips = [
            "06429", "91675", "50189", "44965-8147", "10001", "94103-1234", "60614", "02139", "73301",
            "30303",
        ]
        let cards = DescribeRulesTests.cards(20)
        let dates = [
            "13/07/1948", "25/12/1999", "01.02.2024", "2024-01-31", "19480713", "7/4/76", "3-11-2001",
        ]
        // Valid German numbers all, but written as identifiers are: bare digits.
        let orders = (0..<20).map { "\(20_240_100 + $0 * 7)" }
        let codes = ["SO-20240001", "PO-88213", "INV/2024/00017", "#100234", "ORD-55012", "SO-20240002"]
        for (cells, kind) in [
            (zips, "US ZIP codes"), (cards, "card numbers"), (dates, "dates"), (orders, nil), (codes, nil),
        ] as [([String], String?)] {
            // ZIP codes need a column named for them; the other kinds do not.
            let column = try Self.phoneColumn(cells, name: kind == "US ZIP codes" ? "zip" : "phone")
            #expect(column.phone == nil, "\(cells[0])")
            #expect(column.kind == kind, "\(cells[0])")
            #expect(try Self.phoneColumn(cells).phone == nil, "\(cells[0])")
        }
        // Bare runs of digits are read as phones no further than their shape: written as an
        // identifier, they count for no region.
        var tally = ValueTally(shapeCap: .max)
        for order in orders { tally.add(order, count: 1) }
        #expect(tally.phones.styled == 0)
        #expect(tally.phones.choice(values: orders.count) == nil)
    }

    @Test(
        "US Social Security numbers are valid French numbers without their trunk 0, so not written as phones",
        .tags(.phoneEngine))
    func socialSecurityNumbers() throws {
        let numbers = [
            "123-45-6789", "078-05-1120", "219-09-9999", "457-55-5462", "536-22-8726", "601-44-0012",
            "732-81-2288", "845-09-1234", "301-56-7790", "412-77-3310",
        ]
        let column = try Self.phoneColumn(numbers)
        #expect(column.phone == nil)
    }

    @Test(
        "fictional 555 numbers are not Mexico City numbers: they keep the North American masks",
        .tags(.phoneEngine))
    func fictionalNumbers() throws {
        let numbers = (1...40).map { "(555) 201-" + String(repeating: "0", count: $0 < 10 ? 3 : 2) + "\($0)" }
        let column = try Self.phoneColumn(numbers)
        #expect(column.phone == nil)
        #expect(column.formats.first == KindFormats.phone)
    }

    @Test("a UK column of national numbers is kind: phone with defaultRegion GB", .tags(.phoneEngine))
    func britishColumn() throws {
        let column = try Self.phoneColumn(Self.british + ["", ""])
        #expect(column.phone == PhoneProposal(defaultRegion: "GB"))
        #expect(column.kind == "phone numbers")
        #expect(column.formats.isEmpty)
        #expect(column.values == 20 && column.empty == 2)
        #expect(column.covered == 20 && column.complete == 20)
        #expect(column.notes == ["20 without, valid as numbers of GB"])
        // Seven of twenty grouped wrongly (valid, but not split as the UK splits them), and one
        // with a digit moved: still British.
        let misgrouped = [
            "0207 946 0958", "01614 960000", "0774 001 23456", "0207 946 0123", "01134 960321",
            "07507 12 34 56",
            "0121 4960 855", "01314 960042",
        ]
        let regrouped = try Self.phoneColumn(misgrouped + Self.british.prefix(12))
        #expect(regrouped.phone == PhoneProposal(defaultRegion: "GB"))
        #expect(regrouped.covered == 19)
    }

    @Test(
        "numbers that all have their country code get kind: phone without a defaultRegion",
        .tags(.phoneEngine))
    func internationalColumn() throws {
        let column = try Self.phoneColumn(Self.international)
        #expect(column.phone == PhoneProposal(defaultRegion: nil))
        #expect(column.covered == 20 && column.complete == 20)
        #expect(column.notes == ["20 with a country code (DE 3, FR 3, GB 3, CA 2, US 2 and 7 more regions)"])
        let yaml = SpecProposal(file: "embassies.csv", records: 20, columns: [column]).yaml(
            schemaBeside: false)
        #expect(yaml.contains("  - name: \"phone\"\n    kind: \"phone\"\n    minComplete: 1\n"))
        #expect(!yaml.contains("defaultRegion"))
    }

    @Test(
        "international numbers and national ones: the default region is the one the national ones are valid in",
        .tags(.phoneEngine))
    func mixedColumn() throws {
        let cells = Array(Self.international.prefix(12)) + Self.british.prefix(8)
        let column = try Self.phoneColumn(cells)
        #expect(column.phone == PhoneProposal(defaultRegion: "GB"))
        #expect(column.complete == 20)
        // German and French numbers outnumber the British ones with a country code; the national
        // ones are British all the same.
        let germanFirst = Array(Self.international.prefix(12)) + Self.american.prefix(8)
        #expect(try Self.phoneColumn(germanFirst).phone == PhoneProposal(defaultRegion: "US"))
    }

    @Test(
        "a US column is kind: phone with defaultRegion US, not the North American masks",
        .tags(.phoneEngine))
    func americanColumn() throws {
        let column = try Self.phoneColumn(Self.american)
        #expect(column.phone == PhoneProposal(defaultRegion: "US"))
        #expect(column.formats.isEmpty)
        #expect(column.complete == 20)
        #expect(column.kind == "phone numbers")
        // Two Bermuda numbers and two of its seven-digit local ones: valid under BM, the
        // American numbers are still American (any region of +1 takes them).
        let bermuda = Self.american + ["+1 441-295-5151", "+1 441-292-3600", "295-5151", "292-3600"]
        #expect(try Self.phoneColumn(bermuda).phone == PhoneProposal(defaultRegion: "US"))
    }

    @Test("a phone column is written as kind and defaultRegion, in YAML and JSON, with no format")
    func writtenSpec() {
        var column = ColumnProposal(name: "tel", values: 20, empty: 2)
        column.kind = PhoneChoice.kindName
        column.phone = PhoneProposal(defaultRegion: "GB")
        column.covered = 20
        column.complete = 19
        column.notes = ["20 without, valid as numbers of GB"]
        column.omittedOutputs = ["countryColumn"]
        let proposal = SpecProposal(file: "nhs.csv", records: 22, columns: [column])
        #expect(
            proposal.yaml(schemaBeside: false).hasSuffix(
                """
                  # "tel": 20 values sampled (and 2 empty), 100% phone numbers; 20 without, valid as numbers of GB.
                  #   95% complete.
                  #   countryColumn: null, as the input has a column of the default name.
                  - name: "tel"
                    kind: "phone"
                    defaultRegion: "GB"
                    minComplete: 0.95
                    countryColumn: null

                """))
        #expect(
            proposal.json.contains(
                """
                      "name": "tel",
                      "kind": "phone",
                      "defaultRegion": "GB",
                      "minComplete": 0.95,
                      "countryColumn": null
                    }
                """))
    }

    @Test("a proposed phone column loads, in YAML and JSON")
    func loads() throws {
        var column = ColumnProposal(name: "tel", values: 1)
        column.kind = PhoneChoice.kindName
        column.phone = PhoneProposal(defaultRegion: "GB")
        column.complete = 1
        let proposal = SpecProposal(file: "nhs.csv", records: 1, columns: [column])
        let yaml = try SpecLoader.parse(Array(proposal.yaml(schemaBeside: false).utf8), file: "spec.yaml")
        let json = try SpecLoader.parse(Array(proposal.json.utf8), file: "spec.json")
        #expect(yaml.fingerprint == json.fingerprint)
        #expect(yaml.columns.map(\.name) == ["tel"])
    }

    @Test("the proposed phone columns load and a run over the same data passes them", .tags(.phoneEngine))
    func proposedSpecPasses() throws {
        let folder = try TemporaryFolder()
        var lines = ["id,tel,embassy,zip"]
        for index in 0..<20 {
            lines.append(
                "\(index),\(Self.british[index]),\(Self.international[index]),\(10_001 + index * 37)")
        }
        _ = try folder.write("data.csv", lines.joined(separator: "\n") + "\n")
        let proposal = try SpecProposer.describe(DescribeOptions(input: folder.path("data.csv")))
        #expect(proposal.proposed.map(\.name) == ["tel", "embassy", "zip"])
        #expect(proposal.proposed.map(\.phone) == [PhoneProposal(defaultRegion: "GB"), PhoneProposal(), nil])
        #expect(
            proposal.yaml(schemaBeside: false).contains(
                "  - name: \"tel\"\n    kind: \"phone\"\n    defaultRegion: \"GB\"\n"))
        let yaml = try SpecLoader.parse(Array(proposal.yaml(schemaBeside: false).utf8), file: "spec.yaml")
        let json = try SpecLoader.parse(Array(proposal.json.utf8), file: "spec.json")
        #expect(yaml.fingerprint == json.fingerprint)
        #expect(yaml.columns.map { $0.phone?.defaultRegion } == ["GB", nil, nil])
        let outcome = try runPipeline(spec: proposal.json, input: "data.csv", in: folder)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        #expect(report.passed)
        #expect(report.columns.map(\.stats.complete) == [20, 20, 20])
    }

    @Test("an input with a column named as the country column gets countryColumn: null")
    func countryColumnTaken() throws {
        let folder = try TemporaryFolder()
        let lines = ["phone,phone_country"] + Self.international.map { "\($0),XX" }
        _ = try folder.write("data.csv", lines.joined(separator: "\n") + "\n")
        let proposal = try SpecProposer.describe(
            DescribeOptions(input: folder.path("data.csv")))
        let phone = try #require(proposal.proposed.first)
        #expect(phone.phone != nil)
        #expect(phone.omittedOutputs == ["countryColumn"])
    }

    @Test("values beyond the distinct ones kept in memory are read as phones as if kept")
    func beyondDistinct() {
        for cells in [
            Self.british, Self.international, Self.american,
            Array(Self.international.prefix(12)) + Self.british.prefix(8),
        ] {
            var kept = ColumnTally()
            var spooled = ColumnTally()
            for cell in cells {
                _ = kept.add(cell, .init())
                _ = spooled.add(cell, .init(distinctValues: 3, shapes: 100))
            }
            let inMemory = kept.summary.phones.choice(values: cells.count)
            let beyond = spooled.summary.phones.choice(values: cells.count)
            #expect(inMemory?.defaultRegion == beyond?.defaultRegion, "\(cells[0])")
            #expect(inMemory?.valid == beyond?.valid, "\(cells[0])")
            #expect(inMemory?.international == beyond?.international, "\(cells[0])")
        }
    }
}
