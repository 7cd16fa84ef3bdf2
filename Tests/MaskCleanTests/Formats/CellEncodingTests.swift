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

    @Test("with ' as the delimiter, an escaped formula is quoted: its prefix is the delimiter")
    func quoteDelimiter() {
        #expect(csv("=1", delimiter: "'", escapeFormulas: true) == "\"'=1\"")
        #expect(csv("+1 555", delimiter: "'", escapeFormulas: true) == "\"'+1 555\"")
        #expect(csv("=1", delimiter: "'") == "=1")
        #expect(csv("5551234", delimiter: "'", escapeFormulas: true) == "5551234")
        #expect(csv("it's", delimiter: "'") == "\"it's\"")
    }

    /// `needsQuotes` reads eight bytes at a time: a byte that needs quotes must be found at every
    /// place in a word and in the tail, and no neighbouring or high byte may pass for one.
    @Test("a byte that needs quotes is found wherever it is in the field", arguments: [",", "\t", "|"])
    func quotesFoundAtEveryPlace(delimiter: Character) {
        let delimiterByte = delimiter.asciiValue!
        let needing: [UInt8] = [delimiterByte, 0x22, 0x0A, 0x0D]
        // The bytes next to each of them, and high bytes: none needs quotes.
        let harmless: [UInt8] = [
            0x2B, 0x2D, 0x08, 0x0B, 0x21, 0x23, 0x0C, 0x0E, 0x7B, 0x7D, 0x80, 0xA2, 0xFF,
        ]
        .filter { !needing.contains($0) }
        for length in 1...24 {
            let plain = (0..<length).map { harmless[$0 % harmless.count] }
            var out: [UInt8] = []
            plain.withUnsafeBufferPointer {
                CSVFieldEncoder.append($0, delimiter: delimiterByte, escapeFormulas: false, to: &out)
            }
            #expect(out == plain, "length \(length)")
            for place in 0..<length {
                for byte in needing {
                    var field = plain
                    field[place] = byte
                    let needs = field.withUnsafeBufferPointer {
                        CSVFieldEncoder.needsQuotes($0, delimiter: delimiterByte)
                    }
                    #expect(needs, "byte \(byte) at \(place) of \(length)")
                }
            }
        }
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

    /// Where `--escape-formulas` puts a `'` in JSON: `text` with one inserted after the opening
    /// quote of each string value `nestedTriggers` finds.
    func nestedEscaped(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var insertions: [Int] = []
        bytes.withUnsafeBufferPointer {
            FormulaGuard.nestedTriggers($0, in: 0..<bytes.count, into: &insertions)
        }
        var escaped = bytes
        for index in insertions.reversed() { escaped.insert(FormulaGuard.prefix, at: index) }
        return String(decoding: escaped, as: UTF8.self)
    }

    func startsJSONString(_ literal: String) -> Bool {
        Array(literal.utf8).withUnsafeBufferPointer { FormulaGuard.startsJSONString($0, 1) }
    }

    @Test("a JSON string starts with a trigger once decoded: plain, \\t, \\r or a \\u escape")
    func jsonStringTriggers() {
        #expect(startsJSONString(#""=SUM(A1)""#))
        #expect(startsJSONString(#""+1 555""#))
        #expect(startsJSONString(#""\tx""#))
        #expect(startsJSONString(#""\rx""#))
        #expect(startsJSONString(#""\u003dx""#), "= as an escape")
        #expect(startsJSONString(#""\u002B1""#), "+ as an escape, upper-case hex")
        #expect(startsJSONString(#""\u0040x""#))
        #expect(!startsJSONString(#""\nx""#), "a line feed is no trigger")
        #expect(!startsJSONString(#""\u0041""#))
        #expect(!startsJSONString(#""\u00ad""#), "not ASCII")
        #expect(!startsJSONString(#""\"=""#), "an escaped quote first")
        #expect(!startsJSONString(#""\u00"#), "a cut escape")
        #expect(!startsJSONString(#""\u00zz""#))
        #expect(!startsJSONString(#""""#), "the empty string")
        #expect(!startsJSONString(#"""#), "nothing after the quote")
        #expect(!startsJSONString(#""555-1234""#))
    }

    @Test("nested string values that start with a trigger are found; keys and other values are not")
    func nestedTriggerPlaces() {
        #expect(
            nestedEscaped(#"{"a":"=1","=k":"x","n":["-2",3,{"b":"@c"}],"s":"ok","t":"\u003d"}"#)
                == #"{"a":"'=1","=k":"x","n":["'-2",3,{"b":"'@c"}],"s":"ok","t":"'\u003d"}"#)
        #expect(nestedEscaped(#"{ "=key" : "=value" }"#) == #"{ "=key" : "'=value" }"#, "a key before blanks")
        #expect(nestedEscaped(#"["a\"=b", "=c\\", "+d"]"#) == #"["a\"=b", "'=c\\", "'+d"]"#, "escaped quotes")
        #expect(
            nestedEscaped(#"[-1, true, null, "-"]"#) == #"[-1, true, null, "'-"]"#, "a number is no string")
        #expect(nestedEscaped(#"["\t", "\n"]"#) == #"["'\t", "\n"]"#)
    }

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
