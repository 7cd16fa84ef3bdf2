import FoundationEssentials
import MaskEngine

/// A country code's formats compiled to input-mask masks, so that the engine that formats every
/// other column formats phone numbers too: the format `$1 $2 $3` of a pattern `(\d{2})(\d{4})(\d{4})`
/// is the mask `[00] [0000] [0000]`, and its national form with the rule `$NP$FG` is
/// `0[00] [0000] [0000]`. One mask per format and length, as a pattern's groups split each length
/// their own way. A format a mask cannot write (one that leaves a group out, as Argentina's mobile
/// numbers do, or puts digits of its own between them, which a mask would take for the number's)
/// has none and is written by `NumberFormatRule.write`, which the tests hold every mask to; so is a
/// number of a length no number of its code has.
///
/// A reader's own, as each compiles only what its numbers need, when they first do.
final class FormatMasks {
    /// How a format writes numbers of one length.
    enum Writing {
        /// The format's mask, which the engine applies to the number's digits.
        case mask(Mask)
        /// The format's text (`$2 15-$3-$4`), written group by group (`NumberFormatRule.write`).
        case groups(text: [UInt8], split: [Int])
        /// As it is: the format has no groups of this length, or no form for international
        /// numbers (`NA`).
        case digits
    }

    let region: RegionPlan
    /// The lengths masks are made for (bit n: n digits): those of the code's numbers.
    let lengths: UInt32
    /// By `key(format, length)`: nil until first asked for.
    private var international: [Writing?]
    private var national: [Writing?]

    /// The masks of `region`'s formats for numbers of `lengths` (those of its country code's
    /// regions); a number of another length is never valid and is written group by group.
    init(region: RegionPlan, lengths: UInt32) {
        self.region = region
        self.lengths = lengths
        let count = Self.key(region.formats.count, 0)
        international = Array(repeating: nil, count: count)
        national = Array(repeating: nil, count: count)
    }

    /// How format `format` writes a number of `length` digits.
    func writing(format: Int, length: Int, national isNational: Bool) -> Writing {
        guard length <= NumberAutomaton.maximumLength else { return .digits }
        let key = Self.key(format, length)
        if let known = isNational ? national[key] : international[key] { return known }
        let rule = region.formats[format]
        var writing = Writing.digits
        if let split = rule.split(length), let text = rule.text(national: isNational, in: region) {
            let mask = lengths & (1 << UInt32(length)) != 0 ? Self.mask(text, split) : nil
            writing = mask.map { .mask($0) } ?? .groups(text: Array(text.utf8), split: split)
        }
        if isNational { national[key] = writing } else { international[key] = writing }
        return writing
    }

    /// The mask of format `format` for `length` digits, when one writes it.
    func mask(format: Int, length: Int, national isNational: Bool) -> Mask? {
        if case .mask(let mask) = writing(format: format, length: length, national: isNational) {
            return mask
        }
        return nil
    }

    private static func key(_ format: Int, _ length: Int) -> Int { format << 5 | length }

    /// The input-mask format of `text` with groups of `split` digits; nil when no mask writes it.
    static func maskFormat(_ text: String, _ split: [Int]) -> String? {
        var mask = ""
        var nextGroup = 1
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.first {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: "$"), let group = bytes.first, (0x31...0x39).contains(group) {
                // Every group once, in order: a mask consumes each digit where it stands.
                guard Int(group - 0x30) == nextGroup, nextGroup <= split.count else { return nil }
                bytes = bytes.dropFirst()
                mask += "[" + String(repeating: "0", count: split[nextGroup - 1]) + "]"
                nextGroup += 1
            } else {
                // A digit of the format's own would be taken for one of the number's; the
                // syntax's own characters would be read as slots.
                guard !(0x30...0x39).contains(byte), !"[]{}\\".utf8.contains(byte) else { return nil }
                mask.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return nextGroup == split.count + 1 ? mask : nil
    }

    private static func mask(_ text: String, _ split: [Int]) -> Mask? {
        guard let format = maskFormat(text, split) else { return nil }
        return try? Mask(format: format)
    }
}

extension NumberFormatRule {
    /// The format's text for national or international numbers of `region` (whose formats they
    /// are): national ones with the region's rule for the first group (`$NP$FG` is the national
    /// prefix, then the group); nil when international numbers never take this format (`NA`).
    func text(national: Bool, in region: RegionPlan) -> String? {
        guard national else {
            guard region.hasInternationalFormats else { return format }
            switch international {
            case .sameAsNational: return format
            case .none: return nil
            case .format(let text): return text
            }
        }
        // libphonenumber's rule: `$NP` is the prefix, `$FG` the format's first group reference.
        guard !nationalRule.isEmpty, let first = Self.firstGroup(in: format) else { return format }
        let rule = nationalRule.replacingFirst(
            "$NP", with: String(decoding: region.nationalPrefix, as: UTF8.self)
        )
        .replacingFirst("$FG", with: String(format[first]))
        var formatted = format
        formatted.replaceSubrange(first, with: rule)
        return formatted
    }

    /// Where the format's first group reference (`$1`) is.
    private static func firstGroup(in format: String) -> Range<String.Index>? {
        var index = format.startIndex
        while index < format.endIndex {
            let next = format.index(after: index)
            if format[index] == "$", next < format.endIndex, format[next].isASCII, format[next].isNumber {
                return index..<format.index(after: next)
            }
            index = next
        }
        return nil
    }

    /// Writes `digits` (a national number of `split`'s length) as `text` says, group by group:
    /// the rule the masks are tested against, and the writer of formats no mask can write.
    static func write(_ digits: UnsafeBufferPointer<UInt8>, text: [UInt8], split: [Int], into out: ByteBuffer)
    {
        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            guard byte == UInt8(ascii: "$"), index < text.count, (0x31...0x39).contains(text[index]) else {
                out.append(byte)
                continue
            }
            let group = Int(text[index] - 0x30)
            index += 1
            guard group <= split.count else { continue }
            let start = split[..<(group - 1)].reduce(0, +)
            out.append(UnsafeBufferPointer(rebasing: digits[start..<(start + split[group - 1])]))
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var replaced = self
        replaced.replaceSubrange(range, with: replacement)
        return replaced
    }
}
