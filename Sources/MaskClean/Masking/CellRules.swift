import MaskEngine

/// What a column asks of a cell besides its formats (docs/cell-status.md): characters to take
/// out before masking (`ignore`), the case of the values' letters (`case`) and a check
/// (`check`). A column with none of them has no rules, and its cells take the plain path.
///
/// A class, reached unretained from `CellMasker`: a struct of sets and arrays would be copied,
/// and its references counted, for every cell.
final class CellRules {
    let check: ColumnCheck?
    let letterCase: LetterCase
    /// The `ignore` characters, as a set of scalars (ASCII ones also in `ignoredASCII`).
    let ignored: Set<Unicode.Scalar>
    let ignoredASCII: ASCIIBytes
    /// A value that fails the check under the chosen format may take another of the column's
    /// formats under which it passes: with `bestStatus` and more than one format.
    let checkChoosesFormat: Bool
    /// The check gives a normalized value, and the column writes it.
    let normalizes: Bool
    /// The check's parts (`ColumnCheck.passes`), kept at hand: `check` owns them.
    let checkName: CheckName?
    let dateLayouts: UnsafeBufferPointer<DateLayout>
    let luhnPrefix: Luhn.Prefix
    let keepsSeparators: Bool

    init?(_ column: ColumnSpec) {
        guard column.check != nil || column.letterCase != .keep || !column.ignore.isEmpty else { return nil }
        check = column.check
        letterCase = column.letterCase
        ignored = Set(column.ignore.unicodeScalars)
        ignoredASCII = ASCIIBytes(ignored.filter(\.isASCII).map { UInt8($0.value) })
        checkChoosesFormat =
            column.check != nil && column.affinityStrategy == .bestStatus && !column.affineFormats.isEmpty
        normalizes =
            (column.check?.name.hasNormalizedForm ?? false)
            && (column.normalizedColumn != nil || column.replace == .normalized)
        checkName = column.check?.name
        (dateLayouts, luhnPrefix, keepsSeparators) =
            column.check?.parts ?? (UnsafeBufferPointer(start: nil, count: 0), Luhn.Prefix([])!, false)
    }

    /// Rules with only ignored characters, for `String.removingIgnored`.
    init(ignoring ignore: String) {
        check = nil
        letterCase = .keep
        ignored = Set(ignore.unicodeScalars)
        ignoredASCII = ASCIIBytes(ignored.filter(\.isASCII).map { UInt8($0.value) })
        checkChoosesFormat = false
        normalizes = false
        checkName = nil
        (dateLayouts, luhnPrefix, keepsSeparators) = (
            UnsafeBufferPointer(start: nil, count: 0), Luhn.Prefix([])!, false
        )
    }

    /// `value` without its ignored characters, in `out` (emptied first).
    func removeIgnored(from value: UnsafeBufferPointer<UInt8>, into out: ByteBuffer) -> UnsafeBufferPointer<
        UInt8
    > {
        out.truncate(to: 0)
        out.reserve(value.count)
        var index = 0
        while index < value.count {
            let byte = value[index]
            if byte < 0x80 {
                if !ignoredASCII.contains(byte) { out.append(byte) }
                index += 1
                continue
            }
            // A scalar of 2 to 4 bytes (the value is valid UTF-8: the masking stage checked it).
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let end = min(index + length, value.count)
            let bytes = UnsafeBufferPointer(rebasing: value[index..<end])
            let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first
            if scalar.map({ !ignored.contains($0) }) ?? true { out.append(bytes) }
            index = end
        }
        return out.bytes
    }
}

/// A set of ASCII bytes, as two words.
struct ASCIIBytes {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ bytes: some Sequence<UInt8>) {
        for byte in bytes where byte < 0x80 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }
}

extension LetterCase {
    /// Appends `text` to `out` with its letters in this case: ASCII byte by byte, anything else
    /// by Unicode's full case mapping (`ß` upper-cased is `SS`).
    func convert(_ text: UnsafeBufferPointer<UInt8>, into out: ByteBuffer) {
        guard !text.isASCII else {
            out.reserve(text.count)
            for byte in text {
                switch self {
                case .upper: out.append((0x61...0x7A).contains(byte) ? byte - 0x20 : byte)
                case .lower: out.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                case .keep: out.append(byte)
                }
            }
            return
        }
        let string = String(decoding: text, as: UTF8.self)
        let converted =
            switch self {
            case .upper: string.uppercased()
            case .lower: string.lowercased()
            case .keep: string
            }
        out.append(Array(converted.utf8))
    }

    /// `text` in this case, for `apply` and the library's callers.
    public func converted(_ text: String) -> String {
        switch self {
        case .upper: text.uppercased()
        case .lower: text.lowercased()
        case .keep: text
        }
    }
}
