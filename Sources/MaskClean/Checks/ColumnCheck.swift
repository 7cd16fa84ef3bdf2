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
    public var luhnPrefix: String
    /// For a date, where each of the column's formats puts the year, month and day.
    var dateLayouts: [DateLayout] = []
    private var luhnPrefixDigits: [UInt8]

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
        self.luhnPrefix = luhnPrefix
        self.luhnPrefixDigits = Array(luhnPrefix.utf8)
        if name == .date {
            for (index, format) in mask.masks.enumerated() {
                do {
                    dateLayouts.append(try DateLayout(format, order: dateOrder))
                } catch {
                    throw Refusal(format: index, reason: error.reason)
                }
            }
        }
    }

    /// Whether a cell of format `format` passes: its formatted and extracted values as masked.
    /// When it does and `normalized` is given, its canonical form is appended to it.
    func passes(
        formatted: UnsafeBufferPointer<UInt8>, extracted: UnsafeBufferPointer<UInt8>, format: Int,
        normalized: ByteBuffer?
    ) -> Bool {
        switch name {
        case .date:
            guard let date = dateLayouts[format].date(formatted) else { return false }
            if let normalized {
                CalendarDate.iso(year: date.year, month: date.month, day: date.day, into: normalized)
            }
            return true
        case .luhn:
            return Luhn.isValid(extracted, prefix: luhnPrefixDigits)
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
}
