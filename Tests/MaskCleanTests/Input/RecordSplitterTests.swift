import Testing

@testable import MaskClean

/// The splitters decide where chunks may be cut: a boundary inside a record would split it in two.
@Suite("Record splitters")
struct RecordSplitterTests {
    /// Every record boundary (offset just after it) and the line feeds before it, found by
    /// scanning `bytes` in pieces of `piece` bytes (0: at once).
    func boundaries<Splitter: RecordSplitter>(
        _ splitter: Splitter, _ bytes: [UInt8], piece: Int = 0
    ) -> (boundaries: [Int], lineFeeds: Int) {
        var splitter = splitter
        var found: [Int] = []
        var lineFeeds = 0
        var start = 0
        let step = piece == 0 ? max(bytes.count, 1) : piece
        bytes.withUnsafeBufferPointer { all in
            while start < bytes.count {
                let end = min(start + step, bytes.count)
                let scan = splitter.scan(UnsafeBufferPointer(rebasing: all[start..<end]))
                if let boundary = scan.boundary {
                    found.append(start + boundary)
                    // The line feeds before the boundary are those of the whole input up to it.
                    let expected = bytes[..<(start + boundary)].count { $0 == 0x0A }
                    #expect(lineFeeds + scan.lineFeedsBeforeBoundary == expected)
                }
                lineFeeds += scan.lineFeeds
                start = end
            }
        }
        return (found, lineFeeds)
    }

    /// All boundaries, one byte at a time: the splitter keeps its state across calls.
    func allBoundaries<Splitter: RecordSplitter>(_ splitter: Splitter, _ text: String) -> [Int] {
        boundaries(splitter, Array(text.utf8), piece: 1).boundaries
    }

    /// Offsets just after each line feed of `text` that ends a record.
    func offsets(after text: String, lines: [Int]) -> [Int] {
        let bytes = Array(text.utf8)
        let feeds = bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        return lines.map { feeds[$0] }
    }

    // MARK: CSV

    @Test("CSV: a record ends at a line feed outside quotes")
    func csvBoundaries() {
        let text = "id,note\n1,\"multi\nline\"\n2,\"a,\"\"b\"\"\nc\"\n3,x\n"
        // Line feeds 0, 2, 4 and 5 end records; 1 and 3 are inside quotes.
        #expect(
            allBoundaries(CSVSplitter(delimiter: UInt8(ascii: ",")), text)
                == offsets(after: text, lines: [0, 2, 4, 5]))
        #expect(boundaries(CSVSplitter(delimiter: UInt8(ascii: ",")), Array(text.utf8)).lineFeeds == 6)
    }

    @Test("CSV: one scan reports the last boundary in what it saw")
    func csvLastBoundary() {
        let text = "a\nb\n\"c\nd"
        let scan = boundaries(CSVSplitter(delimiter: UInt8(ascii: ",")), Array(text.utf8))
        #expect(scan.boundaries == [4])
        #expect(scan.lineFeeds == 3)
    }

    @Test("CSV: doubled quotes keep the field open; a quoted empty field closes")
    func csvDoubledQuotes() {
        let text = "\"\"\"\"\n\"\"\n\"a\"\"\nb\"\n"
        #expect(
            allBoundaries(CSVSplitter(delimiter: UInt8(ascii: ",")), text)
                == offsets(after: text, lines: [0, 1, 3]))
    }

    /// Regression: chunks were cut only at line feeds, so an old Mac export (records ending in a
    /// bare CR) was one chunk, on one core.
    @Test(
        "CSV: a bare CR ends a record; a CR before a line feed does not end it twice",
        arguments: [0, 1, 2, 3, 5])
    func csvBareCR(piece: Int) {
        let text = "id,note\r1,\"a\rb\"\r2,x\r\n3,y\r4,z"
        let bytes = Array(text.utf8)
        // After "id,note\r", after "1,\"a\rb\"\r" (the CR inside quotes is data), after the CRLF,
        // after "3,y\r".
        let expected = [8, 16, 21, 25]
        let found = boundaries(CSVSplitter(delimiter: UInt8(ascii: ",")), bytes, piece: piece)
        if piece == 0 {
            #expect(found.boundaries == [25], "one scan reports its last boundary")
        } else {
            #expect(found.boundaries == expected, "pieces of \(piece)")
        }
        var first = CSVSplitter(delimiter: UInt8(ascii: ","))
        let firstBoundary = bytes.withUnsafeBufferPointer { first.scanToFirstBoundary($0) }
        #expect(firstBoundary.boundary == 8)
    }

    @Test("CSV: a CR at the end of a piece waits for the next byte")
    func csvCRAtPieceEnd() {
        var splitter = CSVSplitter(delimiter: UInt8(ascii: ","))
        let first = withBytes("a,b\r") { splitter.scan($0) }
        #expect(first.boundary == nil, "a line feed may follow")
        let second = withBytes("1,2\r") { splitter.scan($0) }
        #expect(second.boundary == 0, "it did not: the record ended with the CR before this piece")
        var crlf = CSVSplitter(delimiter: UInt8(ascii: ","))
        _ = withBytes("a,b\r") { crlf.scan($0) }
        let feed = withBytes("\n1,2") { crlf.scan($0) }
        #expect(feed.boundary == 1, "after the line feed of the CRLF")
    }

    @Test("CSV: CRLF line endings, and a quote opens a field only at its start")
    func csvCRLFAndStrayQuotes() {
        let text = "a,b\r\n1,\"x\r\ny\"\r\n2,5\"5\r\n3,\"q\"\r\n"
        #expect(
            allBoundaries(CSVSplitter(delimiter: UInt8(ascii: ",")), text)
                == offsets(after: text, lines: [0, 2, 3, 4]))
    }

    @Test("CSV: the delimiter decides where a field starts")
    func csvDelimiter() {
        let text = "a;\"b\nc\";d\n1,\"2\n"
        // With `;` the quote after `,` is inside an unquoted field: the last line feed ends a record.
        #expect(
            allBoundaries(CSVSplitter(delimiter: UInt8(ascii: ";")), text)
                == offsets(after: text, lines: [1, 2]))
        let tabs = "a\t\"b\nc\"\td\n"
        #expect(allBoundaries(CSVSplitter(delimiter: 0x09), tabs) == offsets(after: tabs, lines: [1]))
    }

    @Test("CSV: boundaries are the same however the input is cut")
    func csvPieces() {
        var text = "id,phone,note\n"
        var whole = [text.utf8.count]
        for row in 0..<40 {
            text += "\(row),\"555 \(row)\",\"say \"\"\(row)\"\"\nand,more\"\n"
            whole.append(text.utf8.count)
        }
        let bytes = Array(text.utf8)
        for piece in [1, 2, 3, 7, 16, 64, 1000] {
            var splitter = CSVSplitter(delimiter: UInt8(ascii: ","))
            var found: [Int] = []
            var start = 0
            bytes.withUnsafeBufferPointer { all in
                while start < bytes.count {
                    let end = min(start + piece, bytes.count)
                    if let boundary = splitter.scan(UnsafeBufferPointer(rebasing: all[start..<end])).boundary
                    {
                        found.append(start + boundary)
                    }
                    start = end
                }
            }
            // Coarse pieces see only the last boundary in each piece; each found one is real,
            // and the last one is the end.
            #expect(Set(found).isSubset(of: Set(whole)), "piece \(piece)")
            #expect(found.last == bytes.count, "piece \(piece)")
            if piece == 1 { #expect(found == whole) }
        }
    }

    /// Where records end, read one byte at a time by the rules the splitter follows: a line feed
    /// or a bare CR outside quotes; a quote opens a field only at its start; a doubled quote in a
    /// quoted field is data. A CR on the last byte waits for the next, so it ends nothing here.
    static func byteLoopBoundaries(_ bytes: [UInt8], delimiter: UInt8) -> [Int] {
        var boundaries: [Int] = []
        var quoted = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            if quoted {
                if byte == 0x22 {
                    if next == 0x22 { index += 1 } else { quoted = false }
                }
            } else if byte == 0x0A || (byte == 0x0D && next != nil && next != 0x0A) {
                boundaries.append(index + 1)
            } else if byte == 0x22 {
                let before = index == 0 ? 0x0A : bytes[index - 1]
                quoted = before == delimiter || before == 0x0A || before == 0x0D
            }
            index += 1
        }
        return boundaries
    }

    @Test(
        "CSV: the boundaries a byte loop finds, wherever quotes, CRs and line feeds fall",
        arguments: [UInt8(ascii: ","), UInt8(ascii: "\t")])
    func csvAgainstByteLoop(delimiter: UInt8) {
        let alphabet: [UInt8] = [0x61, 0x61, 0x61, 0x2C, 0x09, 0x22, 0x22, 0x0A, 0x0D, 0xC3, 0x3B]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for round in 0..<4000 {
            var bytes: [UInt8] = []
            for _ in 0..<(round % 97) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(seed >> 33) % alphabet.count])
            }
            let expected = Self.byteLoopBoundaries(bytes, delimiter: delimiter)
            // Stopping at each boundary, then going on from it.
            var splitter = CSVSplitter(delimiter: delimiter)
            var found: [Int] = []
            var position = 0
            bytes.withUnsafeBufferPointer { all in
                while position < all.count {
                    let scan = splitter.scanToFirstBoundary(UnsafeBufferPointer(rebasing: all[position...]))
                    guard let boundary = scan.boundary else { break }
                    position += boundary
                    found.append(position)
                }
            }
            #expect(found == expected, "\(bytes)")
            // In one scan: the last boundary, and every one and every line feed counted.
            var whole = CSVSplitter(delimiter: delimiter)
            let scan = bytes.withUnsafeBufferPointer { whole.scan($0) }
            #expect(scan.boundary == expected.last, "\(bytes)")
            #expect(scan.boundaries == expected.count, "\(bytes)")
            #expect(scan.lineFeeds == bytes.count { $0 == 0x0A }, "\(bytes)")
        }
    }

    // MARK: NDJSON

    @Test("NDJSON: every line feed ends a record")
    func lines() {
        let text = "{\"a\":1}\n\n{\"b\":\"x\\ny\"}\r\n{\"c\":3}"
        #expect(allBoundaries(LineSplitter(), text) == offsets(after: text, lines: [0, 1, 2]))
        let scan = boundaries(LineSplitter(), Array(text.utf8))
        #expect(scan.boundaries == [offsets(after: text, lines: [2])[0]])
        #expect(scan.lineFeeds == 3)
    }

    // MARK: JSON arrays

    @Test("JSON array: a record ends at a comma between elements")
    func arrayBoundaries() {
        // The reader strips the opening `[`.
        let text = "\n{\"a\":\"x,y\",\"b\":[1,2]},\n{\"c\":{\"d\":\",\"}},\n{\"e\":\"q\\\",\"}\n]\n"
        let bytes = Array(text.utf8)
        let commas = bytes.indices.filter { index in
            bytes[index] == UInt8(ascii: ",") && index + 1 < bytes.count && bytes[index + 1] == 0x0A
        }.map { $0 + 1 }
        #expect(commas.count == 2)
        #expect(allBoundaries(JSONArraySplitter(), text) == commas)
        #expect(boundaries(JSONArraySplitter(), bytes).lineFeeds == 5)
    }

    @Test("JSON array: an escape split across two scans is still an escape")
    func arrayEscapeAcrossScans() {
        let text = #"{"a":"\\"},{"b":"\","},{"c":1}"#
        let bytes = Array(text.utf8)
        // `"\\"` ends its string; `"\","` does not end at the escaped quote.
        let expected = [11, 23]
        #expect(allBoundaries(JSONArraySplitter(), text) == expected)
        for cut in 1..<bytes.count {
            var splitter = JSONArraySplitter()
            var found: [Int] = []
            bytes.withUnsafeBufferPointer { all in
                if let b = splitter.scan(UnsafeBufferPointer(rebasing: all[..<cut])).boundary {
                    found.append(b)
                }
                if let b = splitter.scan(UnsafeBufferPointer(rebasing: all[cut...])).boundary {
                    found.append(cut + b)
                }
            }
            #expect(found.last == 23, "cut at \(cut)")
            #expect(Set(found).isSubset(of: Set(expected)), "cut at \(cut)")
        }
    }
}
