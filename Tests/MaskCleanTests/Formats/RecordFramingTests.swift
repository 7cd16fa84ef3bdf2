import Foundation
import Testing

@testable import MaskClean

/// What each output format writes around its records: the CSV header row (after the input's
/// byte-order mark), a JSON array's `[`, the commas between its records and its `]`
/// (docs/record-formats.md).
@Suite("Record framing")
struct RecordFramingTests {
    static let comma = UInt8(ascii: ",")

    func framing(_ format: RecordFormat, delimiter: UInt8 = comma, lineEnd: [UInt8] = [0x0A]) -> RecordFraming
    {
        RecordFraming(format: format, delimiter: delimiter, lineEnd: lineEnd)
    }

    func preamble(
        _ framing: RecordFraming, columns: [String], byteOrderMark: Bool = false, escapeFormulas: Bool = false
    ) -> [UInt8] {
        let writer = framing.makeWriter(columnNames: columns, escapeFormulas: escapeFormulas)
        return framing.preamble(columns: columns, byteOrderMark: byteOrderMark, writer: writer)
    }

    /// A chunk's records as the framing lets them out.
    func records(_ framing: inout RecordFraming, _ chunk: String) -> String {
        Array(chunk.utf8).withUnsafeBufferPointer { String(decoding: framing.records($0), as: UTF8.self) }
    }

    /// The records of `values`, one `phone` cell each, as the writer writes them in a chunk.
    func chunk(_ framing: RecordFraming, _ values: [String]) -> String {
        let writer = framing.makeWriter(columnNames: ["phone"], escapeFormulas: false)
        var out: [UInt8] = []
        for value in values {
            writer.beginRecord(&out)
            writer.cell(Array(value.utf8), outputColumn: 0, separator: false, &out)
            writer.endRecord(&out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test("CSV starts with the header row of the input's columns and the added ones, as the header ended")
    func csvPreamble() {
        let columns = ["id", "last, first", "phone", "phone_formatted"]
        #expect(
            preamble(framing(.csv), columns: columns)
                == Array("id,\"last, first\",phone,phone_formatted\n".utf8))
        #expect(
            preamble(framing(.csv, lineEnd: [0x0D, 0x0A]), columns: columns)
                == Array("id,\"last, first\",phone,phone_formatted\r\n".utf8))
        #expect(
            preamble(framing(.tsv, delimiter: 0x09), columns: columns)
                == Array("id\tlast, first\tphone\tphone_formatted\n".utf8))
        #expect(
            preamble(framing(.csv, delimiter: UInt8(ascii: ";")), columns: ["a;b", "c"])
                == Array("\"a;b\";c\n".utf8))
    }

    @Test("a CSV output keeps the input's byte-order mark, before the header row")
    func byteOrderMark() {
        #expect(
            preamble(framing(.csv), columns: ["id", "phone"], byteOrderMark: true)
                == [0xEF, 0xBB, 0xBF] + Array("id,phone\n".utf8))
        #expect(
            preamble(framing(.tsv, delimiter: 0x09), columns: ["id"], byteOrderMark: true)
                == [0xEF, 0xBB, 0xBF] + Array("id\n".utf8))
        // JSON has no byte-order mark (RFC 8259), whatever the input had.
        #expect(preamble(framing(.json), columns: ["id"], byteOrderMark: true) == Array("[".utf8))
        #expect(preamble(framing(.ndjson), columns: ["id"], byteOrderMark: true) == [])
    }

    @Test("--escape-formulas escapes the CSV header names too")
    func escapedHeader() {
        #expect(
            preamble(framing(.csv), columns: ["id", "=cmd", "-phone"], escapeFormulas: true)
                == Array("id,'=cmd,'-phone\n".utf8))
    }

    @Test("a JSON array opens with [, NDJSON with nothing")
    func jsonPreamble() {
        #expect(preamble(framing(.json), columns: ["id", "phone"]) == Array("[".utf8))
        #expect(preamble(framing(.json), columns: []) == Array("[".utf8))
        #expect(preamble(framing(.ndjson), columns: ["id", "phone"]) == [])
    }

    @Test("the first JSON-array record loses its comma only, and only once, whichever chunk holds it")
    func firstRecordSeparator() {
        var array = framing(.json)
        #expect(records(&array, "") == "", "an empty chunk holds no first record")
        #expect(
            records(&array, ",\n{\"phone\":\"1\"},\n{\"phone\":\"2\"}")
                == "\n{\"phone\":\"1\"},\n{\"phone\":\"2\"}")
        #expect(records(&array, ",\n{\"phone\":\"3\"}") == ",\n{\"phone\":\"3\"}")
        for format in [RecordFormat.ndjson, .csv, .tsv] {
            var other = framing(format)
            #expect(records(&other, ",a,b\n") == ",a,b\n", "\(format): nothing is dropped")
        }
    }

    @Test("a JSON array closes on a line of its own; the other formats write nothing after the last record")
    func closing() {
        #expect(framing(.json).closing == Array("\n]\n".utf8))
        #expect(framing(.ndjson).closing == [])
        #expect(framing(.csv).closing == [])
        #expect(framing(.tsv, delimiter: 0x09).closing == [])
    }

    @Test("framed chunks make one JSON array, empty or not, one record a line")
    func wholeArray() throws {
        var array = framing(.json)
        var text = String(decoding: preamble(array, columns: ["phone"]), as: UTF8.self)
        text += records(&array, chunk(array, ["(555) 123-4567", "say \"hi\""]))
        text += records(&array, "")
        text += records(&array, chunk(array, ["=1"]))
        text += String(decoding: array.closing, as: UTF8.self)
        #expect(
            text
                == "[\n{\"phone\":\"(555) 123-4567\"},\n{\"phone\":\"say \\\"hi\\\"\"},\n{\"phone\":\"=1\"}\n]\n"
        )
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: String]]
        #expect(parsed?.map { $0["phone"] } == ["(555) 123-4567", "say \"hi\"", "=1"])
        let empty = framing(.json)
        let nothing = String(decoding: preamble(empty, columns: ["phone"]) + empty.closing, as: UTF8.self)
        #expect(nothing == "[\n]\n")
        #expect(try JSONSerialization.jsonObject(with: Data(nothing.utf8)) as? [Any] != nil)
    }

    @Test("NDJSON and CSV records go out as the writer wrote them")
    func otherFormatsWhole() {
        var lines = framing(.ndjson)
        #expect(records(&lines, chunk(lines, ["1", "2"])) == "{\"phone\":\"1\"}\n{\"phone\":\"2\"}\n")
        var csv = framing(.csv, lineEnd: [0x0D, 0x0A])
        #expect(records(&csv, chunk(csv, ["1", "a,b"])) == "1\r\n\"a,b\"\r\n")
    }
}
