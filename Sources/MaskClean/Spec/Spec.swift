import MaskEngine

/// A spec file (docs/spec.md): which input columns to mask, and how.
public struct Spec: Sendable {
    /// The file the spec came from, as the user named it: messages start with it.
    public var file: String
    public var notations: [Notation]
    public var columns: [ColumnSpec]
    /// The most records that may be rejected (skipped or quarantined) before the run fails.
    public var maxRejected = 0
    /// The fewest records an export may hold: an empty export is a failed export job.
    public var minRows = 1
    /// How many cells the report keeps as samples, per status and column.
    public var samples = 5
    /// The columns whose values name a record in the reports' samples (docs/spec.md#key).
    public var key: [String] = []
    /// Against a baseline: the most the complete ratio may fall, for columns that give none.
    public var maxDrop: Double?
    /// Against a baseline: the most the row count may change, either way, as a fraction of the
    /// baseline's.
    public var maxRowsChange: Double?
    /// More samples than this would make the report a copy of the data.
    public static let maximumSamples = 1000
    /// `sha256:` and the hash of what the spec says once parsed (`SpecFingerprint`): every report
    /// records it, and `merge` refuses a partial report made with another spec.
    public var fingerprint = ""

    /// Every column the run adds, in output order (docs/spec.md): for each spec column, formatted,
    /// extracted, status, then template, normalized and, for a phone column, country.
    public var addedColumns: [String] {
        columns.flatMap(\.addedColumns)
    }

    /// The input columns the readers hand to the masking stage, in this order: every spec
    /// column's, then each phone column's `regionColumn` that is not itself a spec column (once),
    /// then each `key` column that is neither.
    public var columnsRead: [String] {
        var names = columns.map(\.name)
        for column in columns {
            if let region = column.regionColumn, !names.contains(region) { names.append(region) }
        }
        for name in key where !names.contains(name) { names.append(name) }
        return names
    }

    /// For each `key` column, its index in `columnsRead`.
    var keyIndices: [Int] {
        let read = columnsRead
        return key.map { read.firstIndex(of: $0)! }
    }

    /// For each column, the index in `columnsRead` of its `regionColumn`, or -1.
    var regionIndexOfColumn: [Int] {
        let read = columnsRead
        return columns.map { column in column.regionColumn.flatMap { read.firstIndex(of: $0) } ?? -1 }
    }
}

/// One masked column of a spec.
public struct ColumnSpec: Sendable {
    /// The input column (CSV header, JSON key).
    public var name: String
    /// Index in the spec's `columns`, for messages.
    public var index: Int
    public var syntax: Syntax
    public var format: String
    public var affineFormats: [String]
    public var affinityStrategy: AffinityStrategy
    public var autocomplete: Bool
    /// An empty cell counts against the complete ratio.
    public var required: Bool
    /// The lowest acceptable complete ratio, 0…1.
    public var minComplete: Double?
    /// Below this complete ratio (at least `minComplete`) the reports say WARN; it never fails a run.
    public var warnComplete: Double?
    /// Against a baseline (`--baseline`): the most the complete ratio may fall since it.
    public var maxDrop: Double?
    /// The highest acceptable share of invalid cells, 0…1 (same divisor as the complete ratio).
    public var maxInvalid: Double?
    /// What a cell must pass, besides fitting a format, to be complete (`check`).
    public var check: ColumnCheck?
    /// Letters of the formatted and extracted values in upper or lower case (`case`).
    public var letterCase = LetterCase.keep
    /// Characters removed from a value before it is masked (`ignore`): they are never lost.
    public var ignore = ""
    /// The spec's `samples`: how many cells of each status the report keeps for this column.
    public var samples = 5
    /// Strip leading and trailing white space (Unicode White_Space) before masking.
    public var trim = false
    /// Write this value into the input column itself.
    public var replace: Replacement?
    /// Replace cells that are not complete too; by default they keep their input value.
    public var replaceIncomplete = false
    /// Names of the added columns; nil leaves one out.
    public var formattedColumn: String?
    public var extractedColumn: String?
    public var statusColumn: String?
    public var templateColumn: String?
    /// The canonical form's column, for a check that has one (`normalizedColumn`).
    public var normalizedColumn: String?
    public var placeholderCharacter: Character
    /// The options only the column's syntax has, as one value (input-mask's notations, the spec's
    /// and the column's own merged, and right to left; akmask's template; maskara's symbols):
    /// kept for the spec's fingerprint, which covers everything that decides a cell. Its
    /// `significant` is the column's `significant`, for every syntax.
    public var syntaxOptions = SyntaxOptions()
    /// The column's formats, compiled. A phone column has none: its mask is an empty format's,
    /// never applied (`ColumnSpec.phoneMask`).
    public var mask: AffineMask
    /// A phone column's rules (`kind: phone`, docs/spec.md#phone-columns); nil for a column of
    /// formats.
    public var phone: PhoneRules?
    /// A phone column's input column holding each record's region (`regionColumn`).
    public var regionColumn: String?
    /// A phone column's added column holding the detected region (`countryColumn`).
    public var countryColumn: String?

    /// How messages name this column: `columns[0] "phone"`.
    public var place: String { "columns[\(index)] \"\(name)\"" }

    public var addedColumns: [String] {
        [formattedColumn, extractedColumn, statusColumn, templateColumn, normalizedColumn, countryColumn]
            .compactMap { $0 }
    }

    /// The format texts, primary first, as written in the spec: the report's `formats` keys. A
    /// phone column has one entry, `phone`: every cell that is not empty is read as a number.
    public var formats: [String] { phone != nil ? [Self.phoneFormatKey] : [format] + affineFormats }

    /// The report's `formats` key of a phone column.
    public static let phoneFormatKey = "phone"

    /// Whether a cell of the column can be invalid: with a check, or as a phone number.
    public var judgesValidity: Bool { check != nil || phone != nil }
}

/// What a column holds: values of its formats, or phone numbers (`kind`).
public enum ColumnKind: String, Sendable, CaseIterable {
    case phone
}

/// What a column's `replace` writes into the input column.
public enum Replacement: String, Sendable, CaseIterable {
    case formatted, extracted
    /// The check's canonical form (`normalizedColumn`'s value).
    case normalized
}

/// The case of letters in a column's formatted and extracted values (`case`).
public enum LetterCase: String, Sendable, CaseIterable {
    case keep, upper, lower
}

extension Spec {
    /// Whether any column writes into its input column.
    public var replaces: Bool { columns.contains { $0.replace != nil } }
}
