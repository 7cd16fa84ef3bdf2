import Foundation
import TestSupport
import Testing

@testable import MaskClean

#if canImport(Glibc)
    import Glibc
#endif

/// `--encoding` (docs/record-formats.md#encoding): an input in another encoding is converted to
/// UTF-8 as it is read, exactly as Python's codecs decode it, in any block size; what is not text
/// of the encoding stops the run with its line; and a file that is not UTF-8, read without
/// `--encoding`, says which encoding would read it.
@Suite("Reading other encodings")
struct TextEncodingTests {
    /// Python's decoding of a corpus it wrote (Tests/Oracles/encoding_oracle.py): the input's
    /// bytes and the UTF-8 they are.
    static func corpus(_ encoding: String, size: Int, in folder: TemporaryFolder) throws -> (
        input: String, expected: [UInt8]
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", repositoryRoot.appendingPathComponent("Tests/Oracles/encoding_oracle.py").path,
            encoding,
            String(size), folder.url.path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 Tests/Oracles/encoding_oracle.py \(encoding)")
        return (folder.path("input.bin"), try folder.read("expected.txt"))
    }

    /// Everything `input` reads as `encoding`, `block` bytes at a time.
    static func readAll(_ path: String, as encoding: TextEncoding, block: Int) throws(MaskCleanError)
        -> [UInt8]
    {
        let input = try InputFile(path: path)
        try input.decode(as: encoding)
        var text: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: block, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer)
            if count == 0 { return text }
            text += UnsafeRawBufferPointer(rebasing: buffer[..<count])
        }
    }

    @Test(
        "a megabyte of each encoding reads as Python's codecs decode it, in any block size",
        arguments: ["windows-1252", "iso-8859-1", "iso-8859-15", "utf-16le", "utf-16be", "utf-16"])
    func againstPython(name: String) throws {
        let folder = try TemporaryFolder()
        let (input, expected) = try Self.corpus(name, size: 1 << 20, in: folder)
        let encoding = try TextEncoding(named: name)
        #expect(encoding.name == name)
        for block in [1, 3, 4096, 1 << 20] {
            let text = try Self.readAll(input, as: encoding, block: block)
            #expect(text.count == expected.count, "\(name), blocks of \(block)")
            #expect(text == expected, "\(name), blocks of \(block)")
        }
        // Compressed, it is decompressed first, then converted.
        let packed = try Data(contentsOf: URL(fileURLWithPath: input)).withUnsafeBytes {
            Compressor(.gzip).compressed($0)
        }
        let gzipped = try folder.write("input.bin.gz", packed)
        #expect(try Self.readAll(gzipped, as: encoding, block: 65_536) == expected, "\(name), gzip")
    }

    /// The table a single-byte encoding is converted by is iconv's own reading of each byte:
    /// its fast twin, held up against iconv converting all the bytes at once.
    @Test(
        "a single-byte encoding's table reads every byte as iconv does",
        arguments: ["CP1252", "ISO-8859-1", "ISO-8859-15", "CP1250", "KOI8-R"])
    func tableAgainstIconv(name: String) throws {
        let converter = try #require(iconv_open("UTF-8", name))
        defer { iconv_close(converter) }
        let table = try #require(SingleByteTable(converter))
        for byte in 0..<256 {
            var input: [CChar] = [CChar(bitPattern: UInt8(byte))]
            var output = [CChar](repeating: 0, count: 8)
            var outputLeft = 8
            let failed = input.withUnsafeMutableBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    var inputPointer: UnsafeMutablePointer<CChar>? = inputBuffer.baseAddress
                    var inputLeft = 1
                    var outputPointer: UnsafeMutablePointer<CChar>? = outputBuffer.baseAddress
                    return iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) == -1
                }
            }
            _ = iconv(converter, nil, nil, nil, nil)
            let expected = failed ? [] : output[..<(8 - outputLeft)].map { UInt8(bitPattern: $0) }
            var lineFeeds = 0
            let converted = [UInt8](unsafeUninitializedCapacity: 16) { buffer, initialized in
                initialized = [UInt8(byte)].withUnsafeBytes { source in
                    table.convert(source, into: UnsafeMutableRawBufferPointer(buffer), lineFeeds: &lineFeeds)
                        .written
                }
            }
            #expect(converted == expected, "\(name) byte \(byte)")
        }
        // A word of ASCII, then a letter, then a line feed: copied, looked up, counted.
        var lineFeeds = 0
        let text: [UInt8] = Array("abcdefgh".utf8) + [0xE9] + Array("\nx".utf8)
        var out = [UInt8](repeating: 0, count: 64)
        let done = text.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { table.convert(source, into: $0, lineFeeds: &lineFeeds) }
        }
        #expect(done.read == text.count && lineFeeds == 1)
        #expect(String(decoding: out[..<done.written], as: UTF8.self).hasPrefix("abcdefgh"))
        let utf16 = try #require(iconv_open("UTF-8", "UTF-16LE"))
        defer { iconv_close(utf16) }
        #expect(SingleByteTable(utf16) == nil, "UTF-16 is no table")
    }

    @Test("names are found in any case and by their aliases; an unknown one is a usage error")
    func names() throws {
        #expect(try TextEncoding(named: "CP1252").name == "windows-1252")
        #expect(try TextEncoding(named: "Latin1").name == "iso-8859-1")
        #expect(try TextEncoding(named: "latin9").name == "iso-8859-15")
        #expect(try TextEncoding(named: "UTF-16LE").name == "utf-16le")
        #expect(try TextEncoding(named: "utf8").isUTF8)
        // Another name iconv knows is read through it as given.
        #expect(try TextEncoding(named: "CP1250").name == "cp1250")
        #expect(throws: MaskCleanError.self) { try TextEncoding(named: "klingon") }
    }

    @Test("a byte the encoding does not define stops the reading with its line and the bytes")
    func undefinedByte() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "export.csv", Array("id,name\n1,Ann\n2,B".utf8) + [0x81] + Array("b\n".utf8))
        do throws(MaskCleanError) {
            _ = try Self.readAll(path, as: try TextEncoding(named: "windows-1252"), block: 4096)
            Issue.record("read")
        } catch {
            #expect(
                error.message
                    == "\(path):3: not windows-1252 text: the byte 0x81 is no character of it; is it in another encoding?"
            )
        }
        // UTF-16 cut inside a character.
        let cut = try folder.write("cut.csv", utf16("id,name\n1,Ann\n", marked: true) + [0x41])
        do throws(MaskCleanError) {
            _ = try Self.readAll(cut, as: try TextEncoding(named: "utf-16"), block: 5)
            Issue.record("read")
        } catch {
            #expect(
                error.message
                    == "\(cut):3: ends inside a character: not whole utf-16 text (1 byte left over)")
        }
    }

    /// A Windows-1252 export from a European CRM: accented names, a euro sign, semicolons.
    static let export: [UInt8] =
        Array("Kundennr;Name;Telefon;Umsatz\r\n".utf8)
        + Array("K-1;Jos".utf8) + [0xE9] + Array(" M".utf8) + [0xFC] + Array("ller;5551234567;12 ".utf8) + [
            0x80
        ]
        + Array("\r\n".utf8)
        + Array("K-2;".utf8) + [0x93] + Array("Fran".utf8) + [0xE7] + Array("ois".utf8) + [0x94]
        + Array(";555-0101;3 ".utf8) + [0x80] + Array("\r\n".utf8)

    static let spec =
        #"{"columns": [{"name": "Telefon", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"]}, {"name": "Name", "format": "[A…]"}]}"#

    @Test("a run reads it as UTF-8, masks it, writes UTF-8 and says the encoding in the report")
    func run() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("kunden.csv", Self.export)
        let spec = try loadSpec(Self.spec)
        for (output, format) in [("out.csv", RecordFormat.csv), ("out.ndjson", .ndjson)] {
            var options = RunOptions(
                input: folder.path("kunden.csv"), output: folder.path(output),
                report: folder.path("report.json"),
                jobs: 2)
            options.outputFormat = format
            options.encoding = try TextEncoding(named: "windows-1252")
            options.chunkSize = 16
            let report = try Runner.run(spec, options)
            #expect(report.rows == 2)
            #expect(report.origin.encoding?.name == "windows-1252")
            #expect(try folder.text("report.json").contains("\"encoding\": \"windows-1252\","))
            let text = try folder.text(output)
            if format == .csv {
                #expect(
                    text
                        == "Kundennr;Name;Telefon;Umsatz;Telefon_formatted;Telefon_extracted;Telefon_status;Name_formatted;Name_extracted;Name_status\r\n"
                        + "K-1;José Müller;5551234567;12 €;+1 (555) 123-4567;5551234567;complete;JoséMüller;JoséMüller;complete\r\n"
                        + "K-2;“François”;555-0101;3 €;555-0101;5550101;complete;François;François;complete\r\n"
                )
            } else {
                #expect(text.contains(#""Name":"“François”","Telefon":"555-0101","Umsatz":"3 €""#), "\(text)")
            }
        }
    }

    @Test("read as UTF-8, it fails at its first line that is not, naming the encoding that reads it")
    func hint() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("kunden.csv", Self.export)
        let outcome = try runPipeline(spec: Self.spec, input: "kunden.csv", in: folder, output: "out.csv")
        #expect(
            outcome.error?.message
                == "\(folder.path("kunden.csv")):2: invalid UTF-8 in column \"Name\" (looks like Windows-1252: try the input's encoding windows-1252)"
        )
        #expect(
            InputText.encodingHint(Array("Jos".utf8) + [0xE9])?.description
                == "looks like Windows-1252 or ISO-8859-1: try the input's encoding windows-1252")
        #expect(InputText.encodingHint(Array("José".utf8)) == nil)
        #expect(
            InputText.encodingHint([0x41, 0x81])?.description
                == "not UTF-8 nor Windows-1252 text; give its encoding with the input's encoding")
        // A header in Windows-1252.
        _ = try folder.write("header.csv", Array("id;T".utf8) + [0xE9] + Array("l;Telefon\n1;x;555\n".utf8))
        let header = try runPipeline(spec: Self.spec, input: "header.csv", in: folder, output: "out.csv")
        #expect(
            header.error?.message
                == "\(folder.path("header.csv")):1: invalid UTF-8 in the header (looks like Windows-1252 or ISO-8859-1: try the input's encoding windows-1252)"
        )
    }

    @Test("describe reads it with the same encoding, both times")
    func describe() throws {
        let folder = try TemporaryFolder()
        var rows = Array("id;name;phone\n".utf8)
        for index in 0..<30 {
            rows += Array("\(index);Jos".utf8) + [0xE9] + Array(";(555) 555-\(1000 + index)\n".utf8)
        }
        var options = DescribeOptions(input: try folder.write("export.csv", rows))
        options.jobs = 2
        options.encoding = try TextEncoding(named: "iso-8859-1")
        let proposal = try SpecProposer.describe(options)
        #expect(proposal.proposed.map(\.name) == ["phone"])
        #expect(proposal.proposed.first?.complete == 30)
    }
}
