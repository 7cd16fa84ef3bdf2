import MaskEngine
import Testing

@testable import MaskClean

extension Checks {
    @Suite("Calendar dates and where a format puts them")
    struct CalendarDateTests {
        /// Leap years are divisible by 4, except centuries, except those divisible by 400.
        @Test("the Gregorian rules on hand examples: leap years, month lengths, ranges")
        func handExamples() {
            #expect(CalendarDate.isValid(year: 2024, month: 2, day: 29))
            #expect(!CalendarDate.isValid(year: 2023, month: 2, day: 29))
            #expect(!CalendarDate.isValid(year: 1900, month: 2, day: 29))
            #expect(CalendarDate.isValid(year: 2000, month: 2, day: 29))
            #expect(!CalendarDate.isValid(year: 2024, month: 2, day: 30))
            #expect(!CalendarDate.isValid(year: 2024, month: 4, day: 31))
            #expect(CalendarDate.isValid(year: 2024, month: 12, day: 31))
            #expect(!CalendarDate.isValid(year: 2024, month: 13, day: 1))
            #expect(!CalendarDate.isValid(year: 2024, month: 0, day: 1))
            #expect(!CalendarDate.isValid(year: 2024, month: 1, day: 0))
            #expect(!CalendarDate.isValid(year: 0, month: 1, day: 1))
            let out = ByteBuffer()
            CalendarDate.iso(year: 987, month: 6, day: 5, into: out)
            #expect(String(decoding: out.bytes, as: UTF8.self) == "0987-06-05")
        }

        func layout(_ format: String, _ order: DateOrder? = nil) throws -> DateLayout {
            try DateLayout(Mask(format: format), order: order)
        }

        /// The reason a format is refused, or nil when it is accepted.
        func refusal(_ format: String, _ order: DateOrder? = nil) throws -> String? {
            let mask = try Mask(format: format)
            do {
                _ = try DateLayout(mask, order: order)
                return nil
            } catch {
                return error.reason
            }
        }

        func date(_ layout: DateLayout, _ value: String) -> String? {
            withBytes(value) { layout.date($0) }.map { "\($0.year)-\($0.month)-\($0.day)" }
        }

        /// A year of four digits says where it is; a day and a month of two cannot be told apart, so
        /// dateOrder must say which comes first.
        @Test("formats accepted, with the order they give or are given")
        func accepted() throws {
            #expect(try layout("[0000]-[00]-[00]").order == .ymd)
            #expect(try layout("[00000000]").order == .ymd)
            // Eight digits are YYYYMMDD whatever dateOrder says for the column's other formats.
            #expect(try layout("[00000000]", .dmy).order == .ymd)
            #expect(try layout("[00000000]", .mdy).order == .ymd)
            #expect(try layout("[00]/[00]/[0000]", .dmy).order == .dmy)
            #expect(try layout("[00]/[00]/[0000]", .mdy).order == .mdy)
            #expect(try layout("[000000]", .ymd).compactLength == 6)
            #expect(date(try layout("[00].[00].[00]", .dmy), "31.12.68") == "2068-12-31")
            #expect(date(try layout("[0000]-[00]-[00]"), "0068-12-31") == "68-12-31")
            // A year first is a year first, whatever dateOrder says.
            #expect(try layout("[0000]-[00]-[00]", .dmy).order == .ymd)

            let dmy = try layout("[00]/[00]/[0000]", .dmy)
            #expect(date(dmy, "29/02/2024") == "2024-2-29")
            #expect(date(dmy, "29/02/2023") == nil)
            #expect(date(dmy, "1/2/2024") == nil)
            #expect(date(try layout("[00]/[00]/[0000]", .mdy), "02/29/2024") == "2024-2-29")
            #expect(date(try layout("[00000000]"), "20240229") == "2024-2-29")
            #expect(date(try layout("[00000000]", .dmy), "29022024") == nil)
            #expect(date(try layout("[00000000]", .dmy), "20240229") == "2024-2-29")
            let short = try layout("[09]/[09]/[0000]", .dmy)
            #expect(date(short, "1/2/2024") == "2024-2-1")
            #expect(date(short, "01/12/2024") == "2024-12-1")
            #expect(date(short, "1/2/24") == nil)
            // Two-digit years: 69-99 are 1969-1999, 00-68 are 2000-2068.
            let compact = try layout("[000000]", .dmy)
            #expect(date(compact, "290200") == "2000-2-29")
            #expect(date(compact, "010169") == "1969-1-1")
            #expect(date(compact, "311268") == "2068-12-31")
            #expect(date(compact, "290269") == nil)
            // Regression: MDY read the year as the day, so 12/31/99 failed and 02/30/12 passed (as
            // 2012-02-12).
            let mdy = try layout("[00]/[00]/[00]", .mdy)
            #expect(date(mdy, "12/31/99") == "1999-12-31")
            #expect(date(mdy, "02/30/12") == nil)
        }

        @Test("formats refused, each with its reason")
        func refused() throws {
            #expect(
                try refusal("[00]/[00]/[0000]")
                    == #"the year is last, so "dateOrder" must say "MDY" or "DMY" (month or day first)"#)
            #expect(try refusal("[00]/[00]/[0000]", .ymd) == refusal("[00]/[00]/[0000]"))
            #expect(
                try refusal("[00]/[00]")
                    == "a date has 3 groups of digits (day, month, year), this format has 2")
            #expect(
                try refusal("[00]/[00]/[00]")
                    == #"no group of 4 digits is the year, so "dateOrder" must say which is"#)
            #expect(
                try refusal("[000000]")
                    == #"6 digits without separators need "dateOrder" to say which is which"#)
            #expect(try refusal("[0000000]") == "a date in one group of digits has 8 (or 6) of them, not 7")
            #expect(
                try refusal("[0999999]") == "a date in one group of digits has 8 (or 6) of them, not 1 to 7")
            #expect(
                try refusal("[00]/[0000]/[00]", .dmy)
                    == "the year, the one group of 4 digits, must come first or last")
            #expect(try refusal("[000]/[00]/[0000]", .dmy) == "a day or a month has at most 2 digits, not 3")
            #expect(try refusal("[00000]/[00]/[00]") == "a group of 5 digits is not a day, a month or a year")
            #expect(try refusal("20[00]-[00]-[00]") == "a date's format must not write digits of its own")
            #expect(try refusal("[0000]-[00]-[00]") == nil)
        }

        /// Every day of 1900-2100 in 8 written forms with four-digit years, every day of 1969-2068 in
        /// 6 forms with two-digit years, and for each year the impossible ones (month 0 and 13, day 0
        /// and 32 of every month, 29, 30 and 31 February, 31 April, June, September and November) and
        /// year 0: Python's datetime gives the verdict and the ISO 8601 form, which must be our
        /// normalized value.
        @Test("agrees with Python's datetime on every day of 1900-2100, and impossible ones, in every order")
        func corpus() throws {
            let corpus = try OracleCorpus("dates")
            var checks: [String: ColumnCheck] = [:]
            var disagreements = Disagreements()
            var valid = 0
            let invalid = Array("invalid".utf8)
            for line in corpus.lines {
                let key = line[0].text + " " + line[1].text
                let check: ColumnCheck
                if let known = checks[key] {
                    check = known
                } else {
                    let order = line[1].elementsEqual("-".utf8) ? nil : DateOrder(rawValue: line[1].text)
                    let mask = try AffineMask(
                        format: line[0].text, affineFormats: [], strategy: .bestStatus, autocomplete: true)
                    check = try ColumnCheck(.date, dateOrder: order, mask: mask)
                    checks[key] = check
                }
                let expected = line[3].elementsEqual(invalid) ? nil : line[3]
                if expected != nil { valid += 1 }
                let normalized = ByteBuffer(capacity: 16)
                let passes = Array(line[2]).withUnsafeBufferPointer {
                    check.passes(formatted: $0, extracted: $0, format: 0, normalized: normalized)
                }
                let actual = passes ? Array(normalized.bytes) : nil
                if actual.map(ArraySlice.init) != expected {
                    disagreements.record(
                        "\(line[0].text) \(line[1].text) \(line[2].text): ours "
                            + "\(actual.map { String(decoding: $0, as: UTF8.self) } ?? "invalid"), datetime \(line[3].text)"
                    )
                }
            }
            #expect(checks.count == 14)
            #expect(corpus.lines.count == 883_750)
            #expect(valid == 807_004)
            disagreements.expectNone("datetime")
        }
    }
}
