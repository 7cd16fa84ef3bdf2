/// The canonical formats `describe` proposes for each kind of value (docs/command-line.md), made
/// from the values of the kind that a column holds: the most common first, then up to five
/// alternatives by how many values need them.
enum KindFormats {
    /// Every phone number as `+1 ([000]) [000]-[0000]`; an extension keeps its marker as
    /// written, with room for the most digits seen after it.
    static let phone = "+1 ([000]) [000]-[0000]"

    static func formats(_ matches: [KindMatch]) -> (formats: [String], notes: [String]) {
        switch matches.first {
        case .phone: phoneFormats(matches)
        case .card: cardFormats(matches)
        case .date: dateFormats(matches)
        case .zip: zipFormats(matches)
        case nil: ([], [])
        }
    }

    private static func phoneFormats(_ matches: [KindMatch]) -> ([String], [String]) {
        var markers: [String: (count: Int, digits: Int)] = [:]
        var withoutExtension = 0
        for case .phone(let number) in matches {
            guard let marker = number.extensionMarker else {
                withoutExtension += 1
                continue
            }
            markers[marker, default: (0, 0)].count += 1
            markers[marker]!.digits = max(markers[marker]!.digits, number.extensionDigits)
        }
        let extensions = markers.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.prefix(5).map
        {
            phone + $0.key.map(ValueShape.freeCharacter).joined() + "[0"
                + String(repeating: "9", count: $0.value.digits - 1)
                + "]"
        }
        let shown = markers.values.reduce(0) { $0 + $1.count }
        let notes = shown > 0 ? ["\(shown) with an extension"] : []
        return (withoutExtension > 0 || extensions.isEmpty ? [phone] + extensions : extensions, notes)
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

    private static func cardFormats(_ matches: [KindMatch]) -> ([String], [String]) {
        var lengths: [Int: Int] = [:]
        for case .card(let digits) in matches { lengths[digits, default: 0] += 1 }
        let formats = lengths.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(6).map {
            cardFormat(digits: $0.key)
        }
        return (formats, ["Luhn check passed"])
    }

    /// ISO dates as `[0000]{-}[00]{-}[00]`, the others as `[09]{/}[09]{/}[0099]` with the
    /// separator most of them have: `{}` keeps the separators in the extracted value, a date.
    private static func dateFormats(_ matches: [KindMatch]) -> ([String], [String]) {
        var iso: [DateValue] = []
        var other: [DateValue] = []
        for case .date(let date) in matches { date.order == .iso ? iso.append(date) : other.append(date) }
        var families: [(count: Int, format: String)] = []
        if !iso.isEmpty { families.append((iso.count, format(iso, separator: "-"))) }
        if !other.isEmpty {
            var separators: [Character: Int] = [:]
            for date in other { separators[date.separator ?? "/", default: 0] += 1 }
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
        let dayFirst = other.count { $0.order == .dayFirst }
        let monthFirst = other.count { $0.order == .monthFirst }
        var notes: [String] = []
        if !iso.isEmpty { notes.append("\(iso.count) year first (ISO)") }
        if !other.isEmpty {
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
    private static func format(_ dates: [DateValue], separator: Character) -> String {
        let parts = (0..<3).map { part in
            let widths = dates.map { $0.widths[part] }
            let shortest = widths.min()!
            return "[" + String(repeating: "0", count: shortest)
                + String(repeating: "9", count: widths.max()! - shortest)
                + "]"
        }
        let fixed = "{" + ValueShape.freeCharacter(separator) + "}"
        return parts.joined(separator: fixed)
    }

    /// `[00000]` and, when some have their four more digits, `[00000]{-}[0000]`: the hyphen is
    /// part of a ZIP+4, so it stays in the extracted value.
    private static func zipFormats(_ matches: [KindMatch]) -> ([String], [String]) {
        let plusFour = matches.count { if case .zip(true) = $0 { true } else { false } }
        let five = matches.count - plusFour
        let formats = [(five, "[00000]"), (plusFour, "[00000]{-}[0000]")].filter { $0.0 > 0 }
            .sorted { $0.0 > $1.0 }.map(\.1)
        return (formats, plusFour > 0 ? ["\(plusFour) ZIP+4"] : [])
    }
}
