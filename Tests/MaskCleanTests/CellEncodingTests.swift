import Testing

@testable import MaskClean

/// Output CSV quotes a cell only where needed (docs/record-formats.md), and `--escape-formulas`
/// prefixes `'` to a cell a spreadsheet would run (docs/command-line.md).
@Suite("Cell encoders")
struct CellEncodingTests {
    func csv(_ field: String, delimiter: Character = ",", escapeFormulas: Bool = false) -> String {
        var out: [UInt8] = []
        withBytes(field) {
            CSVFieldEncoder.append(
                $0, delimiter: delimiter.asciiValue!, escapeFormulas: escapeFormulas, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    func json(_ value: String, prefix: UInt8? = nil) -> String {
        var out: [UInt8] = []
        JSONStringEncoder.appendQuoted(Array(value.utf8), prefix: prefix, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: CSV

    @Test("a field is written as it is unless it needs quotes")
    func plainFields() {
        #expect(csv("5551234567") == "5551234567")
        #expect(csv("") == "")
        #expect(csv(" (555) 123-4567 ") == " (555) 123-4567 ", "spaces do not need quotes and stay")
        #expect(csv("Zoë Ångström") == "Zoë Ångström")
        #expect(csv("a;b\tc") == "a;b\tc", "other delimiters do not need quotes")
        #expect(csv("it's") == "it's")
    }

    @Test("the delimiter, a quote, CR or LF make a field quoted, quotes doubled")
    func quotedFields() {
        #expect(csv("hello, world") == "\"hello, world\"")
        #expect(csv("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(csv("\"") == "\"\"\"\"")
        #expect(csv("multi\nline") == "\"multi\nline\"")
        #expect(csv("cr\rhere") == "\"cr\rhere\"")
        #expect(csv("crlf\r\n") == "\"crlf\r\n\"")
        #expect(csv(",") == "\",\"")
    }

    @Test("with another delimiter, that delimiter is what needs quotes")
    func otherDelimiters() {
        #expect(csv("a,b", delimiter: ";") == "a,b")
        #expect(csv("a;b", delimiter: ";") == "\"a;b\"")
        #expect(csv("a\tb", delimiter: "\t") == "\"a\tb\"")
        #expect(csv("a,b", delimiter: "\t") == "a,b")
        #expect(csv("x\"y", delimiter: "|") == "\"x\"\"y\"")
    }

    @Test("formula escaping prefixes ' to cells starting with = + - @, tab or CR")
    func formulaEscaping() {
        #expect(csv("=SUM(A1:A9)", escapeFormulas: true) == "'=SUM(A1:A9)")
        #expect(csv("+1 (555) 123-4567", escapeFormulas: true) == "'+1 (555) 123-4567")
        #expect(csv("-42", escapeFormulas: true) == "'-42")
        #expect(csv("@handle", escapeFormulas: true) == "'@handle")
        #expect(csv("\tindented", escapeFormulas: true) == "'\tindented")
        // Quoted fields get the prefix inside the quotes.
        #expect(csv("\rreturn", escapeFormulas: true) == "\"'\rreturn\"")
        #expect(csv("=A1,B2", escapeFormulas: true) == "\"'=A1,B2\"")
        #expect(csv("=\"x\"", escapeFormulas: true) == "\"'=\"\"x\"\"\"")
        // Only the first character counts.
        #expect(csv("5=5", escapeFormulas: true) == "5=5")
        #expect(csv("555-1234", escapeFormulas: true) == "555-1234")
        #expect(csv(" =1", escapeFormulas: true) == " =1")
        #expect(csv("'=1", escapeFormulas: true) == "'=1")
        #expect(csv("", escapeFormulas: true) == "")
        // Not asked for: untouched.
        #expect(csv("=SUM(A1:A9)") == "=SUM(A1:A9)")
        #expect(csv("+1 (555) 123-4567") == "+1 (555) 123-4567")
    }

    @Test("the formula guard triggers on exactly six bytes")
    func formulaTriggers() {
        let triggers: Set<UInt8> = [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D]
        for byte in UInt8(0)...UInt8(255) {
            #expect(FormulaGuard.isTrigger(byte) == triggers.contains(byte), "byte \(byte)")
        }
        #expect(!FormulaGuard.isTrigger(nil))
        #expect(FormulaGuard.prefix == UInt8(ascii: "'"))
    }

    // MARK: JSON

    @Test("JSON strings escape quotes, backslashes and control characters")
    func jsonEscapes() {
        #expect(json("plain") == "\"plain\"")
        #expect(json("") == "\"\"")
        #expect(json("say \"hi\"") == #""say \"hi\"""#)
        #expect(json(#"C:\temp"#) == #""C:\\temp""#)
        #expect(json("a\nb\rc\td") == #""a\nb\rc\td""#)
        #expect(json("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}") == #""\u0000\u0001\u0008\u000c\u001b\u001f""#)
        #expect(json("\u{7F}") == "\"\u{7F}\"", "DEL needs no escape")
        #expect(json("/") == "\"/\"")
        #expect(json("Zoë €5 😀") == "\"Zoë €5 😀\"", "UTF-8 is written as it is")
    }

    @Test("a JSON string can carry the formula prefix inside its quotes")
    func jsonPrefix() {
        #expect(json("=1+2", prefix: UInt8(ascii: "'")) == "\"'=1+2\"")
        #expect(json("\tx", prefix: UInt8(ascii: "'")) == #""'\tx""#)
    }
}
