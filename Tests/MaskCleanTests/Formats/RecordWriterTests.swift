import Testing

@testable import MaskClean

/// A record goes out as the output format lays it: CSV cells joined by the delimiter and ended as
/// the header was, or a JSON object whose members are named by the output columns.
@Suite("Record writer")
struct RecordWriterTests {
    @Test("the record writer writes CSV cells with the delimiter and the header's line ending")
    func csvRecord() {
        let writer = RecordWriter(
            layout: .csv(delimiter: UInt8(ascii: ";"), terminator: [0x0D, 0x0A]), escapeFormulas: true,
            columnNames: ["a", "b", "c"])
        var out: [UInt8] = []
        writer.beginRecord(&out)
        writer.cell(Array("x;y".utf8), outputColumn: 0, separator: false, &out)
        writer.cell(Array("+1".utf8), outputColumn: 1, separator: true, &out)
        writer.cell([], outputColumn: 2, separator: true, &out)
        writer.endRecord(&out)
        #expect(String(decoding: out, as: UTF8.self) == "\"x;y\";'+1;\r\n")
    }

    @Test("the record writer writes JSON members named by the column names")
    func jsonRecord() {
        let writer = RecordWriter(
            layout: .json(array: false), escapeFormulas: true, columnNames: ["id", "say \"x\"", "f"])
        var out: [UInt8] = []
        writer.beginRecord(&out)
        writer.cell(Array("1".utf8), outputColumn: 0, separator: false, &out)
        writer.cell(Array("a\nb".utf8), outputColumn: 1, separator: true, &out)
        writer.cell(Array("=2".utf8), outputColumn: 2, separator: true, &out)
        writer.endRecord(&out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"id":"1","say \"x\"":"a\nb","f":"'=2"}"# + "\n")
        let array = RecordWriter(layout: .json(array: true), escapeFormulas: false, columnNames: ["id"])
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
        let csv = RecordWriter(
            layout: .csv(delimiter: comma, terminator: [0x0A]), escapeFormulas: false, columnNames: [])
        #expect(csv.writesFieldsAsRead(delimiter: comma))
        #expect(!csv.writesFieldsAsRead(delimiter: 0x09), "TSV to CSV re-quotes for the new delimiter")
        let escaping = RecordWriter(
            layout: .csv(delimiter: comma, terminator: [0x0A]), escapeFormulas: true, columnNames: [])
        #expect(!escaping.writesFieldsAsRead(delimiter: comma))
        for array in [false, true] {
            let json = RecordWriter(layout: .json(array: array), escapeFormulas: false, columnNames: [])
            #expect(!json.writesFieldsAsRead(delimiter: comma))
        }
    }

    @Test("a whole record, such as the header row, is written cell by cell")
    func wholeRecord() {
        let writer = RecordWriter(
            layout: .csv(delimiter: UInt8(ascii: ","), terminator: [0x0D, 0x0A]), escapeFormulas: false,
            columnNames: [])
        var out: [UInt8] = []
        writer.record(["id", "last, first", ""], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "id,\"last, first\",\r\n")
    }

    /// Every value from 0 to 24 bytes long, plain or with one byte of `special` at each place.
    static func values(with special: UInt8) -> [[UInt8]] {
        (0...24).flatMap { length in
            let plain = (0..<length).map { UInt8(ascii: "0") + UInt8($0 % 10) }
            return [plain]
                + plain.indices.map { place in
                    var value = plain
                    value[place] = special
                    return value
                }
        }
    }

    /// A column name of each length that matters to copying it by words, and one to escape.
    static let names = [
        "a", "phone_formatted", "a name of thirty-two bytes long!", "say \"x\"\n",
        String(repeating: "n", count: 70),
    ]

    @Test(
        "a JSON cell written into a chunk's buffer is as the writer writes it anywhere",
        arguments: [0x22, 0x5C, 0x01, 0x0A, 0x1F, 0x7F, 0xC3, UInt8(ascii: "+")] as [UInt8])
    func jsonCellsIntoBuffer(special: UInt8) {
        for escapeFormulas in [false, true] {
            let writer = RecordWriter(
                layout: .json(array: false), escapeFormulas: escapeFormulas, columnNames: Self.names)
            for value in Self.values(with: special) {
                for column in Self.names.indices {
                    for separator in [false, true] {
                        var expected: [UInt8] = []
                        writer.cell(value, outputColumn: column, separator: separator, &expected)
                        var buffer = ByteBuffer(capacity: 16)
                        value.withUnsafeBufferPointer {
                            writer.addedCell($0, outputColumn: column, separator: separator, &buffer)
                        }
                        #expect(Array(buffer.bytes) == expected, "\(value) in column \(column)")
                    }
                }
            }
        }
    }

    @Test(
        "a column's formatted, extracted and status members are written in one piece only when none needs escaping"
    )
    func plainMembersInOnePiece() {
        let plain = RecordWriter(layout: .json(array: false), escapeFormulas: false, columnNames: Self.names)
        let escaping = RecordWriter(
            layout: .json(array: false), escapeFormulas: true, columnNames: Self.names)
        let status = Array("complete".utf8)
        for value in Self.values(with: 0x22) + Self.values(with: UInt8(ascii: "=")) {
            let other = Array("+1 (555) 010-0000".utf8)
            for (formatted, extracted) in [(value, other), (other, value)] {
                var expected: [UInt8] = []
                for (offset, cell) in [formatted, extracted, status].enumerated() {
                    plain.cell(cell, outputColumn: 1 + offset, separator: true, &expected)
                }
                let buffer = ByteBuffer(capacity: 16)
                buffer.append(UInt8(ascii: "{"))
                let wrote = formatted.withUnsafeBufferPointer { formatted in
                    extracted.withUnsafeBufferPointer { extracted in
                        status.withUnsafeBufferPointer { status in
                            plain.plainMembers(formatted, extracted, status, outputColumn: 1, buffer)
                        }
                    }
                }
                #expect(wrote == !value.contains(0x22))
                #expect(Array(buffer.bytes) == (wrote ? [UInt8(ascii: "{")] + expected : [UInt8(ascii: "{")]))
                let untouched = ByteBuffer(capacity: 16)
                let escaped = formatted.withUnsafeBufferPointer { formatted in
                    extracted.withUnsafeBufferPointer { extracted in
                        status.withUnsafeBufferPointer { status in
                            escaping.plainMembers(formatted, extracted, status, outputColumn: 1, untouched)
                        }
                    }
                }
                #expect(!escaped, "a formula prefix is left to the cell by cell writing")
                #expect(untouched.isEmpty)
            }
        }
    }
}
