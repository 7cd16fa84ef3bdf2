import TestSupport
import Testing

@testable import MaskClean

/// A CSV input's header is read before any chunk (docs/record-formats.md#csv-and-tsv): its names,
/// its line end and byte-order mark (which a CSV output keeps), and where the records start, in
/// bytes and lines. The spec is then checked against the names.
@Suite("CSV source")
struct CSVSourceTests {
    static let comma = UInt8(ascii: ",")

    /// The header of `bytes`, written to a file of the folder.
    func header(_ bytes: [UInt8], in folder: TemporaryFolder, limit: Int = 32 << 20) throws -> CSVHeader {
        let path = try folder.write("data.csv", bytes)
        return try CSVHeader.read(InputFile(path: path), delimiter: Self.comma, limit: limit)
    }

    func header(_ text: String, in folder: TemporaryFolder) throws -> CSVHeader {
        try header(Array(text.utf8), in: folder)
    }

    // MARK: Reading the header

    @Test("a byte-order mark is skipped, and kept as a flag for the output")
    func byteOrderMark() throws {
        let folder = try TemporaryFolder()
        let marked = try header([0xEF, 0xBB, 0xBF] + Array("id,phone\n1,5551234567\n".utf8), in: folder)
        #expect(marked.names == ["id", "phone"], "the mark is not part of the first name")
        #expect(marked.byteOrderMark)
        #expect(marked.leftover == Array("1,5551234567\n".utf8))
        #expect(marked.nextLine == 2)
        let plain = try header("id,phone\n1,5551234567\n", in: folder)
        #expect(plain.names == ["id", "phone"])
        #expect(!plain.byteOrderMark)
        // A mark later in the file is data, not a mark.
        let inside = try header(Array("id,".utf8) + [0xEF, 0xBB, 0xBF] + Array("phone\n".utf8), in: folder)
        #expect(inside.names == ["id", "\u{FEFF}phone"])
        #expect(!inside.byteOrderMark)
    }

    @Test("the header's line end is the output's: CRLF kept, LF otherwise")
    func lineEnds() throws {
        let folder = try TemporaryFolder()
        let crlf = try header("id,phone\r\n1,5551234567\r\n2,555\r\n", in: folder)
        #expect(crlf.names == ["id", "phone"], "the CR is no part of the last name")
        #expect(crlf.lineEnd == [0x0D, 0x0A])
        #expect(crlf.leftover == Array("1,5551234567\r\n2,555\r\n".utf8))
        #expect(crlf.nextLine == 2)
        let lf = try header("id,phone\n1,5551234567\r\n", in: folder)
        #expect(lf.lineEnd == [0x0A])
        #expect(lf.leftover == Array("1,5551234567\r\n".utf8))
        // A header with no record after it, nor a line end.
        let alone = try header("id,phone", in: folder)
        #expect(alone.names == ["id", "phone"])
        #expect(alone.lineEnd == [0x0A])
        #expect(alone.leftover.isEmpty)
        #expect(alone.nextLine == 1)
    }

    /// An old Mac export ends every record at a bare CR: no line feed at all.
    @Test("a header ending at a bare CR: the records after it on the same line are data")
    func bareCarriageReturn() throws {
        let folder = try TemporaryFolder()
        let mac = try header("id,phone\r1,5551234567\r2,555\r", in: folder)
        #expect(mac.names == ["id", "phone"])
        #expect(mac.lineEnd == [0x0A], "a bare CR becomes LF in the output")
        #expect(mac.leftover == Array("1,5551234567\r2,555\r".utf8))
        #expect(mac.nextLine == 1, "the records start on the header's own line")
        let mixed = try header("id,phone\r1,5551234567\n2,555\n", in: folder)
        #expect(mixed.names == ["id", "phone"])
        #expect(mixed.leftover == Array("1,5551234567\n2,555\n".utf8))
        #expect(mixed.nextLine == 1)
    }

    @Test("a quoted name may hold a line break, a CR or the delimiter; lines after it are counted")
    func quotedNames() throws {
        let folder = try TemporaryFolder()
        let broken = try header(
            "\"first\nname\",\"last, \"\"sur\"\"\",phone\r\n1,Zoë,5551234567\r\n", in: folder)
        #expect(broken.names == ["first\nname", "last, \"sur\"", "phone"])
        #expect(broken.lineEnd == [0x0D, 0x0A])
        #expect(broken.leftover == Array("1,Zoë,5551234567\r\n".utf8))
        #expect(broken.nextLine == 3, "the header spans lines 1 and 2")
        let carriageReturn = try header("\"a\rb\",phone\n1,555\n", in: folder)
        #expect(carriageReturn.names == ["a\rb", "phone"], "a CR inside quotes ends nothing")
        #expect(carriageReturn.leftover == Array("1,555\n".utf8))
        #expect(carriageReturn.nextLine == 2)
    }

    @Test("a header wider than one read is read whole")
    func wideHeader() throws {
        let folder = try TemporaryFolder()
        let names = (1...12_000).map { "column_\($0)" }
        let records = "1" + String(repeating: ",x", count: 11_999) + "\n"
        let headerLine = names.joined(separator: ",") + "\n"
        #expect(headerLine.utf8.count > 128 * 1024, "more than two 64 KiB reads")
        let text = headerLine + records
        let wide = try header(text, in: folder)
        #expect(wide.names == names)
        #expect(wide.leftover == Array(records.utf8))
        #expect(wide.nextLine == 2)
    }

    @Test("a header that is not UTF-8 is malformed input")
    func invalidUTF8() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.csv")
        // "café" in Latin-1.
        #expect(
            throws: MaskCleanError.data(
                path, line: 1,
                "invalid UTF-8 in the header (looks like Windows-1252 or ISO-8859-1: try \(Setting.encoding) windows-1252)"
            )
        ) {
            try header(Array("id,caf".utf8) + [0xE9] + Array(",phone\n1,x,555\n".utf8), in: folder)
        }
    }

    @Test("an empty file, or one holding only a byte-order mark, has no header")
    func emptyFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.csv")
        let empty = MaskCleanError.data(
            path, line: 1, "empty file: no header line (a CSV input starts with its column names)")
        #expect(throws: empty) { try header([], in: folder) }
        #expect(throws: empty) { try header([0xEF, 0xBB, 0xBF], in: folder) }
    }

    @Test("a header longer than the record limit is refused, found before the whole file is read")
    func headerTooLong() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.csv")
        // A runaway quote in the header: no record ends before the end of the file.
        let runaway = Array("id,\"phone\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 200_000)
        #expect(throws: MaskCleanError.data(path, line: 1, "the header is longer than 4 KiB")) {
            try header(runaway, in: folder, limit: 4096)
        }
        #expect(throws: MaskCleanError.data(path, line: 1, "the header is longer than 1000 bytes")) {
            try header(Array(repeating: UInt8(ascii: "a"), count: 5000), in: folder, limit: 1000)
        }
    }

    @Test("UTF-16 is refused as UTF-16, with or without a byte-order mark, either byte order")
    func utf16Refused() throws {
        let folder = try TemporaryFolder()
        func refused(_ which: String) -> MaskCleanError {
            .data(
                folder.path("data.csv"), line: 1,
                "not UTF-8: looks like \(which.uppercased()): try \(Setting.encoding) \(which)")
        }
        let text = "id,phone\r\n1,5551234567\r\n"
        #expect(throws: refused("utf-16")) { try header(utf16(text, marked: true), in: folder) }
        #expect(throws: refused("utf-16")) {
            try header(utf16(text, marked: true, bigEndian: true), in: folder)
        }
        #expect(throws: refused("utf-16le")) { try header(utf16(text, marked: false), in: folder) }
        #expect(throws: refused("utf-16be")) {
            try header(utf16(text, marked: false, bigEndian: true), in: folder)
        }
    }

    // MARK: Checking the spec against it

    static let spec = #"{"columns": [{"name": "phone", "format": "([000]) [000]-[0000]"}]}"#

    /// The source of a CSV file holding `text`, for `spec`.
    func source(
        _ text: String, spec: String = spec, output: RecordFormat = .csv, in folder: TemporaryFolder
    ) throws -> CSVSource {
        let path = try folder.write("data.csv", text)
        return try CSVSource(input: InputFile(path: path), sourceSettings(loadSpec(spec), output: output))
    }

    /// The error that making the source gives, or nil.
    func sourceError(
        _ text: String, spec: String = spec, output: RecordFormat = .csv, in folder: TemporaryFolder
    ) throws -> MaskCleanError? {
        do {
            _ = try source(text, spec: spec, output: output, in: folder)
            return nil
        } catch let error as MaskCleanError {
            return error
        }
    }

    @Test("the source starts where the header ends, with its columns")
    func start() throws {
        let folder = try TemporaryFolder()
        let source = try source("\u{FEFF}id,phone,note\r\n1,5551234567,x\r\n", in: folder)
        #expect(source.start.columnNames == ["id", "phone", "note"])
        #expect(source.start.lineEnd == [0x0D, 0x0A])
        #expect(source.start.byteOrderMark)
        #expect(source.start.leftover == Array("1,5551234567,x\r\n".utf8))
        #expect(source.start.nextLine == 2)
    }

    @Test("a masked column missing from the header is a spec error naming the columns, and the likely one")
    func missingColumn() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.csv")
        #expect(
            try sourceError("id,Phone,note\n", in: folder)
                == .spec(
                    "spec.json", "columns[0] \"phone\"",
                    "no column \"phone\" in \(path) (its columns: \"id\", \"Phone\", \"note\"); did you mean \"Phone\"?"
                ))
        #expect(
            try sourceError("id,phnoe\n", in: folder)?.message
                == "spec.json: columns[0] \"phone\": no column \"phone\" in \(path) (its columns: \"id\", \"phnoe\"); did you mean \"phnoe\"?"
        )
        #expect(
            try sourceError("id,email\n", in: folder)?.message
                == "spec.json: columns[0] \"phone\": no column \"phone\" in \(path) (its columns: \"id\", \"email\")",
            "no suggestion when no name is close")
        #expect(try sourceError("id,phone\n", in: folder) == nil)
    }

    @Test("a masked column the header names twice cannot be told apart; an unmasked one may repeat")
    func columnNamedTwice() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.csv")
        #expect(
            try sourceError("id,phone,note,phone\n", in: folder)
                == .data(
                    path, line: 1,
                    "the header names column \"phone\" 2 times (fields 2, 4); the spec cannot tell which to mask"
                ))
        #expect(
            try sourceError("phone,phone,phone\n", in: folder)?.message
                == "\(path):1: the header names column \"phone\" 3 times (fields 1, 2, 3); the spec cannot tell which to mask"
        )
        let repeated = try source("id,note,phone,note\n", in: folder)
        #expect(repeated.start.columnNames == ["id", "note", "phone", "note"])
    }

    @Test("an added column may not repeat an input column")
    func addedColumnRepeatsInput() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.csv")
        #expect(
            try sourceError("id,phone,phone_status\n", in: folder)
                == .spec(
                    "spec.json", "columns[0] \"phone\"",
                    "added column \"phone_status\" repeats a column of \(path)"))
        // A renamed added column is checked by its own name.
        let renamed = #"{"columns": [{"name": "phone", "format": "[000]", "extractedColumn": "id"}]}"#
        #expect(
            try sourceError("id,phone\n", spec: renamed, in: folder)?.message
                == "spec.json: columns[0] \"phone\": added column \"id\" repeats a column of \(path)")
        // Left out, it repeats nothing.
        let left = #"{"columns": [{"name": "phone", "format": "[000]", "statusColumn": null}]}"#
        #expect(try sourceError("id,phone,phone_status\n", spec: left, in: folder) == nil)
    }

    @Test("CSV to JSON: header names must differ, empty ones included; CSV to CSV they may repeat")
    func duplicateNamesForJSON() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.csv")
        for output in [RecordFormat.json, .ndjson] {
            #expect(
                try sourceError("id,phone,note,note\n", output: output, in: folder)
                    == .data(
                        path, line: 1,
                        "the header names column \"note\" twice (fields 3 and 4): JSON output would give each record two \"note\" keys; rename one"
                    ))
            #expect(
                try sourceError("id,,phone,,\n", output: output, in: folder)?.message
                    == "\(path):1: the header names column \"\" twice (fields 2 and 4): JSON output would give each record two \"\" keys; rename one",
                "two empty names at the end are not one trailing delimiter"
            )
        }
        for output in [RecordFormat.csv, .tsv] {
            #expect(try sourceError("id,phone,note,note\n", output: output, in: folder) == nil)
        }
    }
}
