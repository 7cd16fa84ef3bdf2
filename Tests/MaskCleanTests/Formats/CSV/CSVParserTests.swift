import Testing

@testable import MaskClean

/// The libcsv wrapper: strict RFC 4180, nothing trimmed, fields handed to its sink byte for byte.
@Suite("CSV parser (libcsv)")
struct CSVParserTests {
    /// Collects what the parser hands over: each completed record's fields, as byte arrays.
    final class Records: CSVFieldSink {
        var completed: [[[UInt8]]] = []
        private var open: [[UInt8]] = []

        func field(_ bytes: UnsafeRawBufferPointer) { open.append(Array(bytes)) }

        func endRecord() {
            completed.append(open)
            open = []
        }

        var strings: [[String]] { completed.map { $0.map { String(decoding: $0, as: UTF8.self) } } }
    }

    func feed(_ parser: CSVParser, _ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { parser.feed($0) }
    }

    func feed(_ parser: CSVParser, bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { parser.feed($0) }
    }

    /// Parses a whole input; the records as strings.
    func parse(_ text: String, delimiter: Character = ",") -> [[String]]? {
        let records = Records()
        let parser = CSVParser(delimiter: delimiter.asciiValue!, sink: records)
        guard feed(parser, text), parser.finish() else { return nil }
        return records.strings
    }

    @Test("padded fields are kept byte for byte")
    func paddedFields() {
        #expect(parse("1, (555) 123-4567 ,  x\t\n") == [["1", " (555) 123-4567 ", "  x\t"]])
        #expect(
            parse(" \"q\" ,x\n") == [[" \"q\" ", "x"]],
            "a quote after a space is data: the field did not start with it")
        #expect(parse("\" padded \",x\n") == [[" padded ", "x"]])
    }

    @Test("empty fields and records")
    func emptyFields() {
        #expect(parse(",,\n") == [["", "", ""]])
        #expect(parse("a,\"\",b\n") == [["a", "", "b"]])
        #expect(parse("a\n\nb\n") == [["a"], ["b"]], "libcsv skips blank lines")
    }

    @Test("quoted fields hold delimiters, doubled quotes and line breaks")
    func quotedFields() {
        #expect(
            parse("\"hello, world\",\"say \"\"hi\"\"\",\"multi\nline\",\"cr\r\nlf\"\n")
                == [["hello, world", "say \"hi\"", "multi\nline", "cr\r\nlf"]])
        #expect(parse("\"\"\"\"\n") == [["\""]])
    }

    @Test("CRLF and LF both end records, and the last record may lack a line break")
    func lineEndings() {
        #expect(parse("a,b\r\nc,d\r\n") == [["a", "b"], ["c", "d"]])
        #expect(parse("a,b\nc,d") == [["a", "b"], ["c", "d"]])
        #expect(parse("a,b\r\nc,\"d\"") == [["a", "b"], ["c", "d"]])
    }

    @Test("another delimiter")
    func otherDelimiter() {
        #expect(parse("a;b,c;\"d;e\"\n", delimiter: ";") == [["a", "b,c", "d;e"]])
        #expect(parse("a\tb c\t\"d\te\"\n", delimiter: "\t") == [["a", "b c", "d\te"]])
    }

    @Test("invalid UTF-8 and other bytes pass through the parser untouched")
    func rawBytes() {
        let records = Records()
        let parser = CSVParser(delimiter: UInt8(ascii: ","), sink: records)
        #expect(feed(parser, bytes: [0x61, 0xFF, 0x2C, 0xC3, 0x28, 0x0A]))
        #expect(records.completed == [[[0x61, 0xFF], [0xC3, 0x28]]])
    }

    /// Regression: `12" ruler` and `37.8"N` (common in real exports) were rejected as stray quotes,
    /// failing whole nightly runs. As in Python's csv module and rust-csv, they are data.
    @Test("a quote inside a field that does not start with one is data")
    func quoteInsideUnquotedField() {
        #expect(parse("1,12\" ruler,37.8\"N\n") == [["1", "12\" ruler", "37.8\"N"]])
        #expect(parse("a,b\"\"c,d\n") == [["a", "b\"\"c", "d"]], "doubled, still data")
        #expect(
            parse("a,b\"\n\"c,d\n") == nil,
            "a field that starts with a quote is quoted: this one never closes")
    }

    @Test("strict mode: a character after a closing quote is an error")
    func characterAfterClosingQuote() {
        let records = Records()
        let parser = CSVParser(delimiter: UInt8(ascii: ","), sink: records)
        #expect(!feed(parser, "1,\"a\"b,x\n"))
        #expect(
            parser.errorDescription
                == "unexpected character after a closing quote (a quote inside a quoted field must be doubled)"
        )
    }

    @Test("strict finish: an unterminated quoted field fails at the end")
    func unterminatedQuote() {
        let records = Records()
        let parser = CSVParser(delimiter: UInt8(ascii: ","), sink: records)
        #expect(feed(parser, "1,\"555,1\n2,x\n"))
        #expect(!parser.isBetweenRecords)
        #expect(!parser.finish())
    }

    @Test("isBetweenRecords tells whether the lines fed so far end a record")
    func betweenRecords() {
        let records = Records()
        let parser = CSVParser(delimiter: UInt8(ascii: ","), sink: records)
        #expect(parser.isBetweenRecords)
        #expect(feed(parser, "id,note\n"))
        #expect(parser.isBetweenRecords)
        #expect(feed(parser, "1,\"multi\n"))
        #expect(!parser.isBetweenRecords)
        #expect(feed(parser, "line, still\n"))
        #expect(!parser.isBetweenRecords)
        #expect(feed(parser, "end\"\n"))
        #expect(parser.isBetweenRecords)
        #expect(feed(parser, "2,x"))
        #expect(!parser.isBetweenRecords, "a record without its line break is still open")
        #expect(parser.finish())
        #expect(records.strings == [["id", "note"], ["1", "multi\nline, still\nend"], ["2", "x"]])
    }

    @Test("reset starts over as on a fresh input")
    func reset() {
        let records = Records()
        let parser = CSVParser(delimiter: UInt8(ascii: ";"), sink: records)
        #expect(!feed(parser, "\"a\"b;c\n"))
        parser.reset()
        #expect(parser.isBetweenRecords)
        #expect(feed(parser, "x;\"y;z\"\n"))
        #expect(records.strings == [["x", "y;z"]])
    }
}
