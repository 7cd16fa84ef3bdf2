import Testing

@testable import MaskClean

/// A record goes out as the output format lays it: CSV cells joined by the delimiter and ended as
/// the header was, or a JSON object whose members are named by the output columns.
@Suite("Record encoder")
struct RecordEncoderTests {
    @Test("the record encoder writes CSV cells with the delimiter and the header's line ending")
    func csvRecord() {
        let encoder = RecordEncoder(
            layout: .csv(delimiter: UInt8(ascii: ";"), terminator: [0x0D, 0x0A]), escapeFormulas: true,
            columnNames: ["a", "b", "c"])
        var out: [UInt8] = []
        encoder.beginRecord(&out)
        encoder.cell(Array("x;y".utf8), outputColumn: 0, separator: false, &out)
        encoder.cell(Array("+1".utf8), outputColumn: 1, separator: true, &out)
        encoder.cell([], outputColumn: 2, separator: true, &out)
        encoder.endRecord(&out)
        #expect(String(decoding: out, as: UTF8.self) == "\"x;y\";'+1;\r\n")
    }

    @Test("the record encoder writes JSON members named by the column names")
    func jsonRecord() {
        let encoder = RecordEncoder(
            layout: .json(array: false), escapeFormulas: true, columnNames: ["id", "say \"x\"", "f"])
        var out: [UInt8] = []
        encoder.beginRecord(&out)
        encoder.cell(Array("1".utf8), outputColumn: 0, separator: false, &out)
        encoder.cell(Array("a\nb".utf8), outputColumn: 1, separator: true, &out)
        encoder.cell(Array("=2".utf8), outputColumn: 2, separator: true, &out)
        encoder.endRecord(&out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"id":"1","say \"x\"":"a\nb","f":"'=2"}"# + "\n")
        let array = RecordEncoder(layout: .json(array: true), escapeFormulas: false, columnNames: ["id"])
        out = []
        array.beginRecord(&out)
        array.cell(Array("=1".utf8), outputColumn: 0, separator: false, &out)
        array.endRecord(&out)
        #expect(String(decoding: out, as: UTF8.self) == ",\n{\"id\":\"=1\"}")
    }

    @Test("output formats follow the file extension")
    func formatsFromExtensions() {
        #expect(RecordFormat.fromExtension(of: "data.csv") == .csv)
        #expect(RecordFormat.fromExtension(of: "DATA.CSV") == .csv)
        #expect(RecordFormat.fromExtension(of: "x/data.tsv") == .tsv)
        #expect(RecordFormat.fromExtension(of: "data.json") == .json)
        #expect(RecordFormat.fromExtension(of: "data.ndjson") == .ndjson)
        #expect(RecordFormat.fromExtension(of: "data.jsonl") == .ndjson)
        #expect(RecordFormat.fromExtension(of: "data.txt") == nil)
        #expect(RecordFormat.fromExtension(of: "data") == nil)
        #expect(RecordFormat.fromExtension(of: "v1.csv/data") == nil)
        #expect(RecordFormat.fromExtension(of: "-") == nil)
    }

    @Test("input fields are copied as read only to CSV of the same delimiter without formula escaping")
    func fieldsAsRead() {
        let comma = UInt8(ascii: ",")
        let csv = RecordEncoder(
            layout: .csv(delimiter: comma, terminator: [0x0A]), escapeFormulas: false, columnNames: [])
        #expect(csv.writesFieldsAsRead(delimiter: comma))
        #expect(!csv.writesFieldsAsRead(delimiter: 0x09), "TSV to CSV re-quotes for the new delimiter")
        let escaping = RecordEncoder(
            layout: .csv(delimiter: comma, terminator: [0x0A]), escapeFormulas: true, columnNames: [])
        #expect(!escaping.writesFieldsAsRead(delimiter: comma))
        for array in [false, true] {
            let json = RecordEncoder(layout: .json(array: array), escapeFormulas: false, columnNames: [])
            #expect(!json.writesFieldsAsRead(delimiter: comma))
        }
    }

    @Test("a whole record, such as the header row, is written cell by cell")
    func wholeRecord() {
        let encoder = RecordEncoder(
            layout: .csv(delimiter: UInt8(ascii: ","), terminator: [0x0D, 0x0A]), escapeFormulas: false,
            columnNames: [])
        var out: [UInt8] = []
        encoder.record(["id", "last, first", ""], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "id,\"last, first\",\r\n")
    }
}
