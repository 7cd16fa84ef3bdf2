import FoundationEssentials

// MARK: Decoding the values maskclean reads

extension JSONScanner {
    /// The text of a string token: its bytes when it has no escapes, else its escapes decoded.
    /// Nil when the bytes are not valid UTF-8.
    func decodeString(_ token: JSONToken) -> String? {
        let inner = UnsafeBufferPointer(
            rebasing: bytes[(token.range.lowerBound + 1)..<(token.range.upperBound - 1)])
        if !token.hasEscapes {
            // Plain ASCII needs no validation (the standard library's is costly per call).
            if inner.allSatisfy({ $0 < 0x80 }) { return String(decoding: inner, as: UTF8.self) }
            return String(validating: inner, as: UTF8.self)
        }
        return Self.decodeEscapes(inner)
    }

    /// A string's text between its quotes, its escapes decoded (RFC 8259, section 7). Nil for
    /// what a JSON string cannot hold: a control character, an escape that is not JSON's, a
    /// surrogate escape not in a pair, bytes that are not UTF-8.
    static func decodeEscapes(_ inner: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = inner.baseAddress else { return "" }
        var text: [UInt8] = []
        text.reserveCapacity(inner.count)
        var index = 0
        while index < inner.count {
            let byte = base[index]
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20 else { return nil }
                text.append(byte)
                index += 1
                continue
            }
            guard let end = escapeEnd(base, at: index, count: inner.count) else { return nil }
            switch base[index + 1] {
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                // escapeEnd has checked the digits, and that a high surrogate has its low one.
                guard var code = hexEscape(base, at: index, count: inner.count) else { return nil }
                if (0xD800...0xDBFF).contains(code),
                    let low = hexEscape(base, at: index + 6, count: inner.count)
                {
                    code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                UTF8.encode(scalar) { text.append($0) }
            default: text.append(base[index + 1])  // `"`, `\\` or `/`
            }
            index = end
        }
        return String(validating: text, as: UTF8.self)
    }

    /// A number token as plain decimal text: its own text when it has no exponent (`0.10` stays
    /// `0.10`, a 23-digit integer stays whole), else the same digits with the decimal point
    /// moved (`1e3` is `1000`, `1e400` a 1 and 400 zeros, `2.5e-3` is `0.0025`): exact, whatever
    /// Double or Decimal could hold. Nil when that text would be longer than `maximumLength`.
    func plainDecimal(_ token: JSONToken, maximumLength: Int = 4096) -> String? {
        let text = Array(bytes[token.range])
        guard let e = text.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "e") }) else {
            return String(decoding: text, as: UTF8.self)
        }
        let negative = text.first == UInt8(ascii: "-")
        let mantissa = text[(negative ? 1 : 0)..<e]
        let point = mantissa.firstIndex(of: UInt8(ascii: ".")) ?? mantissa.endIndex
        let digits = Array(mantissa[..<point]) + Array(mantissa[point...].dropFirst())
        // Zero is zero whatever its exponent (`0e99999999999`).
        if digits.allSatisfy({ $0 == UInt8(ascii: "0") }) { return negative ? "-0" : "0" }
        // The exponent's digits, capped: anything past the length limit is refused anyway.
        var exponent = 0
        var exponentDigits = text[(e + 1)...]
        let negativeExponent = exponentDigits.first == UInt8(ascii: "-")
        if exponentDigits.first == UInt8(ascii: "-") || exponentDigits.first == UInt8(ascii: "+") {
            exponentDigits = exponentDigits.dropFirst()
        }
        for digit in exponentDigits {
            exponent = min(exponent * 10 + Int(digit - 0x30), 10 * maximumLength)
        }
        if negativeExponent { exponent = -exponent }
        // Where the point lands among `digits`.
        let position = (point - mantissa.startIndex) + exponent
        guard position <= maximumLength, -position <= maximumLength else { return nil }
        var integer: [UInt8]
        var fraction: [UInt8]
        if position >= digits.count {
            integer = digits + Array(repeating: 0x30, count: position - digits.count)
            fraction = []
        } else if position <= 0 {
            integer = [0x30]
            fraction = Array(repeating: 0x30, count: -position) + digits
        } else {
            integer = Array(digits[..<position])
            fraction = Array(digits[position...])
        }
        while integer.count > 1 && integer.first == 0x30 { integer.removeFirst() }
        var result = (negative ? [UInt8(ascii: "-")] : []) + integer
        if !fraction.isEmpty { result += [UInt8(ascii: ".")] + fraction }
        guard result.count <= maximumLength else { return nil }
        return String(decoding: result, as: UTF8.self)
    }
}
