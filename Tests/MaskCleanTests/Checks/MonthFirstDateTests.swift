import MaskClean
import MaskEngine
import Testing

/// `dateOrder: MDY` read the day from the year's place: every US date (07/04/2024) was invalid,
/// and `apply --check date --date-order MDY` showed it first.
@Suite("Month-first dates")
struct MonthFirstDateTests {
    func judge(_ value: String, order: DateOrder, format: String = "[00]/[00]/[0000]") throws -> (
        passes: Bool, normalized: String?
    ) {
        let mask = try AffineMask(format: format)
        let check = try ColumnCheck(.date, dateOrder: order, mask: mask)
        let result = mask.apply(value).result
        return check.judge(formatted: result.formatted, extracted: result.extracted, format: 0)
    }

    @Test("MDY reads the month, then the day, then the year")
    func monthDayYear() throws {
        #expect(try judge("07/04/2024", order: .mdy) == (true, "2024-07-04"))
        #expect(try judge("12/31/1999", order: .mdy) == (true, "1999-12-31"))
        #expect(try judge("02/29/2024", order: .mdy) == (true, "2024-02-29"))
        #expect(try judge("02/29/2023", order: .mdy).passes == false, "2023 is not a leap year")
        #expect(try judge("31/12/1999", order: .mdy).passes == false, "there is no month 31")
    }

    @Test("DMY and YMD keep their own places")
    func otherOrders() throws {
        #expect(try judge("04/07/2024", order: .dmy) == (true, "2024-07-04"))
        #expect(try judge("2024-07-04", order: .ymd, format: "[0000]-[00]-[00]") == (true, "2024-07-04"))
    }
}
