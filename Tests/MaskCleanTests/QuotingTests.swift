import Testing

@testable import MaskClean

/// CSV output quotes a cell only where it must (docs/record-formats.md), and `--escape-formulas` defuses
/// spreadsheet formulas.
@Suite("Quoting cells for CSV output")
struct QuotingTests {
    func encoded(_ cell: String, delimiter: Character = ",", escapeFormulas: Bool = false) -> String {
        var out: [UInt8] = []
        var bytes = Array(cell.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            CSVFieldEncoder.append(
                UnsafeBufferPointer(buffer), delimiter: delimiter.asciiValue!, escapeFormulas: escapeFormulas,
                to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test("plain cells, padded ones included, are written as they are")
    func plainCells() {
        #expect(encoded("5551234567") == "5551234567")
        #expect(encoded(" (555) 123-4567 ") == " (555) 123-4567 ")
        #expect(encoded("") == "")
        #expect(encoded("Zoë Müller") == "Zoë Müller")
    }

    @Test("a delimiter, a quote, CR or LF makes the cell quoted, with quotes doubled")
    func quotedCells() {
        #expect(encoded("Perez, Emma") == "\"Perez, Emma\"")
        #expect(encoded("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(encoded("line one\nline two") == "\"line one\nline two\"")
        #expect(encoded("carriage\rreturn") == "\"carriage\rreturn\"")
    }

    @Test("only the delimiter in use forces quotes")
    func otherDelimiter() {
        #expect(encoded("a,b", delimiter: "\t") == "a,b")
        #expect(encoded("a\tb", delimiter: "\t") == "\"a\tb\"")
        #expect(encoded("a;b", delimiter: ";") == "\"a;b\"")
    }

    @Test("--escape-formulas prefixes a quote to cells a spreadsheet would run")
    func formulas() {
        #expect(encoded("+1 (555) 123-4567", escapeFormulas: true) == "'+1 (555) 123-4567")
        #expect(encoded("=HYPERLINK(\"x\")", escapeFormulas: true) == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(encoded("-5", escapeFormulas: true) == "'-5")
        #expect(encoded("@SUM(A1)", escapeFormulas: true) == "'@SUM(A1)")
        #expect(encoded("\tindented", escapeFormulas: true) == "'\tindented")
        #expect(encoded("555-1234", escapeFormulas: true) == "555-1234")
        #expect(encoded("+1 (555) 123-4567") == "+1 (555) 123-4567")
    }
}
