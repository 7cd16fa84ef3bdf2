/// What a phone cell's text holds: its digits, whether a `+` leads them, its extension's digits,
/// and how many characters were neither (dropped: a letter typed for a digit, a stray `*`).
///
/// Separators are white space, `-`, `.`, `/`, `~`, brackets and parentheses, and their Unicode
/// forms (libphonenumber's punctuation: dashes, the minus sign, full-width forms, no-break and
/// ideographic spaces). Digits of any script count as their ASCII digits. An extension is the
/// digits at the end after `x`, `ext`, `extn`, `extension`, `#` or `;ext=` (any case, with spaces,
/// `.`, `:` or `=` around the marker).
enum PhoneText {
    /// Fills `digits` and `extensionDigits` (emptied first) from `value`.
    static func scan(
        _ value: UnsafeBufferPointer<UInt8>, digits: inout DigitBuffer, extensionDigits: inout DigitBuffer
    ) -> (plus: Bool, dropped: Int) {
        digits.count = 0
        extensionDigits.count = 0
        var end = value.count
        if let marker = extensionStart(value) {
            end = marker.start
            for byte in value[marker.digits] { extensionDigits.append(byte) }
        }
        var plus = false
        var dropped = 0
        var index = 0
        while index < end {
            let byte = value[index]
            if byte < 0x80 {
                index += 1
                if (0x30...0x39).contains(byte) {
                    digits.append(byte)
                } else if byte == UInt8(ascii: "+") && digits.count == 0 && !plus {
                    plus = true
                } else if !asciiSeparators.contains(byte) {
                    dropped += 1
                }
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let scalarEnd = min(index + length, end)
            let scalar = String(
                decoding: UnsafeBufferPointer(rebasing: value[index..<scalarEnd]), as: UTF8.self
            )
            .unicodeScalars.first
            index = scalarEnd
            guard let scalar else {
                dropped += 1
                continue
            }
            if scalar.properties.numericType == .decimal, let number = scalar.properties.numericValue {
                digits.append(UInt8(0x30 + Int(number)))
            } else if scalar == "\u{FF0B}" && digits.count == 0 && !plus {
                plus = true
            } else if !separatorScalars.contains(scalar.value) {
                dropped += 1
            }
        }
        return (plus, dropped)
    }

    private static let asciiSeparators = ASCIIBytes(" \t-./~()[]".utf8)
    /// libphonenumber's punctuation outside ASCII: no-break and other spaces, dashes, the minus
    /// sign, full-width brackets, hyphen, slash and tilde, the soft hyphen and the zero-width ones.
    private static let separatorScalars: Set<UInt32> = [
        0x00A0, 0x00AD, 0x2009, 0x200B, 0x202F, 0x2060, 0x3000, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014,
        0x2015, 0x2212, 0x30FC, 0xFF0D, 0xFF0F, 0xFF08, 0xFF09, 0xFF3B, 0xFF3D, 0xFF5E, 0x2053, 0x223C,
    ]

    private static let markers = ["extension", "extn", "ext", "x", "#"].map { Array($0.utf8) }

    /// Where the extension's marker starts and where its digits are, when the value ends with one.
    static func extensionStart(_ value: UnsafeBufferPointer<UInt8>) -> (start: Int, digits: Range<Int>)? {
        var end = value.count
        while end > 0, value[end - 1] == 0x20 || value[end - 1] == 0x09 { end -= 1 }
        if end > 0, value[end - 1] == UInt8(ascii: "#") { end -= 1 }
        var start = end
        while start > 0, (0x30...0x39).contains(value[start - 1]) { start -= 1 }
        guard start < end, end - start <= 10 else { return nil }
        var cursor = start
        while cursor > 0, " \t.:=".utf8.contains(value[cursor - 1]) { cursor -= 1 }
        // Most values end with the number itself: no marker before its last digits.
        guard cursor > 0,
            value[cursor - 1] == UInt8(ascii: "#") || (0x61...0x7A).contains(value[cursor - 1] | 0x20)
        else { return nil }
        for marker in markers where cursor >= marker.count {
            let from = cursor - marker.count
            let matches = zip(value[from..<cursor], marker).allSatisfy { byte, letter in
                byte == letter || (letter >= 0x61 && byte == letter - 0x20)
            }
            guard matches else { continue }
            // A marker is a word of its own (not the end of `fax`), after the number's digits.
            if from > 0, (0x61...0x7A).contains(value[from - 1] | 0x20) {
                continue
            }
            var markerStart = from
            if markerStart > 0, value[markerStart - 1] == UInt8(ascii: ";") { markerStart -= 1 }
            guard value[..<markerStart].contains(where: { (0x30...0x39).contains($0) }) else { return nil }
            return (markerStart, start..<end)
        }
        return nil
    }
}
