import FoundationEssentials

/// A column's values of one kind, added up: what its formats and notes are made from
/// (`KindFormats`), without the values.
struct KindTally {
    let kind: ValueKind
    var count = 0
    /// Phone numbers without an extension and with one, and each marker's count and the most
    /// digits seen after it (the first `ColumnTally.distinctKept` markers).
    var withoutExtension = 0
    var withExtension = 0
    var markers: [String: (count: Int, digits: Int)] = [:]
    /// How many card numbers have each count of digits.
    var cardLengths: [Int: Int] = [:]
    /// ISO dates and the others, their separators and orders.
    var iso = DateWidths()
    var other = DateWidths()
    var separators: [Character: Int] = [:]
    var dayFirst = 0
    var monthFirst = 0
    /// ZIP codes with their four more digits.
    var plusFour = 0
    /// How many values have each canonical format (`KindMatch.format`, `.timestamp`): a
    /// country's postcode shapes, an IBAN's lengths, a timestamp's parts. Capped like the
    /// markers, though a kind has a handful.
    var formatCounts: [String: Int] = [:]
    /// The fewest and most digits a timestamp's fraction has.
    var fractionDigits: ClosedRange<Int>?
    /// Values of the kind's shape that fail its check (`KindMatch.failing`), not in `count`.
    var failing = 0

    init(kind: ValueKind) {
        self.kind = kind
    }

    mutating func add(_ match: KindMatch, count: Int) {
        self.count += count
        switch match {
        case .phone(let number):
            guard let marker = number.extensionMarker else {
                withoutExtension += count
                return
            }
            withExtension += count
            if markers.count < ColumnTally.distinctKept || markers[marker] != nil {
                let known = markers[marker] ?? (0, 0)
                markers[marker] = (known.count + count, max(known.digits, number.extensionDigits))
            }
        case .card(let digits): cardLengths[digits, default: 0] += count
        case .date(let date):
            if date.order == .iso {
                iso.add(date.widths, count: count)
            } else {
                other.add(date.widths, count: count)
                separators[date.separator ?? "/", default: 0] += count
                if date.order == .dayFirst { dayFirst += count }
                if date.order == .monthFirst { monthFirst += count }
            }
        case .zip(let hasFour): if hasFour { plusFour += count }
        case .format(let format): addFormat(format, count: count)
        case .timestamp(let format, let digits):
            addFormat(format, count: count)
            if let digits { addFraction(digits...digits) }
        case .failing:
            self.count -= count
            failing += count
        }
    }

    private mutating func addFormat(_ format: String, count: Int) {
        if formatCounts.count < ColumnTally.distinctKept || formatCounts[format] != nil {
            formatCounts[format, default: 0] += count
        }
    }

    private mutating func addFraction(_ digits: ClosedRange<Int>?) {
        guard let digits else { return }
        guard let known = fractionDigits else {
            fractionDigits = digits
            return
        }
        fractionDigits = min(known.lowerBound, digits.lowerBound)...max(known.upperBound, digits.upperBound)
    }

    /// Whether so few of the values of its shape fail the kind's check that the column is of
    /// the kind (`ProposedRules.checkFailuresPerThousand`); always, for a kind without a check.
    var fewFailing: Bool {
        failing * 1000 <= (count + failing) * ProposedRules.checkFailuresPerThousand
    }

    mutating func merge(_ other: KindTally) {
        count += other.count
        withoutExtension += other.withoutExtension
        withExtension += other.withExtension
        for (marker, figures) in other.markers
        where markers.count < ColumnTally.distinctKept || markers[marker] != nil {
            let known = markers[marker] ?? (0, 0)
            markers[marker] = (known.count + figures.count, max(known.digits, figures.digits))
        }
        cardLengths.merge(other.cardLengths, uniquingKeysWith: +)
        iso.merge(other.iso)
        self.other.merge(other.other)
        separators.merge(other.separators, uniquingKeysWith: +)
        dayFirst += other.dayFirst
        monthFirst += other.monthFirst
        plusFour += other.plusFour
        for (format, count) in other.formatCounts { addFormat(format, count: count) }
        addFraction(other.fractionDigits)
        failing += other.failing
    }
}

/// How many dates of a family there are, and the fewest and most digits each part has.
struct DateWidths {
    var count = 0
    var shortest = [Int.max, Int.max, Int.max]
    var longest = [0, 0, 0]

    mutating func add(_ widths: [Int], count: Int) {
        self.count += count
        for part in 0..<3 {
            shortest[part] = min(shortest[part], widths[part])
            longest[part] = max(longest[part], widths[part])
        }
    }

    mutating func merge(_ other: DateWidths) {
        count += other.count
        for part in 0..<3 {
            shortest[part] = min(shortest[part], other.shortest[part])
            longest[part] = max(longest[part], other.longest[part])
        }
    }
}

/// The canonical formats `describe` proposes for each kind of value (docs/command-line.md), made
/// from the values of the kind that a column holds: the most common first, then up to five
/// alternatives by how many values need them.
enum KindFormats {
    /// Every phone number as `+1 ([000]) [000]-[0000]`; an extension keeps its marker as
    /// written, with room for the most digits seen after it.
    static let phone = "+1 ([000]) [000]-[0000]"

    static func formats(_ tally: KindTally) -> (formats: [String], notes: [String]) {
        guard tally.count > 0 else { return ([], []) }
        switch tally.kind {
        case .phone: return phoneFormats(tally)
        case .card: return cardFormats(tally)
        case .date: return dateFormats(tally)
        case .zip: return zipFormats(tally)
        case .timestamp: return (timestampFormats(tally), [])
        default: return (seenFirst(tally, then: PostcodeRules.formats(tally.kind)), [])
        }
    }

    /// The formats of the values, the most common first, then a country's other shapes that no
    /// value has (`PostcodeRules.formats`): every shape the country allows gets its format.
    private static func seenFirst(_ tally: KindTally, then others: [String]) -> [String] {
        var formats = tally.formatCounts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        formats += others.filter { !formats.contains($0) }
        return Array(formats.prefix(1 + SpecProposer.maximumAlternatives))
    }

    /// The timestamps' formats, each fraction with as many mandatory digits as the shortest has
    /// and optional ones up to the longest.
    private static func timestampFormats(_ tally: KindTally) -> [String] {
        let digits = tally.fractionDigits ?? 0...0
        let fraction =
            "[" + String(repeating: "0", count: digits.lowerBound)
            + String(repeating: "9", count: digits.upperBound - digits.lowerBound) + "]"
        var formats: [String] = []
        for (format, _) in tally.formatCounts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            let written = format.replacing(TimestampKind.fractionSlot, with: fraction)
            if !formats.contains(written) { formats.append(written) }
        }
        return Array(formats.prefix(1 + SpecProposer.maximumAlternatives))
    }

    private static func phoneFormats(_ tally: KindTally) -> ([String], [String]) {
        let markers = tally.markers
        let extensions = markers.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.prefix(5).map
        {
            phone + $0.key.map(ValueShape.freeCharacter).joined() + "[0"
                + String(repeating: "9", count: $0.value.digits - 1)
                + "]"
        }
        let shown = tally.withExtension
        let notes = shown > 0 ? ["\(shown) with an extension"] : []
        return (tally.withoutExtension > 0 || extensions.isEmpty ? [phone] + extensions : extensions, notes)
    }

    /// Each length's usual grouping: 4-4-4-4 for 16 digits, 4-6-5 for 15 (American Express),
    /// 4-6-4 for 14 (Diners Club).
    static func cardFormat(digits: Int) -> String {
        let groups: [Int] =
            switch digits {
            case 13: [4, 4, 5]
            case 14: [4, 6, 4]
            case 15: [4, 6, 5]
            default: [4, 4, 4, 4, digits - 16].filter { $0 > 0 }
            }
        return groups.map { "[" + String(repeating: "0", count: $0) + "]" }.joined(separator: " ")
    }

    private static func cardFormats(_ tally: KindTally) -> ([String], [String]) {
        let formats = tally.cardLengths.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(6).map {
            cardFormat(digits: $0.key)
        }
        return (formats, [])
    }

    /// ISO dates as `[0000]{-}[00]{-}[00]`, the others as `[09]{/}[09]{/}[0099]` with the
    /// separator most of them have: `{}` keeps the separators in the extracted value, a date.
    private static func dateFormats(_ tally: KindTally) -> ([String], [String]) {
        let (iso, other, dayFirst, monthFirst) = (tally.iso, tally.other, tally.dayFirst, tally.monthFirst)
        var families: [(count: Int, format: String)] = []
        if iso.count > 0 { families.append((iso.count, format(iso, separator: "-"))) }
        if other.count > 0 {
            let separators = tally.separators
            // The most common; on a tie, `/` before `-` before `.`.
            let preference: [Character] = ["/", "-", "."]
            let separator = preference.max {
                (separators[$0] ?? 0, preference.firstIndex(of: $1)!) < (
                    separators[$1] ?? 0, preference.firstIndex(of: $0)!
                )
            }!
            families.append((other.count, format(other, separator: separator)))
        }
        let formats = families.sorted { $0.count > $1.count }.map(\.format)
        var notes: [String] = []
        if iso.count > 0 { notes.append("\(iso.count) year first (ISO)") }
        if other.count > 0 {
            switch (dayFirst, monthFirst) {
            case (0, 0):
                notes.append(
                    "\(other.count) with day and month both 12 or less: the data cannot tell day first from month first"
                )
            case (_, 0): notes.append("\(other.count) day first (\(dayFirst) with a day above 12)")
            case (0, _): notes.append("\(other.count) month first (\(monthFirst) with a day above 12)")
            default:
                notes.append(
                    "\(other.count) day or month first: the data mixes both orders (\(dayFirst) with a day above 12 first, \(monthFirst) second)"
                )
            }
        }
        return (formats, notes)
    }

    /// The parts' slots: as many mandatory digits as the shortest value has, optional ones up to
    /// the longest.
    private static func format(_ dates: DateWidths, separator: Character) -> String {
        let parts = (0..<3).map { part in
            "[" + String(repeating: "0", count: dates.shortest[part])
                + String(repeating: "9", count: dates.longest[part] - dates.shortest[part])
                + "]"
        }
        let fixed = "{" + ValueShape.freeCharacter(separator) + "}"
        return parts.joined(separator: fixed)
    }

    /// `[00000]` and, when some have their four more digits, `[00000]{-}[0000]`: the hyphen is
    /// part of a ZIP+4, so it stays in the extracted value.
    private static func zipFormats(_ tally: KindTally) -> ([String], [String]) {
        let plusFour = tally.plusFour
        let five = tally.count - plusFour
        let formats = [(five, "[00000]"), (plusFour, "[00000]{-}[0000]")].filter { $0.0 > 0 }
            .sorted { $0.0 > $1.0 }.map(\.1)
        return (formats, plusFour > 0 ? ["\(plusFour) ZIP+4"] : [])
    }
}
