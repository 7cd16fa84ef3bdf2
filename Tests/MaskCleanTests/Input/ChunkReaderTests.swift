import TestSupport
import Testing

@testable import MaskClean

/// The reader cuts the input into chunks of whole records, each knowing the physical line it
/// starts on: that is how an error in any chunk names the right line.
@Suite("Chunk reader")
struct ChunkReaderTests {
    struct Cut {
        var bytes: [UInt8]
        var firstLine: Int
        var isLast: Bool
    }

    /// Every chunk the reader gives (failing the test on an oversized record).
    func chunks<Splitter: RecordSplitter>(
        _ reader: ChunkReader<Splitter>
    ) throws -> [Cut] {
        var cuts: [Cut] = []
        while let event = try reader.next() {
            switch event {
            case .chunk(let chunk):
                cuts.append(Cut(bytes: Array(chunk.bytes), firstLine: chunk.firstLine, isLast: chunk.isLast))
            case .oversizedRecord(let line):
                Issue.record("unexpected oversized record at line \(line)")
                return cuts
            case .brokenStructure(let line):
                Issue.record("unexpected broken structure at line \(line)")
                return cuts
            }
        }
        return cuts
    }

    func reader<Splitter: RecordSplitter>(
        _ folder: TemporaryFolder, _ text: String, splitter: Splitter, chunkSize: Int,
        maximumRecordBytes: Int = 1 << 20, leftover: String = "", firstLine: Int = 1
    ) throws -> ChunkReader<Splitter> {
        let path = try folder.write("input", text)
        return ChunkReader(
            input: try InputFile(path: path), splitter: splitter, chunkSize: chunkSize,
            maximumRecordBytes: maximumRecordBytes, leftover: Array(leftover.utf8), firstLine: firstLine)
    }

    /// Regression: an old Mac export (records ending in a bare CR) had no line feed to cut at, so
    /// the whole file was one chunk, parsed on one core.
    @Test("a bare-CR export is cut into chunks at its record ends, quoted CRs left alone")
    func bareCRChunks() throws {
        let folder = try TemporaryFolder()
        var text = ""
        var ends: Set<Int> = []
        for row in 1...300 {
            text += row % 4 == 0 ? "\(row),\"555\r\(row)\",x\r" : "\(row),5551234567,y\r"
            ends.insert(text.utf8.count)
        }
        let cuts = try chunks(
            reader(folder, text, splitter: CSVSplitter(delimiter: UInt8(ascii: ",")), chunkSize: 256))
        #expect(cuts.count > 10, "\(cuts.count) chunks")
        #expect(cuts.flatMap(\.bytes) == Array(text.utf8), "every byte once, in order")
        var offset = 0
        for cut in cuts.dropLast() {
            offset += cut.bytes.count
            #expect(ends.contains(offset), "a chunk ends at a record's end (\(offset))")
        }
    }

    /// Regression: a format of 10,000 literals on 200,000 short records peaked at 2 GB, each
    /// chunk of 1 MiB holding so many records that its output ran to hundreds of megabytes. With
    /// a record budget, chunks hold about that many records, even those all read with the header.
    @Test("a record budget keeps chunks to about that many records", arguments: [true, false])
    func recordBudget(inLeftover: Bool) throws {
        let folder = try TemporaryFolder()
        let records = (1...5_000).map { "\($0),555\n" }
        let text = records.joined()
        let reader = try reader(
            folder, inLeftover ? "" : text, splitter: CSVSplitter(delimiter: UInt8(ascii: ",")),
            chunkSize: 1 << 20, leftover: inLeftover ? text : "")
        reader.recordBudget = 50
        let cuts = try chunks(reader)
        #expect(cuts.flatMap(\.bytes) == Array(text.utf8), "every byte once, in order")
        let sizes = cuts.map { $0.bytes.count { $0 == 0x0A } }
        #expect(cuts.count > 20, "\(cuts.count) chunks")
        #expect(sizes.max() ?? 0 <= 250, "records per chunk: \(sizes.max() ?? 0)")
        var line = 1
        for cut in cuts {
            #expect(cut.firstLine == line)
            line += cut.bytes.count { $0 == 0x0A }
        }
    }

    /// A CSV body of `count` records, some with quoted line breaks, and the offsets where its
    /// records end.
    func csvBody(_ count: Int) -> (text: String, ends: Set<Int>) {
        var text = ""
        var ends: Set<Int> = []
        for row in 1...count {
            switch row % 3 {
            case 0: text += "\(row),\"555\n\(row)\",\"a \"\"b\"\"\nc\"\n"
            case 1: text += "\(row),5551234567,x\n"
            default: text += "\(row),\"(555) 123-4567\",\"hello, world\"\r\n"
            }
            ends.insert(text.utf8.count)
        }
        return (text, ends)
    }

    /// The line each byte offset is on, counting from `firstLine`.
    func line(of offset: Int, in bytes: [UInt8], firstLine: Int) -> Int {
        firstLine + bytes[..<offset].count { $0 == 0x0A }
    }

    @Test("CSV chunks end on record boundaries and know their first line", arguments: [1, 16, 40, 1000])
    func csvChunks(chunkSize: Int) throws {
        let folder = try TemporaryFolder()
        let (text, ends) = csvBody(30)
        let bytes = Array(text.utf8)
        let cuts = try chunks(
            reader(folder, text, splitter: CSVSplitter(delimiter: UInt8(ascii: ",")), chunkSize: chunkSize))
        #expect(cuts.flatMap(\.bytes) == bytes, "the chunks are the input, in order")
        var offset = 0
        for (index, cut) in cuts.enumerated() {
            #expect(cut.firstLine == line(of: offset, in: bytes, firstLine: 1), "chunk \(index)")
            offset += cut.bytes.count
            #expect(ends.contains(offset), "chunk \(index) ends inside a record")
            if cut.isLast { #expect(index == cuts.count - 1, "only the last chunk is marked last") }
            if index < cuts.count - 1 {
                #expect(cut.bytes.count >= chunkSize, "only the last chunk may be short")
            }
        }
        if chunkSize >= bytes.count {
            #expect(cuts.count == 1)
        }
    }

    @Test("leftover bytes come first, and lines count from the given first line")
    func leftover() throws {
        let folder = try TemporaryFolder()
        let cuts = try chunks(
            reader(
                folder, "\"d\"\n4,e\n5,\"f\ng\"\n", splitter: CSVSplitter(delimiter: UInt8(ascii: ",")),
                chunkSize: 4, leftover: "2,a\n3,\"b\nc", firstLine: 2))
        #expect(
            cuts.map { String(decoding: $0.bytes, as: UTF8.self) }
                == ["2,a\n", "3,\"b\nc\"d\"\n", "4,e\n", "5,\"f\ng\"\n"])
        #expect(cuts.map(\.firstLine) == [2, 3, 5, 6])
    }

    @Test("a last record without a line break ends the last chunk")
    func noFinalLineBreak() throws {
        let folder = try TemporaryFolder()
        let cuts = try chunks(
            reader(
                folder, "1,a\n2,\"b\nc\"", splitter: CSVSplitter(delimiter: UInt8(ascii: ",")), chunkSize: 2))
        #expect(cuts.map { String(decoding: $0.bytes, as: UTF8.self) } == ["1,a\n", "2,\"b\nc\""])
        #expect(cuts.map(\.firstLine) == [1, 2])
        #expect(cuts.map(\.isLast) == [false, true])
    }

    @Test("an empty input gives no chunk")
    func emptyInput() throws {
        let folder = try TemporaryFolder()
        #expect(try chunks(reader(folder, "", splitter: LineSplitter(), chunkSize: 16)).isEmpty)
    }

    @Test("NDJSON chunks end on line feeds", arguments: [1, 16, 64])
    func ndjsonChunks(chunkSize: Int) throws {
        let folder = try TemporaryFolder()
        var text = ""
        for row in 1...25 { text += row % 5 == 0 ? "\n" : "{\"id\":\(row),\"phone\":\"555 \(row)\"}\n" }
        let bytes = Array(text.utf8)
        let cuts = try chunks(reader(folder, text, splitter: LineSplitter(), chunkSize: chunkSize))
        #expect(cuts.flatMap(\.bytes) == bytes)
        var offset = 0
        for cut in cuts {
            #expect(cut.firstLine == line(of: offset, in: bytes, firstLine: 1))
            offset += cut.bytes.count
            #expect(bytes[offset - 1] == 0x0A)
        }
    }

    @Test("JSON array chunks end after the comma between records", arguments: [1, 16, 64])
    func arrayChunks(chunkSize: Int) throws {
        let folder = try TemporaryFolder()
        // As the reader gets it: after the opening bracket, which is on line 1.
        var text = "\n"
        var ends: Set<Int> = []
        for row in 1...12 {
            text += "  {\"id\": \(row), \"note\": \"a,\\\"b\\\"\", \"list\": [1, {\"x\": \"]\"}]}"
            text += row == 12 ? "\n]\n" : ",\n"
            ends.insert(text.utf8.count - 1)
        }
        let bytes = Array(text.utf8)
        let cuts = try chunks(reader(folder, text, splitter: JSONArraySplitter(), chunkSize: chunkSize))
        #expect(cuts.flatMap(\.bytes) == bytes)
        var offset = 0
        for (index, cut) in cuts.enumerated() {
            #expect(cut.firstLine == line(of: offset, in: bytes, firstLine: 1))
            offset += cut.bytes.count
            if index < cuts.count - 1 {
                #expect(ends.contains(offset), "chunk \(index) does not end after a record's comma")
            }
        }
    }

    @Test("a record longer than the maximum is reported with the line it begins on")
    func oversizedRecord() throws {
        let folder = try TemporaryFolder()
        let long = "3,\"" + String(repeating: "x", count: 200) + "\"\n"
        let reader = try reader(
            folder, "1,a\n2,\"b\nc\"\n" + long + "4,y\n", splitter: CSVSplitter(delimiter: UInt8(ascii: ",")),
            chunkSize: 8, maximumRecordBytes: 64)
        var before: [UInt8] = []
        var reported: Int?
        while let event = try reader.next() {
            switch event {
            case .chunk(let chunk): before += chunk.bytes
            case .oversizedRecord(let line): reported = line
            case .brokenStructure: Issue.record("not JSON")
            }
            if reported != nil { break }
        }
        #expect(String(decoding: before, as: UTF8.self) == "1,a\n2,\"b\nc\"\n", "whole records first")
        #expect(reported == 4)
        #expect(reader.maximumRecordBytes == 64)
    }

    @Test("an unterminated quote that runs to the end is reported as oversized, with its line")
    func runawayQuote() throws {
        let folder = try TemporaryFolder()
        var text = "1,a\n2,\"oops\n"
        for row in 3...40 { text += "\(row),5551234567\n" }
        let reader = try reader(
            folder, text, splitter: CSVSplitter(delimiter: UInt8(ascii: ",")), chunkSize: 4,
            maximumRecordBytes: 100)
        var reported: Int?
        while let event = try reader.next() {
            if case .oversizedRecord(let line) = event {
                reported = line
                break
            }
        }
        #expect(reported == 2)
    }
}

/// Chunk buffers go back to a pool once masked and are filled again: a short chunk in a buffer
/// that held a long one must carry only its own bytes.
@Suite("Chunk buffers reused")
struct ChunkBufferReuseTests {
    // The reader reads into a buffer of the pool and hands that buffer over as the chunk, moving
    // what follows the cut into another: two buffers take turns, however many chunks.
    @Test("a reused buffer holds only the new chunk, and no buffer is allocated after the first two")
    func reusedBuffer() throws {
        let folder = try TemporaryFolder()
        let long = "1,\"" + String(repeating: "long cell ", count: 20) + "\"\n"
        let short = "2,x\n"
        let path = try folder.write("input", long + String(repeating: short, count: 9))
        let pool = BufferPool(initialCapacity: 4)
        let reader = ChunkReader(
            input: try InputFile(path: path), splitter: CSVSplitter(delimiter: UInt8(ascii: ",")),
            chunkSize: 1, maximumRecordBytes: 1 << 20, leftover: [], firstLine: 1, pool: pool)
        var seen: [String] = []
        var buffers: Set<ObjectIdentifier> = []
        while let event = try reader.next() {
            guard case .chunk(let chunk) = event else {
                Issue.record("unexpected oversized record")
                return
            }
            seen.append(String(decoding: chunk.bytes, as: UTF8.self))
            buffers.insert(ObjectIdentifier(chunk.buffer))
            pool.give(chunk.buffer)
        }
        #expect(seen == [long] + Array(repeating: short, count: 9))
        #expect(buffers.count == 2)
    }

    @Test("a buffer comes back from the pool empty, with its capacity")
    func emptiedOnReturn() {
        let pool = BufferPool(initialCapacity: 8)
        let buffer = pool.take()
        buffer.append(Array("a chunk's worth of output".utf8))
        pool.give(buffer)
        let again = pool.take()
        #expect(again === buffer)
        #expect(again.isEmpty)
        again.append(Array("next".utf8))
        #expect(Array(again.bytes) == Array("next".utf8))
        #expect(pool.take() !== buffer)
    }
}
