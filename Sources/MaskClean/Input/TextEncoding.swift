#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The encoding an input's text is in (`--encoding`; docs/record-formats.md#encoding): UTF-8, or
/// one that is converted to UTF-8 as it is read, through the C library's iconv (glibc's converters,
/// built from the Unicode Consortium's mapping tables). Records are then read, masked and written
/// as UTF-8; outputs are UTF-8.
public struct TextEncoding: Sendable, Equatable, CustomStringConvertible {
    /// The name as messages and the report write it: `windows-1252`, `utf-16le`.
    public let name: String
    /// The name iconv knows it by.
    let iconvName: String

    /// The encodings known by name, each with the names it is also called.
    static let known: [(name: String, iconv: String, aliases: [String])] = [
        ("utf-8", "UTF-8", ["utf8"]),
        ("utf-16", "UTF-16", ["utf16"]),
        ("utf-16le", "UTF-16LE", ["utf16le"]),
        ("utf-16be", "UTF-16BE", ["utf16be"]),
        ("iso-8859-1", "ISO-8859-1", ["iso8859-1", "latin1", "latin-1", "l1"]),
        ("iso-8859-15", "ISO-8859-15", ["iso8859-15", "latin9", "latin-9"]),
        ("windows-1252", "CP1252", ["cp1252", "win1252"]),
    ]

    public static let utf8 = TextEncoding(name: "utf-8", iconvName: "UTF-8")

    private init(name: String, iconvName: String) {
        self.name = name
        self.iconvName = iconvName
    }

    /// The encoding named `text`, in any case: one of `known`, or any other name this system's
    /// iconv converts from (`shift_jis`, `cp1250`). A usage error otherwise.
    public init(named text: String) throws(MaskCleanError) {
        let lowered = String(text.lowercased())
        if let entry = Self.known.first(where: { $0.name == lowered || $0.aliases.contains(lowered) }) {
            self.init(name: entry.name, iconvName: entry.iconv)
        } else {
            self.init(name: lowered, iconvName: text)
        }
        guard isUTF8 || Self.converts(from: iconvName) else {
            let names = Self.known.map(\.name).joined(separator: ", ")
            throw .usage(
                "\(Setting.encoding) \(text): not an encoding this system's iconv converts from (\(names), or another iconv name such as cp1250)"
            )
        }
    }

    public var isUTF8: Bool { name == "utf-8" }
    public var description: String { name }

    private static func converts(from name: String) -> Bool {
        guard let converter = iconv_open("UTF-8", name), converter != iconv_t(bitPattern: -1) else {
            return false
        }
        iconv_close(converter)
        return true
    }
}

/// Converts an input's bytes to UTF-8 as they are read, in bounded memory: a block of the
/// input's bytes at a time into a block of UTF-8 (`InputFile.read(into:)`). A byte sequence the
/// encoding does not define, or a character cut off at the end, stops the reading with the line
/// it is on.
final class TextDecoder {
    let encoding: TextEncoding
    private let converter: iconv_t
    /// Bytes read from the input, not yet converted: `raw[rawStart..<rawEnd]`.
    private let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var rawStart = 0
    private var rawEnd = 0
    private var rawEnded = false
    /// UTF-8 converted, not yet handed on: `decoded[decodedStart..<decodedEnd]`.
    private let decoded = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    private var decodedStart = 0
    private var decodedEnd = 0
    /// Line feeds converted so far: the line a bad byte is on is one more.
    private var lineFeeds = 0
    private var flushed = false

    /// For an encoding of one byte a character (ISO-8859-*, Windows-125*): each byte's UTF-8,
    /// asked of iconv once, so that a block is converted by table (`SingleByteTable`).
    private let table: SingleByteTable?

    init(_ encoding: TextEncoding) throws(MaskCleanError) {
        self.encoding = encoding
        guard let converter = iconv_open("UTF-8", encoding.iconvName), converter != iconv_t(bitPattern: -1)
        else {
            throw .usage("\(Setting.encoding) \(encoding.name): this system's iconv does not convert from it")
        }
        self.converter = converter
        table = SingleByteTable(converter)
    }

    deinit {
        iconv_close(converter)
        raw.deallocate()
        decoded.deallocate()
    }

    /// Fills `buffer` with converted text, reading the input's bytes with `source`; 0 at the end.
    func read(
        into buffer: UnsafeMutableRawBufferPointer, file: String,
        from source: (UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int
    ) throws(MaskCleanError) -> Int {
        while decodedStart == decodedEnd {
            guard try convert(file: file, from: source) else { return 0 }
        }
        let count = min(buffer.count, decodedEnd - decodedStart)
        buffer.baseAddress!.copyMemory(from: decoded.baseAddress! + decodedStart, byteCount: count)
        decodedStart += count
        return count
    }

    /// Converts what it can into the empty `decoded`; false at the end of the input.
    private func convert(
        file: String, from source: (UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Int
    ) throws(MaskCleanError) -> Bool {
        decodedStart = 0
        decodedEnd = 0
        if rawStart == rawEnd || !rawEnded && rawEnd - rawStart < 16 {
            // Keep a character cut off by the last read, and read more after it.
            if rawStart > 0 {
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + rawStart, byteCount: rawEnd - rawStart)
                rawEnd -= rawStart
                rawStart = 0
            }
            if !rawEnded {
                let count = try source(UnsafeMutableRawBufferPointer(rebasing: raw[rawEnd...]))
                if count == 0 { rawEnded = true }
                rawEnd += count
            }
        }
        if rawStart == rawEnd && rawEnded {
            guard !flushed else { return false }
            flushed = true
            var output: UnsafeMutablePointer<CChar>? = decoded.baseAddress!.assumingMemoryBound(
                to: CChar.self)
            var outputLeft = decoded.count
            _ = iconv(converter, nil, nil, &output, &outputLeft)
            decodedEnd = decoded.count - outputLeft
            return decodedEnd > 0
        }
        if let table {
            let converted = table.convert(
                UnsafeRawBufferPointer(rebasing: raw[rawStart..<rawEnd]), into: decoded, lineFeeds: &lineFeeds
            )
            rawStart += converted.read
            decodedEnd = converted.written
            if decodedEnd > 0 { return true }
            let byte = raw[rawStart]
            let shown = (byte < 0x10 ? "0x0" : "0x") + String(byte, radix: 16, uppercase: true)
            throw .data(
                file, line: lineFeeds + 1,
                "not \(encoding.name) text: the byte \(shown) is no character of it; is it in another encoding?"
            )
        }
        var input: UnsafeMutablePointer<CChar>? = (raw.baseAddress! + rawStart).assumingMemoryBound(
            to: CChar.self)
        var inputLeft = rawEnd - rawStart
        var output: UnsafeMutablePointer<CChar>? = decoded.baseAddress!.assumingMemoryBound(to: CChar.self)
        var outputLeft = decoded.count
        let result = iconv(converter, &input, &inputLeft, &output, &outputLeft)
        let failure = result == -1 ? errno : 0
        rawStart = rawEnd - inputLeft
        decodedEnd = decoded.count - outputLeft
        lineFeeds += UnsafeRawBufferPointer(rebasing: decoded[..<decodedEnd]).count { $0 == 0x0A }
        if decodedEnd > 0 || failure == 0 || failure == E2BIG { return true }
        // Nothing converted: the next bytes are not a character of the encoding.
        let line = lineFeeds + 1
        if failure == EINVAL {
            if !rawEnded { return true }  // cut off by the read: more is read next time
            throw .data(
                file, line: line,
                "ends inside a character: not whole \(encoding.name) text (\(rawEnd - rawStart) byte\(rawEnd - rawStart == 1 ? "" : "s") left over)"
            )
        }
        let shown = UnsafeRawBufferPointer(rebasing: raw[rawStart..<min(rawEnd, rawStart + 4)])
            .map { ($0 < 0x10 ? "0x0" : "0x") + String($0, radix: 16, uppercase: true) }
        throw .data(
            file, line: line,
            "not \(encoding.name) text: the bytes \(shown.joined(separator: " ")) are no character of it; is it in another encoding?"
        )
    }
}

/// A single-byte encoding's bytes as UTF-8, each asked of iconv once: converting a block is then
/// a table lookup per byte, and a copy per run of ASCII (most of an export), where iconv's
/// general converters cost more than the rest of a run (docs/record-formats.md#encoding). The
/// rule it shortcuts is iconv's own: `TextEncodingTests` holds the table's reading up against
/// Python's codecs, and against iconv's own conversion of every byte.
struct SingleByteTable {
    /// Each byte's UTF-8, up to three bytes, in the low bytes; its length in the top byte (0 for
    /// a byte the encoding does not define).
    let entries: [UInt32]

    /// The table of the encoding `converter` reads, if it is one byte a character: every byte
    /// converts alone, to one character or to none (undefined), and ASCII to itself.
    init?(_ converter: iconv_t) {
        var entries = [UInt32](repeating: 0, count: 256)
        for byte in 0..<256 {
            var input: [CChar] = [CChar(bitPattern: UInt8(byte))]
            var output = [CChar](repeating: 0, count: 8)
            var failure: Int32 = 0
            var left = 0
            var written = 0
            input.withUnsafeMutableBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    var inputPointer: UnsafeMutablePointer<CChar>? = inputBuffer.baseAddress
                    var inputLeft = 1
                    var outputPointer: UnsafeMutablePointer<CChar>? = outputBuffer.baseAddress
                    var outputLeft = 8
                    if iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) == -1 {
                        failure = errno
                    }
                    left = inputLeft
                    written = 8 - outputLeft
                }
            }
            _ = iconv(converter, nil, nil, nil, nil)  // back to the initial state
            if failure != 0 || left != 0 {
                // Undefined is fine; a byte that starts a longer character is not single-byte.
                guard failure == EILSEQ else { return nil }
                continue
            }
            guard (1...3).contains(written) else { return nil }
            if byte < 0x80 && (written != 1 || UInt8(bitPattern: output[0]) != UInt8(byte)) { return nil }
            var entry = UInt32(written) << 24
            for index in 0..<written {
                entry |= UInt32(UInt8(bitPattern: output[index])) << (8 * UInt32(index))
            }
            entries[byte] = entry
        }
        self.entries = entries
    }

    /// Converts as much of `input` as `output` has room for (three bytes a byte at most), up to
    /// the first byte the encoding does not define. Returns the bytes read and written, and
    /// counts the line feeds written.
    func convert(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, lineFeeds: inout Int
    ) -> (read: Int, written: Int) {
        guard let source = input.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let target = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return (0, 0) }
        let count = min(input.count, output.count / 3)
        var read = 0
        var written = 0
        entries.withUnsafeBufferPointer { entries in
            while read < count {
                // Eight ASCII bytes at a time, copied as they are.
                if read + 8 <= count {
                    let word = UnsafeRawPointer(source + read).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        UnsafeMutableRawPointer(target + written).storeBytes(of: word, as: UInt64.self)
                        read += 8
                        written += 8
                        continue
                    }
                }
                let byte = source[read]
                if byte < 0x80 {
                    target[written] = byte
                    written += 1
                } else {
                    let entry = entries[Int(byte)]
                    let length = Int(entry >> 24)
                    if length == 0 { break }  // undefined: the caller says where
                    for index in 0..<length {
                        target[written + index] = UInt8(truncatingIfNeeded: entry >> (8 * UInt32(index)))
                    }
                    written += length
                }
                read += 1
            }
        }
        lineFeeds += UnsafeBufferPointer(start: target, count: written).count { $0 == 0x0A }
        return (read, written)
    }
}
