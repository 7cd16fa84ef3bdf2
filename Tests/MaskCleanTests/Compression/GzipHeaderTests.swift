import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// RFC 1952, 2.3: a member's header holds, as its flags say, an extra field, a name, a comment
/// and a header CRC. maskclean reads it for ISA-L (`GzipHeader`): ISA-L's own reading forgot the
/// header CRC and the flags when a header came in two reads, and refused a right CRC and passed
/// a wrong one (a 300 KB name across the 256 KiB reads, a second member there, a slow pipe).
/// zlib, which keeps them, is the reference: both inflaters must give its text or its verdict
/// however the header is cut.
@Suite("Compression: gzip member headers, whole or in pieces")
struct GzipHeaderTests {
    static let text = Array(
        ("id,phone,note\n" + (0..<300).map { "\($0),555-01\($0 % 100),\"a note, \($0)\"\n" }.joined()).utf8)

    /// CRC-32 (ISO 3309, as RFC 1952 uses it), bit by bit: not zlib's, which the code uses.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A member of `text` whose header has the fields given, and a header CRC when `headerCRC`
    /// says: the right one, or (false) one off by a bit.
    static func member(
        extra: [UInt8]? = nil, name: String? = nil, comment: String? = nil, headerCRC: Bool? = nil,
        textFlag: Bool = false
    ) -> [UInt8] {
        let plain = text.withUnsafeBytes { Compressor(.gzip).compressed($0) }
        precondition(plain[3] == 0, "the compressor's own header has no fields")
        var flags: UInt8 = textFlag ? 0x01 : 0
        if headerCRC != nil { flags |= 0x02 }
        if extra != nil { flags |= 0x04 }
        if name != nil { flags |= 0x08 }
        if comment != nil { flags |= 0x10 }
        var header: [UInt8] = [0x1F, 0x8B, 8, flags, 0x5E, 0x1A, 0x47, 0x69, 0, 3]
        if let extra { header += [UInt8(extra.count & 0xFF), UInt8(extra.count >> 8)] + extra }
        if let name { header += Array(name.utf8) + [0] }
        if let comment { header += Array(comment.utf8) + [0] }
        if let headerCRC {
            let crc = crc32(header) ^ (headerCRC ? 0 : 0x0100)
            header += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF)]
        }
        return header + plain.dropFirst(10)
    }

    /// What inflating `pieces`, given one after the other, gives: the text, or why not.
    static func inflate(_ pieces: [[UInt8]], with inflater: GzipInflater) -> String {
        do {
            let decompressor = try Decompressor(.gzip, inflater: inflater)
            let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
            defer { output.deallocate() }
            var pending: [UInt8] = []
            var text: [UInt8] = []
            for piece in pieces {
                pending += piece
                while !pending.isEmpty {
                    var used = 0
                    let written = try pending.withUnsafeBytes { bytes in
                        var input = bytes
                        defer { used = bytes.count - input.count }
                        return try decompressor.decompress(&input, into: output)
                    }
                    text += output.prefix(written)
                    pending.removeFirst(used)
                    if written == 0 && used == 0 { break }
                }
            }
            guard pending.isEmpty else { return "trailing data" }
            guard decompressor.isAtEnd else { return "ends early" }
            return String(decoding: text, as: UTF8.self)
        } catch {
            return "\(error)"
        }
    }

    static let headers: [(String, [UInt8])] = [
        ("no fields", member()),
        ("a name", member(name: "export-2026-11-27.csv")),
        ("an empty extra field", member(extra: [])),
        ("a header CRC", member(headerCRC: true)),
        ("a wrong header CRC", member(headerCRC: false)),
        (
            "every field and a header CRC",
            member(extra: Array("AB\u{4}\0data".utf8), name: "x.csv", comment: "nightly", headerCRC: true)
        ),
        (
            "every field and a wrong header CRC",
            member(extra: Array("AB\u{4}\0data".utf8), name: "x.csv", comment: "nightly", headerCRC: false)
        ),
        ("the text flag, a comment and a header CRC", member(comment: "c", headerCRC: true, textFlag: true)),
    ]

    @Test("a header cut anywhere in two, or read a byte at a time, reads as zlib reads it whole")
    func headerInPieces() throws {
        guard Igzip.library != nil else { return }
        let expected = String(decoding: Self.text, as: UTF8.self)
        for (what, member) in Self.headers {
            // Alone, and as the second member, after one without fields.
            for bytes in [member, Self.member() + member] {
                let whole = Self.inflate([bytes], with: .zlib)
                #expect(
                    what.contains("wrong")
                        ? whole == "corrupt(\"header crc mismatch\")"
                        : whole == (bytes.count > member.count ? expected + expected : expected), "\(what)")
                // Cuts around the member's header: the first member is cut in its trailer.
                let start = bytes.count - member.count
                let headerEnd = start + 80
                for cut in max(0, start - 4)...headerEnd {
                    let pieces = [Array(bytes.prefix(cut)), Array(bytes.dropFirst(cut))]
                    for inflater in GzipInflater.allCases {
                        #expect(
                            Self.inflate(pieces, with: inflater) == whole,
                            "\(what), \(inflater), cut at \(cut)")
                    }
                }
                let bytesApart =
                    [Array(bytes.prefix(start))] + bytes[start..<headerEnd].map { [$0] }
                    + [Array(bytes.dropFirst(headerEnd))]
                #expect(Self.inflate(bytesApart, with: .igzip) == whole, "\(what), a byte at a time")
            }
        }
    }

    @Test("a header cut short, or with a wrong method or reserved flags, is refused as zlib refuses it")
    func damagedHeaders() throws {
        guard Igzip.library != nil else { return }
        let member = Self.member(extra: [1, 2, 3], name: "n", comment: "c", headerCRC: true)
        var method = member
        method[2] = 7
        var reserved = member
        reserved[3] |= 0x40
        for (what, bytes, verdict) in [
            ("a wrong method", method, "corrupt(\"unknown compression method\")"),
            ("a reserved flag", reserved, "corrupt(\"unknown header flags set\")"),
        ] {
            for inflater in GzipInflater.allCases {
                #expect(Self.inflate([bytes], with: inflater) == verdict, "\(what), \(inflater)")
            }
        }
        // zlib judges the method and the flags as soon as their bytes come, before the header's
        // rest: a header cut after them is refused for them.
        for cut in 4..<10 {
            for (bytes, verdict) in [
                (method, "corrupt(\"unknown compression method\")"),
                (reserved, "corrupt(\"unknown header flags set\")"),
            ] {
                for inflater in GzipInflater.allCases {
                    #expect(
                        Self.inflate([Self.member() + bytes.prefix(cut)], with: inflater) == verdict,
                        "cut at \(cut), \(inflater)")
                }
            }
        }
        for cut in 1..<24 {
            for inflater in GzipInflater.allCases {
                #expect(
                    Self.inflate([Array(member.prefix(cut))], with: inflater) == "ends early",
                    "cut at \(cut), \(inflater)")
            }
        }
    }

    /// The probe's file: a name of 300,000 bytes puts the header's end past the first read of
    /// the file (256 KiB).
    @Test(
        "a header CRC after a name longer than a read of the file is checked",
        arguments: DecompressionTests.inflaters)
    func longNameAcrossReads(inflater: GzipInflater) throws {
        let folder = try TemporaryFolder()
        let name = String(repeating: "n", count: 300_000)
        let right = try folder.write("right.csv.gz", Self.member(name: name, headerCRC: true))
        #expect(try DecompressionTests.readAll(right, size: 1 << 16, inflater: inflater) == Self.text)
        let wrong = try folder.write("wrong.csv.gz", Self.member(name: name, headerCRC: false))
        #expect(throws: MaskCleanError.data(wrong, line: nil, "gzip data is corrupt (header crc mismatch)")) {
            try DecompressionTests.readAll(wrong, size: 1 << 16, inflater: inflater)
        }
    }
}
