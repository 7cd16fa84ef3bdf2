import TestSupport
import Testing

@testable import MaskClean

/// Ranges read at offsets (`RangedChunks`) must cut the same records as one scan of the whole
/// input in order: every chunk starts where a record does, on the line it is on, and together
/// they hold every byte once. Checked against the serial splitter on thousands of random inputs
/// made of the bytes that matter to CSV (quotes, delimiters, line feeds, CRs).
@Suite("Ranged chunks")
struct RangedChunksTests {
    struct Cut: Equatable {
        var offset: Int
        var line: Int
        var bytes: [UInt8]
    }

    /// Every chunk of `data` (after a one-line header) in ranges of `chunkSize`, claimed and
    /// loaded in order; and where the serial reader was handed over to, if it was.
    static func ranges<Splitter: LineStartSplitter>(
        _ folder: TemporaryFolder, _ data: [UInt8], splitter: Splitter, chunkSize: Int,
        maximumRecordBytes: Int = 1 << 20
    ) throws -> (cuts: [Cut], handOver: ChunkPipeline.HandOver?) {
        let path = try folder.write("input", Array("h\n".utf8) + data)
        let input = try InputFile(path: path)
        // Read the header as a source does: the ranges start after it.
        var header = [UInt8](repeating: 0, count: 2)
        _ = try header.withUnsafeMutableBytes { try input.read(into: $0) }
        let pool = BufferPool(initialCapacity: 64)
        let ranges = try #require(
            RangedChunks(
                input: input, recordStart: splitter, leftover: 0, firstLine: 2, chunkSize: chunkSize,
                maximumRecordBytes: maximumRecordBytes, pool: pool))
        var cuts: [Cut] = []
        while let claimed = try ranges.claim(into: nil) {
            guard case .range(_, let load) = claimed else {
                Issue.record("a claim of a plain file read its chunk under the lock")
                break
            }
            switch try load() {
            case .chunk(let input):
                cuts.append(
                    Cut(
                        offset: input.chunk.firstOffset, line: input.chunk.firstLine,
                        bytes: Array(input.chunk.bytes)))
            case .handOver(let handOver):
                return (cuts, handOver)
            }
        }
        return (cuts, nil)
    }

    /// Where records start in `data` by one scan in order, and the line each is on.
    static func recordStarts<Splitter: RecordSplitter>(_ data: [UInt8], splitter: Splitter) -> [Int: Int] {
        var splitter = splitter
        var starts = [0: 2]
        var position = 0
        var line = 2
        data.withUnsafeBufferPointer { bytes in
            while position < bytes.count {
                let found = splitter.scanToFirstBoundary(UnsafeBufferPointer(rebasing: bytes[position...]))
                guard let boundary = found.boundary else { break }
                line += found.lineFeedsBeforeBoundary
                position += boundary
                starts[position] = line
            }
        }
        return starts
    }

    /// Random bytes, weighted towards what CSV's quoting turns on.
    static func randomCSV(_ generator: inout SplitMix64, length: Int) -> [UInt8] {
        let alphabet: [UInt8] = Array("aaaab,,\"\"\n\n\r".utf8)
        return (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
    }

    static func check(_ data: [UInt8], cuts: [Cut], handOver: ChunkPipeline.HandOver?, starts: [Int: Int]) {
        var expected = 0
        for cut in cuts where !cut.bytes.isEmpty {
            #expect(
                cut.offset == expected,
                "chunks are contiguous: \(cut) in \(String(decoding: data, as: UTF8.self).debugDescription)")
            #expect(
                starts[cut.offset] == cut.line,
                "a chunk starts where a record does, on its line: \(cut) in \(String(decoding: data, as: UTF8.self).debugDescription)"
            )
            expected = cut.offset + cut.bytes.count
        }
        if let handOver {
            // Offsets are the file's, past the two-byte header.
            #expect(
                handOver.offset - 2 == expected,
                "\(cuts) \(String(decoding: data, as: UTF8.self).debugDescription)")
            #expect(starts[handOver.offset - 2] == handOver.line)
        } else {
            #expect(expected == data.count, "every byte is in a chunk")
            #expect(cuts.flatMap(\.bytes) == data)
        }
    }

    @Test("CSV: random quoting, any chunk size, the same records and lines as one scan in order")
    func csvAgainstOneScan() throws {
        let folder = try TemporaryFolder()
        var generator = SplitMix64(seed: 32)
        let splitter = CSVSplitter(delimiter: 0x2C)
        for round in 0..<1500 {
            let data = Self.randomCSV(&generator, length: Int(generator.next() % 120))
            let chunkSize = 1 + Int(generator.next() % 24)
            let (cuts, handOver) = try Self.ranges(folder, data, splitter: splitter, chunkSize: chunkSize)
            #expect(handOver == nil, "round \(round)")
            Self.check(
                data, cuts: cuts, handOver: handOver, starts: Self.recordStarts(data, splitter: splitter))
        }
    }

    @Test("CSV: a quoted field across many ranges is read on to its end by the range it starts in")
    func quotedFieldAcrossRanges() throws {
        let folder = try TemporaryFolder()
        let data = Array("1,\"a\nb\nc\nd\ne\nf\",x\n2,\"\"\"\n\"\"\",y\r3,z\r\n4,\"\n\n\"\n5,last".utf8)
        let splitter = CSVSplitter(delimiter: 0x2C)
        for chunkSize in 1...data.count + 1 {
            let (cuts, handOver) = try Self.ranges(folder, data, splitter: splitter, chunkSize: chunkSize)
            Self.check(
                data, cuts: cuts, handOver: handOver, starts: Self.recordStarts(data, splitter: splitter))
            #expect(
                cuts.filter { !$0.bytes.isEmpty }.map(\.line).allSatisfy { [2, 8, 9, 10, 13].contains($0) })
        }
    }

    @Test("CSV: with no line end within the longest record, the ranges hand over at a record's start")
    func handsOverBeforeALongRecord() throws {
        let folder = try TemporaryFolder()
        var generator = SplitMix64(seed: 7)
        let splitter = CSVSplitter(delimiter: 0x2C)
        var handedOver = 0
        for _ in 0..<800 {
            var data = Self.randomCSV(&generator, length: Int(generator.next() % 60))
            data += Array(repeating: UInt8(ascii: "a"), count: Int(generator.next() % 40))
            data += Self.randomCSV(&generator, length: Int(generator.next() % 30))
            let (cuts, handOver) = try Self.ranges(
                folder, data, splitter: splitter, chunkSize: 1 + Int(generator.next() % 8),
                maximumRecordBytes: 12)
            if handOver != nil { handedOver += 1 }
            Self.check(
                data, cuts: cuts, handOver: handOver, starts: Self.recordStarts(data, splitter: splitter))
        }
        #expect(handedOver > 100)
    }

    @Test("NDJSON: every line is a record, however the ranges fall; a CR is text")
    func ndjsonLines() throws {
        let folder = try TemporaryFolder()
        let data = Array("{\"a\":1}\n{\"a\":\"x\\r\"}\r\n\n{\"a\":3}\r{\"a\":4}\n{\"a\":5}".utf8)
        for chunkSize in 1...data.count + 1 {
            let (cuts, handOver) = try Self.ranges(
                folder, data, splitter: LineSplitter(), chunkSize: chunkSize)
            #expect(handOver == nil)
            Self.check(
                data, cuts: cuts, handOver: handOver,
                starts: Self.recordStarts(data, splitter: LineSplitter()))
        }
    }

    @Test("NDJSON: with no line end within the longest record, the ranges hand over at a line's start")
    func ndjsonLongLine() throws {
        let folder = try TemporaryFolder()
        let data = Array(
            "{\"a\":1}\n{\"a\":2}\n{\"long\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n{\"a\":4}\n".utf8)
        for chunkSize in [1, 5, 12, 20] {
            let (cuts, handOver) = try Self.ranges(
                folder, data, splitter: LineSplitter(), chunkSize: chunkSize, maximumRecordBytes: 20)
            #expect(handOver != nil, "chunk size \(chunkSize)")
            Self.check(
                data, cuts: cuts, handOver: handOver,
                starts: Self.recordStarts(data, splitter: LineSplitter()))
        }
    }

    @Test("Both readings of a range agree with scanning it from each start on its own")
    func rangeScanAgainstTwoScans() {
        var generator = SplitMix64(seed: 99)
        let recordStart = CSVSplitter(delimiter: 0x2C)
        let quoted = recordStart.insideQuotedField!
        for _ in 0..<3000 {
            var data = Self.randomCSV(&generator, length: Int(generator.next() % 80))
            data.append(0x0A)
            data.withUnsafeBufferPointer { bytes in
                let scan = RangeScan(bytes, from: recordStart)
                var fromStart = recordStart
                var fromQuoted = quoted
                let found = fromStart.scan(bytes)
                _ = fromQuoted.scan(bytes)
                var first = quoted
                let firstFound = first.scanToFirstBoundary(bytes)
                #expect(scan.lineFeeds == found.lineFeeds)
                #expect(scan.endsInsideQuotedField == fromStart.isInsideQuotedField)
                #expect(scan.endsInsideQuotedFieldFromQuotedField == fromQuoted.isInsideQuotedField)
                #expect(scan.firstRecordFromQuotedField == firstFound.boundary)
                if firstFound.boundary != nil {
                    #expect(scan.lineFeedsBeforeFirstRecord == firstFound.lineFeedsBeforeBoundary)
                }
            }
        }
    }
}
