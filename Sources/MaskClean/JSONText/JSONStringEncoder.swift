import FoundationEssentials

/// Writes JSON string literals.
enum JSONStringEncoder {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `"…"`: runs of plain bytes are copied whole; quotes, backslashes and control
    /// characters are escaped.
    static func appendQuoted(
        _ value: UnsafeBufferPointer<UInt8>, prefix: UInt8? = nil, to out: inout ByteBuffer
    ) {
        out.append(0x22)
        if let prefix { out.append(prefix) }
        appendEscaping(value, to: &out)
        out.append(0x22)
    }

    /// Appends a string's text, without its quotes: runs of plain bytes are copied whole;
    /// quotes, backslashes and control characters are escaped.
    static func appendEscaping<Sink: ByteSink>(_ value: UnsafeBufferPointer<UInt8>, to out: inout Sink) {
        guard let base = value.baseAddress else { return }
        var start = 0
        while start < value.count {
            let special = ByteSearch.firstJSONSpecial(base, from: start, count: value.count)
            out.append(UnsafeBufferPointer(start: base + start, count: special - start))
            guard special < value.count else { break }
            appendEscaped(base[special], to: &out)
            start = special + 1
        }
    }

    /// Copies the text to `target` unless it holds a quote, a backslash or a control character
    /// (then returns false, what it copied being of no use): eight bytes at a time, the last
    /// word ending at the text's end (it may copy some bytes twice), as every JSON output cell
    /// goes through here. Writes nothing past `target + value.count`.
    @inline(__always)
    static func copyUnescaped(_ value: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>)
        -> Bool
    {
        guard let base = value.baseAddress else { return true }
        let count = value.count
        let source = UnsafeRawPointer(base)
        let destination = UnsafeMutableRawPointer(target)
        // Each test flags a byte above a true find at most, so a word without one reads as 0.
        @inline(__always)
        func specials(_ word: UInt64) -> UInt64 {
            ByteSearch.bytes(equalTo: 0x22, in: word) | ByteSearch.bytes(equalTo: 0x5C, in: word)
                | ByteSearch.controlBytes(in: word)
        }
        if count >= 8 {
            var index = 0
            while true {
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                guard specials(word) == 0 else { return false }
                destination.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
                guard index + 8 < count else { return true }
                index = min(index + 8, count - 8)
            }
        }
        if count >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            guard specials(UInt64(head) | UInt64(tail) << 32) == 0 else { return false }
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
            return true
        }
        for index in 0..<count {
            let byte = base[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
            target[index] = byte
        }
        return true
    }

    /// Appends `"…"`, escaping quotes, backslashes and control characters.
    static func appendQuoted<Bytes: Collection<UInt8>, Sink: ByteSink>(
        _ value: Bytes, prefix: UInt8? = nil, to out: inout Sink
    ) {
        out.append(0x22)
        if let prefix { out.append(prefix) }
        for byte in value {
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                out.append(byte)
            } else {
                appendEscaped(byte, to: &out)
            }
        }
        out.append(0x22)
    }

    private static func appendEscaped<Sink: ByteSink>(_ byte: UInt8, to out: inout Sink) {
        out.append(0x5C)
        switch byte {
        case 0x22, 0x5C: out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            for escaped in [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]] {
                out.append(escaped)
            }
        }
    }
}
