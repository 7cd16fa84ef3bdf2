import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// NDJSON and JSON-array inputs read their start before any chunk
/// (docs/record-formats.md#ndjson, #json-arrays): a byte-order mark, the array's `[` and the line
/// it is on, and for CSV output the first record's keys, which are the output's columns.
@Suite("JSON sources")
struct JSONSourcesTests {
    static let spec = #"{"columns": [{"name": "phone", "format": "([000]) [000]-[0000]"}]}"#

    func settings(_ output: RecordFormat, spec: String = spec) throws -> SourceSettings {
        sourceSettings(try loadSpec(spec), output: output)
    }

    /// The source of type `Source` over `input` (text or bytes), written to a file named `name`.
    func source<Source: RecordSource>(
        _: Source.Type, _ input: some Sequence<UInt8>, name: String, output: RecordFormat, spec: String,
        in folder: TemporaryFolder
    ) throws -> Source {
        let path = try folder.write(name, Array(input))
        return try Source(input: InputFile(path: path), settings(output, spec: spec))
    }

    func array(
        _ bytes: [UInt8], output: RecordFormat = .json, spec: String = spec, in folder: TemporaryFolder
    ) throws -> JSONArraySource {
        try source(JSONArraySource.self, bytes, name: "data.json", output: output, spec: spec, in: folder)
    }

    func array(
        _ text: String, output: RecordFormat = .json, spec: String = spec, in folder: TemporaryFolder
    ) throws -> JSONArraySource {
        try source(JSONArraySource.self, text.utf8, name: "data.json", output: output, spec: spec, in: folder)
    }

    func ndjson(
        _ bytes: [UInt8], output: RecordFormat = .ndjson, spec: String = spec, in folder: TemporaryFolder
    ) throws -> NDJSONSource {
        try source(NDJSONSource.self, bytes, name: "data.ndjson", output: output, spec: spec, in: folder)
    }

    func ndjson(
        _ text: String, output: RecordFormat = .ndjson, spec: String = spec, in folder: TemporaryFolder
    ) throws -> NDJSONSource {
        try source(NDJSONSource.self, text.utf8, name: "data.ndjson", output: output, spec: spec, in: folder)
    }

    // MARK: JSON arrays

    @Test("the array's [ may follow a byte-order mark and blank lines; records start after it, on its line")
    func arrayOpening() throws {
        let folder = try TemporaryFolder()
        let plain = try array("[{\"phone\": \"5551234567\"}]", in: folder)
        #expect(plain.start.leftover == Array("{\"phone\": \"5551234567\"}]".utf8))
        #expect(plain.start.nextLine == 1)
        #expect(plain.start.columnNames == nil, "JSON to JSON: each record keeps its own keys")
        #expect(!plain.start.byteOrderMark, "a JSON output never gets a mark")
        let spaced = try array(
            [0xEF, 0xBB, 0xBF] + Array(" \r\n\t\n  [\n  {\"phone\": \"555\"}\n]\n".utf8), in: folder)
        #expect(spaced.start.leftover == Array("\n  {\"phone\": \"555\"}\n]\n".utf8))
        #expect(spaced.start.nextLine == 3, "the [ is on line 3")
    }

    /// Found by a differential run: a pipe that handed over the byte-order mark's first byte on
    /// its own made the opening look like no array ("expected a JSON array of records").
    @Test("a byte-order mark that arrives a byte at a time from a pipe is still a mark")
    func byteOrderMarkInPieces() throws {
        for split in 1...2 {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            let (reading, writing) = (ends[0], ends[1])
            let bytes = [0xEF, 0xBB, 0xBF] + Array("[{\"phone\": \"5551234567\"}]\n".utf8)
            let writer = Thread {
                for piece in [bytes[..<split], bytes[split...]] {
                    _ = piece.withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
                    usleep(50_000)  // the reader sees the first piece alone
                }
                close(writing)
            }
            writer.start()
            let source = try JSONArraySource(input: InputFile(path: "/dev/fd/\(reading)"), settings(.json))
            #expect(source.start.leftover.starts(with: Array("{\"phone\"".utf8)), "split after \(split)")
            close(reading)
        }
    }

    @Test("an input that does not open an array is refused on the line it starts on, with a hint")
    func notAnArray() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.json")
        let hint: UsageMessage =
            "expected a JSON array of records ('['); for one object a line, use \(Setting.inputFormat) ndjson"
        #expect(throws: MaskCleanError.data(path, line: 1, hint)) {
            try array("{\"phone\": \"5551234567\"}\n{\"phone\": \"555\"}\n", in: folder)
        }
        #expect(throws: MaskCleanError.data(path, line: 3, hint)) {
            try array("\n\r\n  {\"phone\": \"5551234567\"}\n", in: folder)
        }
        #expect(throws: MaskCleanError.data(path, line: 1, hint)) {
            try array([0xEF, 0xBB, 0xBF] + Array("\"phone\"".utf8), in: folder)
        }
    }

    @Test("an empty file is no array: nothing, white space or a byte-order mark alone")
    func emptyArrayFile() throws {
        let folder = try TemporaryFolder()
        let empty = MaskCleanError.data(
            folder.path("data.json"), line: 1, "empty file: expected a JSON array of records")
        #expect(throws: empty) { try array([], in: folder) }
        #expect(throws: empty) { try array(" \n\n\t\r\n", in: folder) }
        #expect(throws: empty) { try array([0xEF, 0xBB, 0xBF], in: folder) }
        // `[]` is an array: 0 rows, not malformed.
        #expect(try array("[]", in: folder).start.leftover == Array("]".utf8))
    }

    // MARK: NDJSON

    @Test("NDJSON: a byte-order mark is skipped, and the records start on line 1")
    func ndjsonStart() throws {
        let folder = try TemporaryFolder()
        let lines = "{\"phone\": \"5551234567\"}\n{\"phone\": \"555\"}\n"
        let marked = try ndjson([0xEF, 0xBB, 0xBF] + Array(lines.utf8), in: folder)
        #expect(marked.start.leftover == Array(lines.utf8))
        #expect(marked.start.nextLine == 1)
        #expect(marked.start.columnNames == nil)
        #expect(!marked.start.byteOrderMark)
        let plain = try ndjson(lines, in: folder)
        #expect(plain.start.leftover == Array(lines.utf8))
        // An empty file is 0 rows, not malformed.
        #expect(try ndjson("", in: folder).start.leftover.isEmpty)
        #expect(try ndjson([0xEF, 0xBB, 0xBF], in: folder).start.leftover.isEmpty)
    }

    @Test("UTF-16 is refused as UTF-16, for NDJSON and arrays, marked or not")
    func utf16Refused() throws {
        let folder = try TemporaryFolder()
        let lines = "{\"phone\": \"5551234567\"}\n"
        for marked in [true, false] {
            for bigEndian in [false, true] {
                let which = marked ? "utf-16" : bigEndian ? "utf-16be" : "utf-16le"
                let refusal: UsageMessage =
                    "not UTF-8: looks like \(which.uppercased()): try \(Setting.encoding) \(which)"
                #expect(throws: MaskCleanError.data(folder.path("data.ndjson"), line: 1, refusal)) {
                    try ndjson(utf16(lines, marked: marked, bigEndian: bigEndian), in: folder)
                }
                #expect(throws: MaskCleanError.data(folder.path("data.json"), line: 1, refusal)) {
                    try array(utf16("[" + lines + "]", marked: marked, bigEndian: bigEndian), in: folder)
                }
                #expect(throws: MaskCleanError.data(folder.path("data.json"), line: 1, refusal)) {
                    try array(utf16("  \n[" + lines + "]", marked: marked, bigEndian: bigEndian), in: folder)
                }
            }
        }
    }

    // MARK: CSV output

    @Test("to CSV, the first record's keys are the columns, in its order; nothing is consumed")
    func firstRecordKeys() throws {
        let folder = try TemporaryFolder()
        let lines = "\n{\"id\": 1, \"ph\\u006fne\": \"555\", \"note\": {\"a\": [1, 2]}}\n{\"other\": 2}\n"
        for output in [RecordFormat.csv, .tsv] {
            let source = try ndjson(lines, output: output, in: folder)
            #expect(source.start.columnNames == ["id", "phone", "note"], "escapes decoded, nested keys not")
            #expect(source.start.leftover == Array(lines.utf8), "the first record is still to be read")
        }
        let elements = "\n  {\"id\": 1,\n   \"phone\": \"555\"},\n  {\"id\": 2}\n]\n"
        let source = try array("[" + elements, output: .csv, in: folder)
        #expect(source.start.columnNames == ["id", "phone"])
        #expect(source.start.leftover == Array(elements.utf8))
        #expect(source.start.nextLine == 1)
        #expect(try array("[]\n", output: .csv, in: folder).start.columnNames == [])
    }

    @Test("to CSV, a key the first record repeats is one column")
    func repeatedKey() throws {
        let folder = try TemporaryFolder()
        let source = try ndjson(
            "{\"id\": 1, \"phone\": \"555\", \"id\": 2, \"phone\": null}\n", output: .csv, in: folder)
        #expect(source.start.columnNames == ["id", "phone"])
    }

    @Test("to CSV, a first record longer than one read is read whole")
    func longFirstRecord() throws {
        let folder = try TemporaryFolder()
        let note = String(repeating: "x", count: 150_000)
        let lines = "{\"id\": 1, \"note\": \"\(note)\", \"phone\": \"555\"}\n{\"id\": 2}\n"
        let source = try ndjson(lines, output: .csv, in: folder)
        #expect(source.start.columnNames == ["id", "note", "phone"])
        #expect(source.start.leftover == Array(lines.utf8))
    }

    @Test("to CSV, an added column may not repeat a key of the first record")
    func addedColumnRepeatsKey() throws {
        let folder = try TemporaryFolder()
        let record = "{\"id\": 1, \"phone\": \"555\", \"phone_formatted\": \"(555)\"}\n"
        #expect(
            throws: MaskCleanError.spec(
                "spec.json", "columns[0] \"phone\"",
                "added column \"phone_formatted\" repeats a column of \(folder.path("data.ndjson"))")
        ) {
            try ndjson(record, output: .csv, in: folder)
        }
        // To JSON such a record is a bad record when it is read, not a spec error up front.
        #expect(try ndjson(record, output: .ndjson, in: folder).start.columnNames == nil)
    }

    // MARK: Once every record is read

    /// Totals as the chunks of a run add them up: `rows` records, `rejected` of them bad.
    func totals(rows: Int, rejected: Int = 0, seen: [Bool], keys: [String]) throws -> RunTotals {
        var totals = RunTotals(spec: try loadSpec(Self.spec))
        var result = ChunkResult()
        result.rows = rows
        result.stats = [ColumnStats(formats: 1)]
        result.rejections = (0..<rejected).map { Rejection(line: $0 + 1, reason: "invalid JSON") }
        result.maskedKeysSeen = seen
        result.keysSeen = keys
        totals.add(result)
        return totals
    }

    @Test("a masked key no record has is a spec error, with the keys seen and the likely one")
    func maskedKeyNeverSeen() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data.ndjson")
        let source = try ndjson("{\"id\": 1, \"Phone\": \"555\"}\n", in: folder)
        #expect(
            throws: MaskCleanError.spec(
                "spec.json", "columns[0] \"phone\"",
                "no record of \(path) has the key \"phone\" (keys seen: \"id\", \"Phone\"); did you mean \"Phone\"?"
            )
        ) {
            var counted = try totals(rows: 2, seen: [false], keys: ["id", "Phone"])
            try source.finish(&counted)
        }
        let arraySource = try array("[{\"id\": 1}]", in: folder)
        #expect(
            throws: MaskCleanError.spec(
                "spec.json", "columns[0] \"phone\"",
                "no record of \(folder.path("data.json")) has the key \"phone\" (keys seen: \"id\", \"email\")"
            )
        ) {
            var counted = try totals(rows: 1, seen: [false], keys: ["id", "email"])
            try arraySource.finish(&counted)
        }
        // Seen once is enough; no records, or only bad ones, say nothing of the keys.
        for var counted in [
            try totals(rows: 2, seen: [true], keys: ["id"]), try totals(rows: 0, seen: [false], keys: []),
            try totals(rows: 3, rejected: 3, seen: [false], keys: []),
        ] {
            try source.finish(&counted)
            #expect(counted.report.columns[0].keyFound == counted.maskedKeysSeen[0])
        }
    }
}
