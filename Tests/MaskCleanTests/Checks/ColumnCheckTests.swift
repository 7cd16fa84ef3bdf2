import MaskEngine
import Testing

@testable import MaskClean

extension Checks {
    @Suite("A column's check: its rule, its formats and its normalized form")
    struct ColumnCheckTests {
        func mask(_ format: String, _ affineFormats: [String] = []) throws -> AffineMask {
            try AffineMask(
                format: format, affineFormats: affineFormats, strategy: .bestStatus, autocomplete: true)
        }

        /// Whether the cell passes, and what it writes in the normalized column ("" when nothing).
        func judge(_ check: ColumnCheck, formatted: String, extracted: String, format: Int = 0) -> (
            Bool, String
        ) {
            let normalized = ByteBuffer()
            let passes = withBytes(formatted) { formatted in
                withBytes(extracted) { extracted in
                    check.passes(
                        formatted: formatted, extracted: extracted, format: format, normalized: normalized)
                }
            }
            return (passes, String(decoding: normalized.bytes, as: UTF8.self))
        }

        @Test(
            "each check judges the extracted value (a date its formatted one) and writes its canonical form")
        func normalizedForms() throws {
            let date = try ColumnCheck(
                .date, dateOrder: .dmy, mask: mask("[00]/[00]/[0000]", ["[0000]-[00]-[00]"]))
            #expect(judge(date, formatted: "29/02/2024", extracted: "29022024") == (true, "2024-02-29"))
            #expect(
                judge(date, formatted: "2024-02-29", extracted: "20240229", format: 1) == (true, "2024-02-29")
            )
            #expect(judge(date, formatted: "29/02/2023", extracted: "29022023") == (false, ""))

            let isbn = try ColumnCheck(.isbn, mask: mask("[0]-[000]-[00000]-[_]"))
            #expect(
                judge(isbn, formatted: "0-306-40615-2", extracted: "0306406152") == (true, "9780306406157"))
            #expect(judge(isbn, formatted: "0-306-40615-3", extracted: "0306406153") == (false, ""))

            let iban = try ColumnCheck(.iban, mask: mask("[AA00] [____] [0000] [0000] [0000] [00]"))
            #expect(
                judge(iban, formatted: "gb82 west 1234 5698 7654 32", extracted: "gb82west12345698765432")
                    == (true, "GB82WEST12345698765432"))

            // Luhn and GTIN pass or fail; they have no other form to write.
            // A prefix that is not digits is refused, not left out of every value's sum.
            #expect(throws: ColumnCheck.Refusal.self) {
                try ColumnCheck(.luhn, luhnPrefix: "8084O", mask: mask("[0000000000]"))
            }
            let npi = try ColumnCheck(.luhn, luhnPrefix: "80840", mask: mask("[0000000000]"))
            #expect(judge(npi, formatted: "1234567893", extracted: "1234567893") == (true, ""))
            let card = try ColumnCheck(.luhn, mask: mask("[0000] [0000] [0000] [0000]"))
            #expect(
                judge(card, formatted: "4111 1111 1111 1111", extracted: "4111111111111111") == (true, ""))
            #expect(
                judge(card, formatted: "4111 1111 1111 1112", extracted: "4111111111111112") == (false, ""))
            let gtin = try ColumnCheck(.gtin, mask: mask("[0000000000000]"))
            #expect(judge(gtin, formatted: "4006381333931", extracted: "4006381333931") == (true, ""))
            #expect(!CheckName.luhn.hasNormalizedForm && !CheckName.gtin.hasNormalizedForm)
            #expect(
                CheckName.date.hasNormalizedForm && CheckName.iban.hasNormalizedForm
                    && CheckName.isbn.hasNormalizedForm)
        }

        /// A date check needs every format to be a date's: the first that is not is named by index.
        @Test("a date check refuses a format that cannot hold a date, naming it")
        func dateRefusal() throws {
            let formats = try mask("[0000]-[00]-[00]", ["[00]/[00]/[0000]"])
            do {
                _ = try ColumnCheck(.date, mask: formats)
                Issue.record("[00]/[00]/[0000] without dateOrder was accepted")
            } catch {
                #expect(error.format == 1)
                #expect(error.reason.contains("dateOrder"))
            }
            // Other checks do not look at the formats.
            _ = try ColumnCheck(.luhn, mask: mask("[00]/[00]"))
        }
    }
}
