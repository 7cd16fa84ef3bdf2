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

    init(_ encoding: TextEncoding) throws(MaskCleanError) {
        self.encoding = encoding
        guard let converter = iconv_open("UTF-8", encoding.iconvName), converter != iconv_t(bitPattern: -1)
        else {
            throw .usage("\(Setting.encoding) \(encoding.name): this system's iconv does not convert from it")
        }
        self.converter = converter
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
