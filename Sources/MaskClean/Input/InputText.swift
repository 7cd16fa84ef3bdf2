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
    /// UTF-8 would fail as a syntax error or a NUL byte: say what it is instead.
    static func refuseUTF16(_ bytes: [UInt8], file: String) throws(MaskCleanError) {
        let marked = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let unmarked =
            bytes.count >= 4
            && (bytes[0] != 0 && bytes[1] == 0 && bytes[2] != 0 && bytes[3] == 0
                || bytes[0] == 0 && bytes[1] != 0 && bytes[2] == 0 && bytes[3] != 0)
        guard marked || unmarked else { return }
        throw .data(
            file, line: nil, "UTF-16 is not supported; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)")
    }
}
