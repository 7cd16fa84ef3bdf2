import MaskEngine

/// What a phone column's formatted cell holds (`phoneFormat`, docs/spec.md#phone-columns).
public enum PhoneFormat: String, Sendable, CaseIterable, Hashable {
    /// `+44 20 7946 0958`: the country code, then the number grouped as its country groups it.
    case international
    /// `020 7946 0958`: the number as it is dialled inside its country.
    case national
    /// `+442079460958`.
    case e164
}

/// What a phone column (`kind: phone`) asks of its cells: the region of numbers written without a
/// country code, and the formatted cell's form.
public struct PhoneRules: Sendable, Hashable {
    /// ISO 3166-1 alpha-2, upper case; nil: a number without a country code has no country.
    public var defaultRegion: String?
    public var format: PhoneFormat

    /// Refuses a `defaultRegion` the numbering plan does not know (any case is accepted).
    public init(defaultRegion: String?, format: PhoneFormat = .international) throws(PhoneRulesError) {
        if let region = defaultRegion {
            guard NumberingPlan.isRegion(region) else { throw .unknownRegion(region) }
            self.defaultRegion = region.uppercased()
        }
        self.format = format
    }
}

public enum PhoneRulesError: Error, Equatable, Sendable {
    /// Not a region of the numbering plan (ISO 3166-1 alpha-2 codes that have telephone numbers).
    case unknownRegion(String)
}

/// One phone cell read: its status and its values, valid until the reader's next `read`.
public struct PhoneReading {
    public var status: CellStatus
    /// The number in the column's `phoneFormat`, with ` ext. N` for an extension; empty when no
    /// country could be told (and for an empty cell).
    public var formatted: UnsafeBufferPointer<UInt8>
    /// The E.164 form (`+442079460958`), without the extension; empty as `formatted` is.
    public var e164: UnsafeBufferPointer<UInt8>
    /// The region the number belongs to (alpha-2; `001` for the non-geographic codes such as
    /// +800); empty when none can be told.
    public var region: UnsafeBufferPointer<UInt8>
    /// How many characters other than digits, separators, a leading `+` and an extension were
    /// dropped (a letter typed for a digit): a valid number with any is `lossy`.
    public var droppedCharacters: Int
}

/// Reads the phone cells of one column for one worker: its buffers are reused from cell to cell,
/// so a reader is never shared between threads.
public final class PhoneReader {
    public let rules: PhoneRules
    private var formattedBytes: [UInt8] = []
    private var e164Bytes: [UInt8] = []
    private var regionBytes: [UInt8] = []

    public init(rules: PhoneRules) {
        self.rules = rules
    }

    /// Reads one cell. `region` is the record's `regionColumn` cell, when the column has one: a
    /// region (alpha-2, any case) for a number written without a country code; an empty one
    /// leaves `defaultRegion`.
    public func read(_ value: UnsafeBufferPointer<UInt8>, region: UnsafeBufferPointer<UInt8>? = nil)
        -> PhoneReading
    {
        // Placeholder until the numbering plan lands: digits only, 8 to 15 of them complete.
        let digits = value.filter { (0x30...0x39).contains($0) }
        e164Bytes = digits.isEmpty ? [] : [0x2B] + digits
        formattedBytes = e164Bytes
        regionBytes = []
        let status: CellStatus =
            digits.isEmpty ? .empty : digits.count < 8 ? .incomplete : digits.count > 15 ? .invalid : .complete
        return formattedBytes.withUnsafeBufferPointer { formatted in
            e164Bytes.withUnsafeBufferPointer { e164 in
                regionBytes.withUnsafeBufferPointer { region in
                    PhoneReading(
                        status: status, formatted: formatted, e164: e164, region: region, droppedCharacters: 0)
                }
            }
        }
    }
}

/// The numbering plans of every region (libphonenumber's metadata, compiled: see
/// `NumberingPlanData.swift`).
public enum NumberingPlan {
    /// Whether `code` (any case) is a region with telephone numbers.
    public static func isRegion(_ code: String) -> Bool {
        code.count == 2 && code.allSatisfy { $0.isASCII && $0.isLetter }
    }
}
