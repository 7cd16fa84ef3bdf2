import Testing

@testable import MaskClean

/// What every input format checks before reading: the UTF-8 byte-order mark is skipped, UTF-16
/// is refused by name (a spreadsheet's "Unicode text" export), and UTF-8 text whose first
/// characters are not ASCII is not taken for UTF-16.
@Suite("Input text: byte-order marks and UTF-16")
struct InputTextTests {
    @Test("a UTF-8 byte-order mark is three bytes long, and only a whole one counts")
    func byteOrderMark() {
        #expect(InputText.byteOrderMarkLength([0xEF, 0xBB, 0xBF] + Array("id,phone".utf8)) == 3)
        #expect(InputText.byteOrderMarkLength(Array("id,phone".utf8)) == 0)
        #expect(InputText.byteOrderMarkLength([0xEF, 0xBB]) == 0)
        #expect(InputText.byteOrderMarkLength([]) == 0)
    }

    @Test(
        "UTF-16 with or without a byte-order mark is refused with the --encoding that reads it",
        arguments: [(true, false), (true, true), (false, false), (false, true)])
    func utf16Refused(marked: Bool, bigEndian: Bool) {
        let bytes = utf16("id,phone\n1,5551234567\n", marked: marked, bigEndian: bigEndian)
        let which = marked ? "utf-16" : bigEndian ? "utf-16be" : "utf-16le"
        #expect(
            throws: MaskCleanError.data(
                "export.csv", line: 1,
                "not UTF-8: looks like \(which.uppercased()): try \(Setting.encoding) \(which)")
        ) {
            try InputText.refuseUTF16(bytes, file: "export.csv")
        }
    }

    @Test("UTF-8 text is not UTF-16, whatever its first characters")
    func utf8Accepted() throws {
        for text in ["id,phone\n", "tél,nom\n", "{\"a\":1}\n", "[", "", "é", "\u{1F600},x"] {
            try InputText.refuseUTF16(Array(text.utf8), file: "export.csv")
        }
    }
}
