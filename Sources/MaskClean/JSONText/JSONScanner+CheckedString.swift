// MARK: Strings checked in one pass

extension JSONScanner {
    /// Scans the string whose opening quote is at `start` and checks its text as
    /// `JSONTextCheck` does, in the same pass: valid UTF-8, and every `\u` surrogate escape in a
    /// pair. Returns the index just past its closing quote; sets `escapes` when it holds an
    /// escape and `nonASCII` when it holds a byte ≥ 0x80.
    ///
    /// Nil for any string the general scan and the text check would have something to say about
    /// — no closing quote, a control character, a bad escape, invalid UTF-8, a lone surrogate —
    /// so that the caller lets them say it.
    ///
    /// Most strings are plain printable ASCII: their scan is inline, one word at a time, and
    /// only a string with something else in it costs a call.
    @inline(__always)
    static func checkedStringEnd(
        _ base: UnsafePointer<UInt8>, at start: Int, count: Int, escapes: inout Bool, nonASCII: inout Bool
    ) -> Int? {
        let index = firstByteNeedingCare(base, from: start + 1, count: count)
        if index < count, base[index] == UInt8(ascii: "\"") { return index + 1 }
        return checkedStringEnd(base, from: index, count: count, escapes: &escapes, nonASCII: &nonASCII)
    }

    /// `checkedStringEnd` from the string's first byte that is not plain printable ASCII.
    @inline(never)
    static func checkedStringEnd(
        _ base: UnsafePointer<UInt8>, from first: Int, count: Int, escapes: inout Bool, nonASCII: inout Bool
    ) -> Int? {
        var index = first
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") { return index + 1 }
            if byte >= 0x80 {
                guard let length = JSONTextCheck.sequenceLength(base, index, count) else { return nil }
                nonASCII = true
                index += length
            } else {
                guard byte == UInt8(ascii: "\\"), let end = escapeEnd(base, at: index, count: count) else {
                    return nil  // a control character, or an escape that is not JSON's
                }
                escapes = true
                index = end
            }
            index = firstByteNeedingCare(base, from: index, count: count)
        }
        return nil
    }

    /// Moves `index` past blanks (space, tab, CR, and LF unless `lineFeedEnds`: in NDJSON a
    /// line feed ends the record).
    @inline(__always)
    static func skipBlanks(
        _ base: UnsafePointer<UInt8>, _ index: inout Int, count: Int, lineFeedEnds: Bool = false
    ) {
        // Most records have no blanks: one test says so.
        while index < count, base[index] <= 0x20 {
            switch base[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A where !lineFeedEnds: index += 1
            default: return
            }
        }
    }

    /// Where the escape whose backslash is at `index` ends; nil for anything but a JSON escape,
    /// and for a surrogate escape not in a pair (a high one followed at once by a low one).
    @inline(__always)
    static func escapeEnd(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Int? {
        guard index + 1 < count else { return nil }
        switch base[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index + 2
        case UInt8(ascii: "u"):
            guard let code = hexEscape(base, at: index, count: count) else { return nil }
            switch code {
            case 0xD800...0xDBFF:
                guard index + 7 < count, base[index + 6] == UInt8(ascii: "\\"),
                    base[index + 7] == UInt8(ascii: "u"),
                    let low = hexEscape(base, at: index + 6, count: count), (0xDC00...0xDFFF).contains(low)
                else { return nil }
                return index + 12
            case 0xDC00...0xDFFF:
                return nil
            default:
                return index + 6
            }
        default:
            return nil
        }
    }

    /// The code of the `\uXXXX` escape whose backslash is at `index`, if its four digits are hex.
    @inline(__always)
    static func hexEscape(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> UInt32? {
        guard index + 5 < count else { return nil }
        var code: UInt32 = 0
        for offset in 2...5 {
            let byte = base[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    /// The first byte at or after `start` that a string's scan must look at: a quote, a
    /// backslash, a control character or a byte ≥ 0x80; or `count`.
    @inline(__always)
    static func firstByteNeedingCare(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        ByteSearch.firstJSONSpecial(base, from: start, count: count, orNonASCII: true)
    }
}
