import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a gzip member's header (RFC 1952, 2.3) for ISA-L, which is given only what follows it:
/// a member's deflate data and its trailer, whose CRC-32 and length ISA-L checks itself.
///
/// ISA-L reads a header itself too, but forgets its flags and its running CRC between calls
/// (`isal_inflate` keeps them in a variable of its own call, ISA-L 2.30 to 2.31): a header that
/// comes in two reads (past a 256 KiB read, or from a slow pipe) with a header CRC was refused
/// when right and passed when wrong. zlib keeps them. So the header is read here, a piece at a
/// time, with zlib's checks and words: the magic number, the method, the reserved flags, and the
/// header CRC (the low 16 bits of the CRC-32 of the bytes before it).
struct GzipHeader {
    private enum Part {
        /// The 10 bytes every header has; then, as its flags say, the extra field's length and
        /// the field, the name and the comment (each ending with a zero), and the header CRC.
        case fixed, extraLength, extra, name, comment, headerCRC, done
    }

    private var part = Part.fixed
    private var flags: UInt8 = 0
    /// The bytes of a fixed-size part read so far (at most 10).
    private var held: [UInt8] = []
    /// The extra field's bytes still to pass.
    private var extraLeft = 0
    /// The CRC-32 of the header's bytes so far, but for the header CRC's own.
    private var crc: UInt = 0

    private static let headerCRC: UInt8 = 0x02, extra: UInt8 = 0x04
    private static let name: UInt8 = 0x08, comment: UInt8 = 0x10, reserved: UInt8 = 0xE0

    var isRead: Bool { part == .done }

    /// Reads what `input` holds of the header, advancing it past the bytes used; true once the
    /// header is read, false when `input` ended first (it is then used up).
    mutating func read(_ input: inout UnsafeRawBufferPointer) throws(Decompressor.Problem) -> Bool {
        while part != .done {
            guard !input.isEmpty else { return false }
            switch part {
            case .fixed:
                let fixed = take(10, from: &input)
                // Checked as the bytes come, as zlib does: a header cut after a wrong method is
                // refused for the method, not as cut short.
                let seen = fixed ?? held
                if seen.count >= 2 && (seen[0] != 0x1F || seen[1] != 0x8B) {
                    throw .corrupt("incorrect header check")
                }
                if seen.count >= 3 && seen[2] != 8 { throw .corrupt("unknown compression method") }
                if seen.count >= 4 && seen[3] & Self.reserved != 0 {
                    throw .corrupt("unknown header flags set")
                }
                guard let fixed else { return false }
                flags = fixed[3]
                part = .extraLength
            case .extraLength:
                if flags & Self.extra != 0 {
                    guard let length = take(2, from: &input) else { return false }
                    extraLeft = Int(length[0]) | Int(length[1]) << 8
                }
                part = .extra
            case .extra:
                let count = min(extraLeft, input.count)
                pass(count, of: &input)
                extraLeft -= count
                if extraLeft == 0 { part = .name }
            case .name, .comment:
                let wanted = part == .name ? Self.name : Self.comment
                if flags & wanted != 0 {
                    // Up to and with the zero that ends it.
                    guard let zero = memchr(input.baseAddress!, 0, input.count) else {
                        pass(input.count, of: &input)
                        return false
                    }
                    pass(input.baseAddress!.distance(to: UnsafeRawPointer(zero)) + 1, of: &input)
                }
                part = part == .name ? .comment : .headerCRC
            case .headerCRC:
                if flags & Self.headerCRC != 0 {
                    let expected = crc & 0xFFFF
                    guard let stored = take(2, from: &input, summing: false) else { return false }
                    guard UInt(stored[0]) | UInt(stored[1]) << 8 == expected else {
                        throw .corrupt("header crc mismatch")
                    }
                }
                part = .done
            case .done:
                break
            }
        }
        return true
    }

    /// Adds bytes of `input` to `held` until it holds `count`, and returns them then (emptying
    /// `held` for the next part); nil when `input` ended first.
    private mutating func take(_ count: Int, from input: inout UnsafeRawBufferPointer, summing: Bool = true)
        -> [UInt8]?
    {
        let wanted = min(count - held.count, input.count)
        held += input.prefix(wanted)
        if summing { sum(UnsafeRawBufferPointer(rebasing: input.prefix(wanted))) }
        input = UnsafeRawBufferPointer(rebasing: input.dropFirst(wanted))
        guard held.count == count else { return nil }
        defer { held.removeAll(keepingCapacity: true) }
        return held
    }

    /// Passes over `count` bytes of `input`, adding them to the header's CRC.
    private mutating func pass(_ count: Int, of input: inout UnsafeRawBufferPointer) {
        sum(UnsafeRawBufferPointer(rebasing: input.prefix(count)))
        input = UnsafeRawBufferPointer(rebasing: input.dropFirst(count))
    }

    private mutating func sum(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        crc = CZlib.crc32(crc, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
    }
}
