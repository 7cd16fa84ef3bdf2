import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// An ordinary NDJSON record is read in one pass: its strings checked as they are scanned
/// (`JSONScanner.checkedStringEnd`) and its keys looked up in `JSONWantedKeys`. Anything else is
/// read again by the general scanner. Both readings must agree on every record.
@Suite("JSON records read in one pass")
struct JSONOneReadingTests {
    // MARK: Checked strings

    /// What the general reading says of the string at the start of `bytes`: its end when it
    /// scans and its text passes `JSONTextCheck`, and whether it has escapes and non-ASCII bytes.
    func reference(_ bytes: [UInt8]) -> (end: Int, escapes: Bool, nonASCII: Bool)? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            guard let token = try? scanner.scanString(),
                JSONTextCheck.firstProblem(UnsafeBufferPointer(rebasing: buffer[token.range])) == nil
            else { return nil }
            return (token.range.upperBound, token.hasEscapes, buffer[token.range].contains { $0 >= 0x80 })
        }
    }

    func checked(_ bytes: [UInt8]) -> (end: Int, escapes: Bool, nonASCII: Bool)? {
        bytes.withUnsafeBufferPointer { buffer in
            var escapes = false
            var nonASCII = false
            guard
                let end = JSONScanner.checkedStringEnd(
                    buffer.baseAddress!, at: 0, count: buffer.count, escapes: &escapes, nonASCII: &nonASCII)
            else { return nil }
            return (end, escapes, nonASCII)
        }
    }

    /// Pieces of string text, good and bad, each put at every offset of an eight-byte word.
    static let pieces: [[UInt8]] = [
        Array("plain".utf8), Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/\b\f\n\r\t"#.utf8),
        Array(#"\u00e9"#.utf8), Array(#"\u00E9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
        Array(#"\uD83D\uDE00"#.utf8), Array("é".utf8), Array("東京".utf8), Array("😀".utf8),
        // Not for the one pass: the general reading words what is wrong with each.
        Array(#"\ud800"#.utf8), Array(#"\udc00"#.utf8), Array(#"\ud800\ud800"#.utf8),
        Array(#"\ud800x"#.utf8), Array(#"\u12g4"#.utf8), Array(#"\x"#.utf8), Array(#"\u00"#.utf8),
        [0x01], [0x1F], [0x0A], [0x7F], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82],
        [0xF4, 0x90, 0x80, 0x80], [0x80], [0xC3],
    ]

    @Test("a string's end, escapes and non-ASCII bytes are as the general reading finds them")
    func agreesWithGeneralReading() {
        for piece in Self.pieces {
            for before in 0...17 {
                for after in [0, 1, 7, 8, 9] {
                    let text =
                        [0x22] + Array(repeating: UInt8(ascii: "a"), count: before) + piece
                        + Array(repeating: UInt8(ascii: "b"), count: after)
                    for tail in [
                        [0x22], [0x22, UInt8(ascii: ","), 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20], [],
                    ] {
                        let bytes = text + tail
                        let expected = reference(bytes)
                        let found = checked(bytes)
                        #expect(found?.end == expected?.end, "\(bytes)")
                        #expect(found?.escapes == expected?.escapes, "\(bytes)")
                        #expect(found?.nonASCII == expected?.nonASCII, "\(bytes)")
                    }
                }
            }
        }
    }

    @Test("an escape straddling two words, and a quote as any byte of a word, end where they should")
    func wordEdges() {
        for length in 0...24 {
            let inner = Array(repeating: UInt8(ascii: "x"), count: length)
            #expect(checked([0x22] + inner + [0x22, 0x7D])?.end == length + 2)
            for escape in [Array(#"\""#.utf8), Array(#"\u0041"#.utf8), Array(#"\ud83d\ude00"#.utf8)] {
                let bytes = [0x22] + inner + escape + [0x22]
                #expect(checked(bytes)?.end == bytes.count, "\(length) \(escape)")
                #expect(checked(bytes)?.escapes == true)
            }
            #expect(checked([0x22] + inner + [0x09, 0x22]) == nil, "a tab is a control character")
            #expect(checked([0x22] + inner) == nil, "no closing quote")
        }
    }

    @Test("pairs of pieces, at every offset, agree with the general reading")
    func piecePairs() {
        for first in Self.pieces {
            for second in Self.pieces {
                for before in 0...8 {
                    let bytes =
                        [0x22] + Array(repeating: UInt8(ascii: "a"), count: before) + first + second + [0x22]
                    #expect(checked(bytes)?.end == reference(bytes)?.end, "\(bytes)")
                }
            }
        }
    }

    // MARK: Wanted keys

    @Test("a key is found by its bytes whatever its length; near misses are not")
    func wantedKeys() {
        let masked = ["", "a", "ab", "phone", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh_long_key_1"]
        let added = ["phone_formatted", "phone_extracted", "abcdefgh_long_key_2", "ph\u{00F6}ne"]
        let keys = JSONWantedKeys(masked: masked, added: added)
        defer { keys.deallocate() }
        func found(_ name: String, trailing: String = "\",\"more\":\"padding for word reads\"") -> [String] {
            let bytes = Array((name + trailing).utf8)
            return bytes.withUnsafeBufferPointer { buffer in
                let name = UnsafeBufferPointer(rebasing: buffer[..<name.utf8.count])
                // The same answer reading words past the name, and reading only its own bytes.
                let wide = keys.matches(name, readable: buffer.count).map(\.self)
                let narrow = keys.matches(name, readable: name.count).map(\.self)
                #expect(wide.map(\.masked) == narrow.map(\.masked))
                #expect(wide.map(\.added) == narrow.map(\.added))
                if !keys.mayHold(name) { #expect(wide.isEmpty) }
                return wide.map { $0.masked >= 0 ? masked[$0.masked] : added[$0.added] }
            }
        }
        for key in masked + added {
            #expect(found(key) == [key], "\(key)")
            #expect(found(key, trailing: "") == [key], "\(key) at the end of the bytes")
        }
        for miss in [
            "b", "abc", "phonE", "abcdefgX", "abcdefghX", "abcdefgh_long_key_3", "abcdefgh_long_key_", "x",
        ] {
            #expect(found(miss).isEmpty, "\(miss)")
        }
    }

    @Test("a key both masked and added is found as both, in order")
    func keyTwice() {
        let keys = JSONWantedKeys(masked: ["zip", "phone", "zip"], added: ["phone"])
        defer { keys.deallocate() }
        let name = Array("phone".utf8)
        name.withUnsafeBufferPointer { buffer in
            let found = keys.matches(buffer, readable: buffer.count).map { ($0.masked, $0.added) }
            #expect(found.map(\.0) == [1, -1])
            #expect(found.map(\.1) == [-1, 0])
        }
        Array("zip".utf8).withUnsafeBufferPointer { buffer in
            #expect(keys.matches(buffer, readable: buffer.count).map(\.masked) == [0, 2])
        }
    }

    // MARK: Whole records, both readings

    static let spec = #"""
        {"columns": [
          {"name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"]},
          {"name": "zip", "format": "[00000]-[9999]"},
          {"name": "t\u00e9l", "format": "[000]"},
          {"name": "a long key name past eight bytes", "format": "[00]"}
        ]}
        """#

    /// Records the one pass reads, and records it leaves to the general reading; each is read
    /// both ways.
    static let records: [[UInt8]] = {
        var lines: [String] = [
            #"{"id":1,"phone":"5551234567","zip":"12345","note":"plain"}"#,
            #"  { "id" : 2 , "phone" : "555 123 4567" ,"zip":null }  "#,
            "{\"id\":3,\r\t\"phone\" :\t5551234567}",
            #"{}"#,
            #"{ }"#,
            #"{"id":4,"phone":"555\"1234567","note":"esc \\ \/ \u00e9 \ud83d\ude00"}"#,
            #"{"id":5,"ph\u006fne":"5551234567"}"#,
            #"{"id":6,"phone":"5551234567","phone":"5551234567"}"#,
            #"{"id":7,"phone":true}"#,
            #"{"id":8,"phone":{"n":1}}"#,
            #"{"id":9,"phone_formatted":"x"}"#,
            #"{"id":10,"nested":{"a":[1,2,{"b":"é"}],"c":"\ud800"},"phone":"1"}"#,
            #"{"id":11,"nested":[true,false,null,-0.5e-3]}"#,
            #"{"id":12,"phone":"\ud800"}"#,
            #"{"id":13,"note":"\udc00"}"#,
            #"{"id":14,"phone":1e3,"zip":-0.10}"#,
            #"{"id":15,"phone":"5551234567"} trailing"#,
            #"{"id":16,"phone":"5551234567",}"#,
            #"{"id":17 "phone":"5551234567"}"#,
            #"{"id":18,"phone":"555"#,
            #"[1,2]"#,
            #""just a string""#,
            #"{"id":19,"t\u00e9l":"123","télé":"x"}"#,
            "{\"id\":20,\"t\u{E9}l\":\"123\"}",
            "{\"id\":21,\"te\u{301}l\":\"456\"}",
            "{\"id\":22,\"te\u{301}l\":\"456\",\"t\u{E9}l\":\"123\"}",
            #"{"id":23,"a long key name past eight bytes":"12","a long key name past eight byteX":"no"}"#,
            #"{"id":24,"a long key name past eight bytes":"1","a long key name past eight bytes":"2"}"#,
            "{\"id\":25,\"note\":\"tab\there\"}",
            #"{"id":26,"phone":"+1 (555) 123-4567","note":"=SUM(A1)","other":"\u003d1","n":["-x"]}"#,
            #"{"id":27,"phone":"","zip":"","note":""}"#,
            #"{"":"empty key","phone":"5551234567"}"#,
            #"{"id":28,"phone":nul}"#,
            #"{"id":29,"phone":01}"#,
            #"{"id":30,"phone":"5551234567"}"#,
            // Numbers of every form, good and bad, masked and not.
            #"{"id":41,"phone":12a}"#, #"{"id":42,"phone":1.5,"zip":1e5}"#, #"{"id":43,"phone":1E+5}"#,
            #"{"id":44,"phone":1.}"#, #"{"id":45,"phone":-}"#, #"{"id":46,"phone":-0,"zip":0.10}"#,
            #"{"id":47,"phone":01}"#, #"{"id":48,"phone":5551234567 }"#, #"{"id":49,"phone":9"#,
            #"{"id":50,"phone":1e}"#, #"{"id":51,"phone":123456789012345678901234567890}"#,
            // Spanning lines, which NDJSON records may not; blanks and CR around one that does not.
            "{\"id\":36,\"n\":[1,\n2],\"phone\":\"1\"}",
            "{\"id\":37,\n\"phone\":\"1\"}",
            "{\"id\":38,\"n\":[1,\r2],\"phone\":\"1\"} \t\r",
            "\t {\"id\":39,\"phone\":\"5551234567\"}\r",
            "  \r",
            "{\"id\":40,\"phone\":\"5551234567\"} \r x",
        ]
        lines += (0..<24).map {
            #"{"k\#(String(repeating: "x", count: $0))":"\#(String(repeating: "y", count: $0))é","phone":"\#($0)"}"#
        }
        var bytes = lines.map { Array($0.utf8) }
        let id = Array(#"{"id":31,"phone":"5551234567","note":"caf"#.utf8)
        bytes.append(id + [0xE9] + Array(#""}"#.utf8))  // Latin-1
        bytes.append(Array(#"{"id":32,"n"#.utf8) + [0xFF] + Array(#"":"x"}"#.utf8))  // in a key
        bytes.append(Array(#"{"id":33,"phone":"5551234567","x":["#.utf8) + [0xC0, 0xAF] + Array(#"]}"#.utf8))
        bytes.append(Array(#"{"id":34,"x":[""#.utf8) + [0xC0, 0xAF] + Array(#""]}"#.utf8))
        bytes.append(Array(#"{"id":35,"note":"a"#.utf8) + [0x00] + Array(#""}"#.utf8))
        return bytes
    }()

    /// Reads the records as one chunk of an NDJSON file, in one pass where it can or by the
    /// general reading alone: what the chunk gives, every part of it as text.
    func read(
        inOnePass: Bool, output: RecordFormat, escapeFormulas: Bool, in folder: TemporaryFolder
    ) throws -> [String] {
        let text: [UInt8] = Self.records.flatMap { $0 + [0x0A] }
        let path = try folder.write("data.ndjson", text)
        let spec = try loadSpec(Self.spec)
        let settings = sourceSettings(spec, output: output, policy: .quarantine)
        let source = try NDJSONSource(input: InputFile(path: path), settings)
        let layout: RecordWriter.Layout =
            output == .csv
            ? .csv(delimiter: UInt8(ascii: ","), terminator: [0x0A]) : .json(array: output == .json)
        let writer = RecordWriter(
            layout: layout, escapeFormulas: escapeFormulas,
            columnNames: (source.start.columnNames ?? []) + spec.addedColumns)
        let processor = try #require(source.makeProcessor(writer) as? BatchProcessor<JSONRecordReader>)
        processor.reader.readsInOnePass = inOnePass
        let buffer = ByteBuffer()
        text.withUnsafeBufferPointer { buffer.append($0) }
        let result = processor.process(Chunk(buffer: buffer, firstLine: 1, isLast: true), into: ByteBuffer())
        return [
            String(decoding: result.output.bytes, as: UTF8.self),
            String(decoding: result.quarantine, as: UTF8.self),
            "\(result.rows)", "\(result.rejections)", "\(result.stats)", "\(result.maskedKeysSeen)",
            "\(result.keysSeen)", "\(String(describing: result.fatal))",
        ]
    }

    @Test(
        "every record is written, or rejected with the same words, by both readings",
        arguments: [
            (RecordFormat.ndjson, false), (.ndjson, true), (.json, false), (.csv, false), (.csv, true),
        ])
    func bothReadingsAgree(output: RecordFormat, escapeFormulas: Bool) throws {
        let folder = try TemporaryFolder()
        let general = try read(inOnePass: false, output: output, escapeFormulas: escapeFormulas, in: folder)
        let onePass = try read(inOnePass: true, output: output, escapeFormulas: escapeFormulas, in: folder)
        for (part, text) in general.enumerated() {
            #expect(onePass[part] == text, "part \(part)")
        }
        #expect(!general[0].isEmpty && !general[1].isEmpty, "records both written and rejected")
    }
}
