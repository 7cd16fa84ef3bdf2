import MaskEngine
import Testing

@testable import MaskClean

/// Phone cells read one by one (docs/cell-status.md#phone-columns): each expectation is
/// libphonenumber 9.0.35's own (`phonenumbers`), the statuses maskclean's.
@Suite("Phone cells")
struct PhoneReaderTests {
    struct Read: Equatable, CustomStringConvertible {
        var status: CellStatus
        var formatted: String
        var e164: String
        var region: String

        var description: String { "\(status) \(formatted) \(e164) \(region)" }
    }

    func read(
        _ value: String, _ region: String? = nil, format: PhoneFormat = .international,
        regionCell: String? = nil
    ) throws -> Read {
        let reader = PhoneReader(rules: try PhoneRules(defaultRegion: region, format: format))
        let bytes = Array(value.utf8)
        let cell = regionCell.map { Array($0.utf8) }
        return bytes.withUnsafeBufferPointer { value in
            let reading =
                cell.map { cell in cell.withUnsafeBufferPointer { reader.read(value, region: $0) } }
                ?? reader.read(value)
            return Read(
                status: reading.status, formatted: String(decoding: reading.formatted, as: UTF8.self),
                e164: String(decoding: reading.e164, as: UTF8.self),
                region: String(decoding: reading.region, as: UTF8.self))
        }
    }

    @Test("an international number keeps its country's grouping (issue 27: +16-13-563-42-23 no more)")
    func international() throws {
        #expect(
            try read("+1-613-563-4223")
                == Read(status: .complete, formatted: "+1 613-563-4223", e164: "+16135634223", region: "CA"))
        #expect(try read("+44 20 7946 0958").formatted == "+44 20 7946 0958")
        #expect(try read("+49 30 123456").formatted == "+49 30 123456")
        #expect(try read("0033 1 23 45 67 89").formatted == "+33 1 23 45 67 89")
        #expect(
            try read("011 54 9 11 2345 6789", "US")
                == Read(
                    status: .complete, formatted: "+54 9 11 2345-6789", e164: "+5491123456789", region: "AR"))
    }

    @Test("a national number is read in its region, with or without the trunk prefix")
    func national() throws {
        #expect(
            try read("020 7946 0958", "GB")
                == Read(status: .complete, formatted: "+44 20 7946 0958", e164: "+442079460958", region: "GB")
        )
        #expect(try read("0161 496 0000", "GB").formatted == "+44 161 496 0000")
        #expect(try read("01 23 45 67 89", "FR").e164 == "+33123456789")
        #expect(try read("(613) 563-4223", "US").region == "CA")
        #expect(try read("44 20 7946 0958", "GB").e164 == "+442079460958")
    }

    @Test("phoneFormat: national and e164")
    func formats() throws {
        #expect(try read("+44 20 7946 0958", format: .national).formatted == "020 7946 0958")
        #expect(try read("+1 212 555 0123", format: .national).formatted == "(212) 555-0123")
        #expect(try read("+54 9 11 2345-6789", format: .national).formatted == "011 15-2345-6789")
        #expect(try read("+7 701 234 5678", format: .national).formatted == "8 (701) 234 5678")
        #expect(try read("+44 20 7946 0958", format: .e164).formatted == "+442079460958")
    }

    @Test("an extension is kept in the formatted value, in the country's own words, never in E.164")
    func extensions() throws {
        #expect(
            try read("+44 20 7946 0958 x12")
                == Read(
                    status: .complete, formatted: "+44 20 7946 0958 x12", e164: "+442079460958", region: "GB")
        )
        #expect(try read("(613) 563-4223 ext. 7", "US").formatted == "+1 613-563-4223 ext. 7")
        #expect(try read("+1 613 563 4223;ext=123").formatted == "+1 613-563-4223 ext. 123")
        #expect(try read("+1 613 563 4223 #55").formatted == "+1 613-563-4223 ext. 55")
    }

    @Test("a country code shared by regions gives the region whose ranges hold the number")
    func sharedCodes() throws {
        #expect(try read("+1 212 555 0123").region == "US")
        #expect(try read("+1 441 295 1234").region == "BM")
        #expect(try read("+44 1534 456789").region == "JE")
        #expect(try read("+7 701 234 5678").region == "KZ")
        #expect(
            try read("+800 1234 5678")
                == Read(status: .complete, formatted: "+800 1234 5678", e164: "+80012345678", region: "001"))
    }

    @Test("statuses: incomplete can still become a number, invalid cannot, lossy dropped characters")
    func statuses() throws {
        #expect(try read("020 7946 095", "GB").status == .incomplete)
        // libphonenumber keeps the trunk prefix of a number this short; it is still being typed.
        #expect(try read("020 7946", "GB").status == .incomplete)
        #expect(try read("0207", "GB").status == .incomplete)
        #expect(try read("+44 20 7946 09581", "GB").status == .invalid)
        #expect(try read("07700 900123", "GB").status == .invalid)  // Ofcom's drama range: no such number
        #expect(try read("+44").status == .incomplete)
        #expect(try read("+2").status == .incomplete)
        #expect(try read("+999 1234 5678").status == .invalid)
        #expect(try read("Tel: +44 20 7946 0958").status == .lossy)
        #expect(try read("+44 20 7946 O958").status != .complete)
        #expect(try read("").status == .empty)
        #expect(try read(" - ").status == .empty)
    }

    @Test("without a region, a number with no country code is invalid; 00 is read as an international prefix")
    func noRegion() throws {
        #expect(try read("020 7946 0958") == Read(status: .invalid, formatted: "", e164: "", region: ""))
        #expect(try read("00 44 20 7946 0958").e164 == "+442079460958")
        #expect(try read("0044 20 7946 0958", "US").e164 == "+442079460958")
    }

    @Test("a region cell wins over defaultRegion; an empty one leaves it; an unknown one is invalid")
    func regionCell() throws {
        #expect(try read("020 7946 0958", "US", regionCell: "gb").e164 == "+442079460958")
        #expect(try read("(613) 563-4223", "US", regionCell: " ").e164 == "+16135634223")
        #expect(try read("020 7946 0958", "GB", regionCell: "XX").status == .invalid)
        #expect(try read("+44 20 7946 0958", "GB", regionCell: "XX").status == .complete)
    }

    @Test("separators of any script, digits of any script, a full-width plus")
    func unicode() throws {
        #expect(try read("+44\u{00A0}20\u{2013}7946\u{2013}0958").status == .complete)
        #expect(try read("\u{FF0B}44 20 7946 0958").e164 == "+442079460958")
        #expect(try read("+٤٤ ٢٠ ٧٩٤٦ ٠٩٥٨").e164 == "+442079460958")
    }

    @Test("defaultRegion is a region of the plan, any case")
    func rules() throws {
        #expect(try PhoneRules(defaultRegion: "gb").defaultRegion == "GB")
        #expect(throws: PhoneRulesError.unknownRegion("XX")) { try PhoneRules(defaultRegion: "XX") }
        #expect(NumberingPlan.isRegion("001"))
        #expect(!NumberingPlan.isRegion("EU"))
    }
}
