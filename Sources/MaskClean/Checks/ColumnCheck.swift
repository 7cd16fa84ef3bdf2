import MaskEngine

/// The checks a column may ask for (`check`, docs/cell-status.md#checks).
public enum CheckName: String, Sendable, CaseIterable {
    case date, luhn, iban, isbn, gtin

    /// Whether a value that passes has a canonical form, written in the normalized column: a
    /// date's ISO 8601 text, an IBAN's electronic form, an ISBN's ISBN-13.
    public var hasNormalizedForm: Bool {
        switch self {
        case .date, .iban, .isbn: true
        case .luhn, .gtin: false
        }
    }
}

/// A column's check, ready to judge its cells: a cell that fits a format but fails it is
/// `invalid`. Built once, when the spec is loaded, from the column's keys and formats.
public struct ColumnCheck: Sendable {
    public var name: CheckName
    /// `dateOrder`, for the date formats that do not say it themselves.
    public var dateOrder: DateOrder?
    /// `luhnPrefix`: digits counted in front of the value (`80840` for an NPI).
    public var luhnPrefix: String { storage.luhnPrefix }
    /// What is not a plain value, in one reference: a check is read for every cell, and each
    /// array or string in it would be retained and released each time.
    private let storage: Storage
    /// `luhnPrefix`'s part of the Luhn sum.
    private var luhnPrefixSums: Luhn.Prefix
    /// Whether a format keeps a separator in the extracted value (`{ }`, `{-}`).
    private var keepsSeparators = false

    /// Why a column's formats cannot have the check: the format, by its index (0 the primary), and
    /// the reason.
    public struct Refusal: Error {
        public var format: Int
        public var reason: String
    }

    public init(_ name: CheckName, dateOrder: DateOrder? = nil, luhnPrefix: String = "", mask: AffineMask)
        throws(Refusal)
    {
        self.name = name
        self.dateOrder = dateOrder
        // The spec loader and `apply` refuse such a prefix first; a library caller is told too,
        // rather than have every value checked without it.
        guard let sums = Luhn.Prefix(Array(luhnPrefix.utf8)) else {
            throw Refusal(format: 0, reason: "luhnPrefix holds something other than digits")
        }
        self.luhnPrefixSums = sums
        var layouts: [DateLayout] = []
        if name == .date {
            for (index, format) in mask.masks.enumerated() {
                do {
                    layouts.append(try DateLayout(format, order: dateOrder))
                } catch {
                    throw Refusal(format: index, reason: error.reason)
                }
            }
        }
        self.storage = Storage(dateLayouts: layouts, luhnPrefix: luhnPrefix)
        // Whether a number's extracted value can hold a separator: only a `{}` literal puts one
        // there, and a check looks for them only then.
        self.keepsSeparators = mask.masks.contains { format in
            format.extractedLiteralCharacters.contains { $0.isASCII && DigitText.isSeparator($0.asciiValue!) }
        }
    }

    /// Whether a cell of format `format` passes: its formatted and extracted values as masked.
    /// When it does and `normalized` is given, its canonical form is appended to it.
    func passes(
        formatted: UnsafeBufferPointer<UInt8>, extracted: UnsafeBufferPointer<UInt8>, format: Int,
        normalized: ByteBuffer?
    ) -> Bool {
        Self.passes(
            name, dateLayouts: storage.layouts, luhnPrefix: luhnPrefixSums, keepsSeparators: keepsSeparators,
            formatted: formatted, extracted: extracted, format: format, normalized: normalized)
    }

    /// `passes`, given the check's parts, which a caller that judges every cell of a column keeps
    /// at hand (`CellRules`): nothing is copied or reference-counted per cell.
    static func passes(
        _ name: CheckName, dateLayouts: UnsafeBufferPointer<DateLayout>, luhnPrefix: Luhn.Prefix,
        keepsSeparators: Bool, formatted: UnsafeBufferPointer<UInt8>, extracted: UnsafeBufferPointer<UInt8>,
        format: Int,
        normalized: ByteBuffer?
    ) -> Bool {
        // Each rule refuses what it cannot read (a date refuses any byte outside ASCII), and only
        // a value it refuses is looked at again: the common passing cell pays for nothing.
        if rule(
            name, dateLayouts: dateLayouts, luhnPrefix: luhnPrefix, formatted: formatted,
            extracted: extracted, format: format, normalized: normalized)
        {
            return true
        }
        let readAgain =
            name == .date
            ? !formatted.isASCII
            : !extracted.isASCII || (keepsSeparators && name != .iban && DigitText.hasSeparator(extracted))
        guard readAgain else { return false }
        return passesRewritten(
            name, dateLayouts: dateLayouts, luhnPrefix: luhnPrefix, formatted: formatted,
            extracted: extracted, format: format, normalized: normalized)
    }

    /// `passes` for a value the rules cannot read as it is, out of the way of the ASCII values
    /// every other cell holds. A slot takes any Unicode decimal digit (`४`, `٢`, `４`): the rules
    /// read its value. And the separators a format keeps in a number's extracted value (`{ }`,
    /// `{-}`) are not part of the number `luhn`, `gtin` and `isbn` read.
    @inline(never)
    private static func passesRewritten(
        _ name: CheckName, dateLayouts: UnsafeBufferPointer<DateLayout>, luhnPrefix: Luhn.Prefix,
        formatted: UnsafeBufferPointer<UInt8>, extracted: UnsafeBufferPointer<UInt8>, format: Int,
        normalized: ByteBuffer?
    ) -> Bool {
        let formattedDigits = DigitText.ascii(formatted)
        var extractedDigits = DigitText.ascii(extracted)
        if name != .date && name != .iban {
            extractedDigits = extractedDigits.withUnsafeBufferPointer(DigitText.withoutSeparators)
        }
        return formattedDigits.withUnsafeBufferPointer { formatted in
            extractedDigits.withUnsafeBufferPointer { extracted in
                rule(
                    name, dateLayouts: dateLayouts, luhnPrefix: luhnPrefix, formatted: formatted,
                    extracted: extracted, format: format, normalized: normalized, otherScripts: true)
            }
        }
    }

    /// Each check's rule, on ASCII text.
    @inline(__always)
    private static func rule(
        _ name: CheckName, dateLayouts: UnsafeBufferPointer<DateLayout>, luhnPrefix: Luhn.Prefix,
        formatted: UnsafeBufferPointer<UInt8>, extracted: UnsafeBufferPointer<UInt8>, format: Int,
        normalized: ByteBuffer?, otherScripts: Bool = false
    ) -> Bool {
        switch name {
        case .date:
            guard let date = dateLayouts[format].date(formatted, otherScripts: otherScripts) else {
                return false
            }
            if let normalized {
                CalendarDate.iso(year: date.year, month: date.month, day: date.day, into: normalized)
            }
            return true
        case .luhn:
            return Luhn.isValid(extracted, prefix: luhnPrefix)
        case .iban:
            guard IBAN.isValid(extracted) else { return false }
            if let normalized { IBAN.electronic(extracted, into: normalized) }
            return true
        case .isbn:
            guard ISBN.isValid(extracted) else { return false }
            if let normalized { ISBN.isbn13(extracted, into: normalized) }
            return true
        case .gtin:
            return GTIN.isValid(extracted)
        }
    }

    /// The parts `passes` is given by a caller that keeps them: valid while this check lives.
    var parts: (dateLayouts: UnsafeBufferPointer<DateLayout>, luhnPrefix: Luhn.Prefix, keepsSeparators: Bool)
    {
        (storage.layouts, luhnPrefixSums, keepsSeparators)
    }
}

extension ColumnCheck {
    /// What is not a plain value: the layouts in memory of their own, for `passes` to read
    /// without counting references, and the prefix as written.
    final class Storage: @unchecked Sendable {
        /// For a date, where each of the column's formats puts the year, month and day.
        let layouts: UnsafeBufferPointer<DateLayout>
        let luhnPrefix: String

        init(dateLayouts: [DateLayout], luhnPrefix: String) {
            let layouts = UnsafeMutableBufferPointer<DateLayout>.allocate(capacity: dateLayouts.count)
            _ = layouts.initialize(from: dateLayouts)
            self.layouts = UnsafeBufferPointer(layouts)
            self.luhnPrefix = luhnPrefix
        }

        deinit {
            layouts.deallocate()
        }
    }

    /// For a date, where each of the column's formats puts the year, month and day.
    var dateLayouts: [DateLayout] { Array(storage.layouts) }
}

/// The text a check reads: decimal digits of any script as ASCII digits, and a number without the
/// separators a format may keep in its extracted value.
enum DigitText {
    /// `text` with each Unicode decimal digit (`Nd`) written as its ASCII digit; everything else
    /// as it was.
    static func ascii(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue {
                out.append(UInt8(0x30 + Int(value)))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// The separators a number may be written with: a space, `-`, `.` and `/`.
    @inline(__always)
    static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")
    }

    @inline(__always)
    static func hasSeparator(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < text.count {
            if isSeparator(text[index]) { return true }
            index += 1
        }
        return false
    }

    static func withoutSeparators(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        text.filter { !isSeparator($0) }
    }
}
