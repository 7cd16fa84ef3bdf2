import Foundation

// MARK: Decoding the values maskclean reads

extension JSONScanner {
    /// The text of a string token: its bytes when it has no escapes, else Foundation's decoding.
    /// Nil when the bytes are not valid UTF-8.
    func decodeString(_ token: JSONToken) -> String? {
        let inner = UnsafeBufferPointer(
            rebasing: bytes[(token.range.lowerBound + 1)..<(token.range.upperBound - 1)])
        if !token.hasEscapes {
            // Plain ASCII needs no validation (the standard library's is costly per call).
            if inner.allSatisfy({ $0 < 0x80 }) { return String(decoding: inner, as: UTF8.self) }
            return String(validating: inner, as: UTF8.self)
        }
        let data = Data(UnsafeBufferPointer(rebasing: bytes[token.range]))
        return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? String
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
