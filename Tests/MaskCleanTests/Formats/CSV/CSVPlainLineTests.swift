import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Records split without libcsv (a line, or lines a quoted field carries on over), one search per
/// delimiter and one per quote: a record must come out as libcsv reads it wherever its fields,
/// quotes and delimiters fall, whatever the delimiter.
@Suite("CSV records split without libcsv")
struct CSVPlainLineTests {
    /// Lines whose fields have every length from 0 to 17, so that fields, quotes and delimiters
    /// fall at every place in a word or vector: plain, quoted without need, quoted with the
    /// delimiter or a doubled quote, holding a stray quote, non-ASCII, invalid UTF-8, broken
    /// quoting, and quoted fields over more lines.
    static func straddlingLines(delimiter: String) -> [UInt8] {
        let d = delimiter
        var bytes = Array("id\(d)phone\(d)note\n".utf8)
        for row in 1...160 {
            let pad = String(repeating: "x", count: row % 18)
            let phone = ["5551234567", "(555) 123-4567", "\"555-1234\"", "555\(pad)1234", "\"55\"\"5\""][
                row % 5]
            switch row % 15 {
            case 0: bytes += "\(row)\(d)\(phone)\(d)\(pad)\n".utf8
            case 1: bytes += "\(row)\(pad)\(d)\(phone)\(d)\"\(pad)\(d)\(pad)\"\n".utf8
            case 2: bytes += "\(row)\(d)\(phone)\(d)\(pad)\"inch\r\n".utf8
            case 3: bytes += "\(row)\(d)\(phone)\(d)Gö\(pad)ßmann\n".utf8
            case 4: bytes += "\(row)\(d)\"\(pad)\"\(pad)\(d)x\n".utf8  // text after a closing quote
            case 5: bytes += "\(row)\(d)\(phone)\(d)\"\(pad)\n\(pad)\"\n".utf8  // quoted over two lines
            // A stray quote, then a quoted field.
            case 8: bytes += "\(row)\(d)12\"\(pad)\(d)\"q\(d)\(pad)\"\n".utf8
            // Empty last fields, quoted and not.
            case 9: bytes += "\(row)\(d)\(phone)\(d)\"\"\n\(row)\(d)\(pad)\(d)\n".utf8
            // Records over more lines, read whole: doubled quotes and CRLF in a quoted field; a
            // CR in one, then a bare CR ending the record; text after a closing quote; too few
            // fields; invalid UTF-8 in the masked field.
            case 10: bytes += "\(row)\(d)\(phone)\(d)\"one \(pad)\n\"\"two\"\"\r\nthree\"\n".utf8
            case 11: bytes += "\(row)\(d)\"\(pad)\r\(pad)\"\(d)\"x\ny\"\r".utf8
            case 12: bytes += "\(row)\(d)\(phone)\(d)\"a\n\(pad)\"junk\n".utf8
            case 13: bytes += "\(row)\(d)\"a\n\(pad)b\"\n".utf8
            case 14: bytes += [UInt8]("\(row)\(d)\"555\n".utf8) + [0xFF] + Array("\(pad)\"\(d)x\n".utf8)
            case 6: bytes += [UInt8]("\(row)\(d)\(pad)555".utf8) + [0xE9] + Array("1234\(d)x\n".utf8)
            default: bytes += "\"\(row)\"\(d)\(phone)\(d)\"\"\"\(pad)\"\"\"\n".utf8
            }
        }
        return bytes
    }

    @Test(
        "records split without libcsv come out as libcsv reads them",
        arguments: [",", "\t", ";"], [9, 1 << 20])
    func splitAsLibcsv(delimiter: String, chunkSize: Int) throws {
        let folder = try TemporaryFolder()
        try folder.write("data.csv", Self.straddlingLines(delimiter: delimiter))
        let separator = delimiter == "," ? nil : UInt8(ascii: delimiter.unicodeScalars.first!)
        try PipelineTests.expectSplitAsLibcsv(
            in: folder, delimiter: separator, chunkSize: chunkSize, jobs: 1, goodLines: 80, badLines: 20)
    }
}
