/// What every input format checks of its text before reading it: a UTF-8 byte-order mark, which
/// is skipped (and kept on CSV output), and UTF-16, which is refused with a message that says
/// so rather than as a syntax error.
enum InputText {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The length of a UTF-8 byte-order mark at the start of `bytes`: 3, or 0 for none.
    static func byteOrderMarkLength(_ bytes: [UInt8]) -> Int {
        bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
    }

    /// A UTF-16 file (a byte-order mark, or ASCII text with every other byte zero) read as
    /// UTF-8 would fail as a syntax error or a NUL byte: say what it is, and how to read it.
    static func refuseUTF16(_ bytes: [UInt8], file: String) throws(MaskCleanError) {
        let which: String
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            which = "utf-16"  // the byte-order mark says which end comes first
        } else if bytes.count >= 4, bytes[0] != 0, bytes[1] == 0, bytes[2] != 0, bytes[3] == 0 {
            which = "utf-16le"
        } else if bytes.count >= 4, bytes[0] == 0, bytes[1] != 0, bytes[2] == 0, bytes[3] != 0 {
            which = "utf-16be"
        } else {
            return
        }
        throw .data(
            file, line: 1, "not UTF-8: looks like \(which.uppercased()): try \(Setting.encoding) \(which)")
    }

    /// What text that is not UTF-8 (`bytes`, a record or a header) is likely in, as a hint a
    /// message ends with: `looks like Windows-1252: try --encoding windows-1252`; nil when it is
    /// UTF-8 or like no encoding known. Bytes 0x80 to 0x9F are C1 controls in ISO-8859-1, which
    /// text does not hold, and punctuation (curly quotes, €, –) in Windows-1252; 0xA0 to 0xFF are
    /// the same letters in both (Windows-1252 defines every ISO-8859-1 letter).
    static func encodingHint(_ bytes: some Collection<UInt8>) -> UsageMessage? {
        guard String(validating: Array(bytes), as: UTF8.self) == nil else { return nil }
        // Five bytes Windows-1252 leaves undefined.
        let undefinedIn1252: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        if bytes.contains(where: undefinedIn1252.contains) {
            return "not UTF-8 nor Windows-1252 text; give its encoding with \(Setting.encoding)"
        }
        if bytes.contains(where: { (0x80...0x9F).contains($0) }) {
            return "looks like Windows-1252: try \(Setting.encoding) windows-1252"
        }
        return "looks like Windows-1252 or ISO-8859-1: try \(Setting.encoding) windows-1252"
    }
}
