import MaskEngine

/// A value written the way people write phone numbers, of any country (docs/command-line.md,
/// `describe`): an optional `+`, then 5 to 18 digits between separators (spaces, no-break spaces,
/// `- . ( ) /`), perhaps followed by an extension (`x`, `ext`, `ext.`, `extension`, `#` or
/// `;ext=`, then 1 to 6 digits). Whitespace around it is trimmed. A letter anywhere else, a
/// comma, or a single `.` as the only separator (a decimal number) makes it none: the phone
/// reader is asked only about values of this shape.
struct PhoneShape {
    /// The number's digits, the extension's left out.
    var digits: [UInt8] = []
    var extensionDigits: [UInt8] = []
    /// Only digits: no `+`, no separator, no extension.
    var isBare = true
    /// Where separators split the number's digits: bit `n` for a split after its `n`th digit
    /// (`020 7946 0958`: 3 and 7).
    var splits: UInt32 = 0

    /// Whether it is written as people write a phone number rather than an identifier: with a
    /// `+`, a separator, an extension or a leading `0` (a trunk or international prefix). A bare
    /// run of digits that starts with 1 to 9 (`2024000123`) may be an order number as well as a
    /// North American number stored without punctuation, and does not count as written so.
    var isStyled: Bool { !isBare || digits.first == UInt8(ascii: "0") }

    init?(_ value: UnsafeBufferPointer<UInt8>) {
        var start = value.startIndex
        var end = value.endIndex
        while start < end, value[start] == 0x20 || value[start] == 0x09 { start += 1 }
        while end > start, value[end - 1] == 0x20 || value[end - 1] == 0x09 { end -= 1 }
        guard start < end else { return nil }
        var index = start
        if value[index] == UInt8(ascii: "+") {
            isBare = false
            index += 1
        }
        guard index < end, Self.isDigit(value[index]) || value[index] == UInt8(ascii: "(") else { return nil }
        var dots = 0
        var otherSeparators = 0
        var separated = false
        while index < end {
            let byte = value[index]
            if Self.isDigit(byte) {
                if separated && !digits.isEmpty && digits.count < 32 { splits |= 1 << digits.count }
                separated = false
                digits.append(byte)
                index += 1
                continue
            }
            separated = true
            if byte == 0xC2, index + 1 < end, value[index + 1] == 0xA0 {
                otherSeparators += 1
                index += 2
            } else if byte == UInt8(ascii: ".") {
                dots += 1
                index += 1
            } else if byte == 0x20 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "(")
                || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "/")
            {
                otherSeparators += 1
                index += 1
            } else {
                break
            }
        }
        guard (5...18).contains(digits.count) else { return nil }
        if dots + otherSeparators > 0 { isBare = false }
        // `1234.56`: a decimal number, not a number grouped by dots.
        if dots == 1 && otherSeparators == 0 && value[start] != UInt8(ascii: "+") { return nil }
        guard index < end else { return }
        // The extension: its marker, then its digits to the end.
        var marker: [UInt8] = []
        while index < end, !Self.isDigit(value[index]) {
            let byte = value[index]
            if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) {
                marker.append(byte | 0x20)
            } else if !(byte == 0x20 || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "#") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "="))
            {
                return nil
            }
            if byte == UInt8(ascii: "#") { marker.append(byte) }
            index += 1
        }
        guard Self.markers.contains(marker) else { return nil }
        while index < end, Self.isDigit(value[index]) {
            extensionDigits.append(value[index])
            index += 1
        }
        guard index == end, (1...6).contains(extensionDigits.count) else { return nil }
        isBare = false
    }

    private static let markers: Set<[UInt8]> = Set(["x", "ext", "extension", "#"].map { Array($0.utf8) })

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}

/// How the numbers of a column without a country code read under one default region.
struct RegionFigures: Equatable {
    /// Valid numbers (complete or lossy).
    var valid = 0
    /// Valid numbers written as the region writes them (`PhoneTally.isWritten`).
    var written = 0
    /// Valid numbers the numbering plan puts in this very region (a Canadian number read with
    /// `US` is valid, but Canada's).
    var own = 0

    mutating func merge(_ other: RegionFigures) {
        valid += other.valid
        written += other.written
        own += other.own
    }
}

/// The phone readers a tally asks, one for numbers with a country code and one per candidate
/// region, made once and reused (a reader's buffers are reused from value to value).
final class PhoneReaders {
    let international = PhoneReader(rules: try! PhoneRules(defaultRegion: nil))
    private var national: [String: PhoneReader] = [:]

    /// The reader of numbers without a country code in `region`, national format; nil for a code
    /// the numbering plan does not know.
    func reader(_ region: String) -> PhoneReader? {
        if let reader = national[region] { return reader }
        guard let rules = try? PhoneRules(defaultRegion: region, format: .national) else { return nil }
        let reader = PhoneReader(rules: rules)
        national[region] = reader
        return reader
    }
}

/// A column's values read as phone numbers (docs/command-line.md, `describe`): counts, never the
/// values. Every value of the shape (`PhoneShape`) is read without a default region: a valid one
/// has a country code and its region is counted. The others, the numbers written without a
/// country code, are read once more under each candidate region (`candidates`: the regions of the
/// column's numbers with a country code, then `commonRegions`), counting per region how many are
/// valid, written as the region writes them, and of the region itself. At most some 250 regions
/// are counted, whatever the values.
struct PhoneTally {
    /// The regions numbers without a country code are read under when the column's numbers with
    /// one do not name theirs: the regions most exports' numbers come from.
    static let commonRegions = [
        "US", "GB", "IN", "DE", "FR", "CA", "AU", "BR", "MX", "ES", "IT", "NL", "CN", "JP",
    ]
    /// The share of the non-empty values, in hundredths, that must be valid numbers under the
    /// chosen default region for `kind: phone`.
    static let validHundredths = 80

    /// The most regions counted: the numbering plan has some 250; a reader that named more would
    /// not make the tally grow with the values.
    static let regionsKept = 300

    /// Values of the phone shape, and those of them written as phone numbers (`isStyled`).
    var shaped = 0
    var styled = 0
    /// Valid numbers with a country code, and how many of each region.
    var international = 0
    var regions: [String: Int] = [:]
    /// Values of the shape that are not valid without a default region.
    var national = 0
    /// How the numbers without a country code read under each candidate region.
    var underRegion: [String: RegionFigures] = [:]

    /// Reads one value without a default region. Returns its shape when it is a number without a
    /// valid country code, for `addNational`.
    mutating func add(_ value: UnsafeBufferPointer<UInt8>, count: Int, readers: PhoneReaders) -> PhoneShape? {
        guard let shape = PhoneShape(value) else { return nil }
        shaped += count
        if shape.isStyled { styled += count }
        if let region = Self.internationalRegion(value, readers) {
            international += count
            if regions.count < Self.regionsKept || regions[region] != nil {
                regions[region, default: 0] += count
            }
            return nil
        }
        national += count
        return shape
    }

    /// The region of a valid number with a country code; nil for any other value. A region the
    /// numbering plan cannot tell (empty) makes the number one without a country code.
    static func internationalRegion(_ value: UnsafeBufferPointer<UInt8>, _ readers: PhoneReaders) -> String? {
        let reading = readers.international.read(value)
        guard reading.status == .complete || reading.status == .lossy, !reading.region.isEmpty else {
            return nil
        }
        return String(decoding: reading.region, as: UTF8.self)
    }

    /// Reads a number without a country code under each of `candidates`.
    mutating func addNational(
        _ value: UnsafeBufferPointer<UInt8>, _ shape: PhoneShape, count: Int, candidates: [String],
        readers: PhoneReaders
    ) {
        for region in candidates {
            guard let reader = readers.reader(region) else { continue }
            let reading = reader.read(value)
            guard reading.status == .complete || reading.status == .lossy else { continue }
            var figures = underRegion[region] ?? RegionFigures()
            figures.valid += count
            if Self.isWritten(shape, reading) { figures.written += count }
            if reading.region.elementsEqual(region.utf8) { figures.own += count }
            underRegion[region] = figures
        }
    }

    /// Whether a valid number without a country code is written as its region writes it, not a
    /// run of digits that happens to be valid there: styled (`PhoneShape.isStyled`), and either
    /// with the digits of its national format, trunk prefix included (`0161 496 0000`, not
    /// `161 496 0000`, which is how a US Social Security number reads as a French number), split
    /// only where that format splits them (`(020) 7946 0001` or `02079460001`, but not
    /// `(555) 201-0001`, whose digits are those of a Mexico City number, `55 5201 0001`); or with
    /// its country code and number (`1-512-974-2000`, `0044 20 7946 0958`).
    static func isWritten(_ shape: PhoneShape, _ reading: PhoneReading) -> Bool {
        guard shape.isStyled else { return false }
        // The national format's digits, one by one against the number's and its extension's,
        // and where it splits the number's.
        var position = 0
        var separated = false
        var splits: UInt32 = 0
        var same = true
        let expected = shape.digits.count + shape.extensionDigits.count
        for byte in reading.formatted {
            guard isDigit(byte) else {
                separated = position > 0
                continue
            }
            guard position < expected,
                byte
                    == (position < shape.digits.count
                        ? shape.digits[position] : shape.extensionDigits[position - shape.digits.count])
            else {
                same = false
                break
            }
            if separated && position < shape.digits.count && position < 32 { splits |= 1 << position }
            separated = false
            position += 1
        }
        if same && position == expected && shape.splits & ~splits == 0 { return true }
        let e164 = reading.e164.lazy.filter(isDigit)
        let length = e164.count
        return length > 0 && shape.digits.count >= length && shape.digits.suffix(length).elementsEqual(e164)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    mutating func merge(_ other: PhoneTally) {
        shaped += other.shaped
        styled += other.styled
        international += other.international
        national += other.national
        for (region, count) in other.regions where regions.count < Self.regionsKept || regions[region] != nil
        {
            regions[region, default: 0] += count
        }
        for (region, figures) in other.underRegion {
            underRegion[region, default: RegionFigures()].merge(figures)
        }
    }

    /// The regions numbers without a country code are read under: the column's own regions,
    /// most numbers first, then the common ones.
    var candidates: [String] {
        let own = regions.filter { NumberingPlan.isRegion($0.key) }
            .sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        return own + Self.commonRegions.filter { !own.contains($0) }
    }

    /// Whether the column could be a phone column, from the shapes of its `values` non-empty
    /// values: enough of them have the shape and are written as phone numbers for the thresholds
    /// of `choice` to be reachable. Reading numbers without a country code under the candidate
    /// regions is for such a column only.
    func couldBePhoneColumn(values: Int) -> Bool {
        shaped * 100 >= values * Self.validHundredths && styled * 200 >= values * Self.validHundredths
    }

    /// What `describe` proposes for the column: `kind: phone` when at least `validHundredths` of
    /// its `values` non-empty values are valid numbers under the best default region, and at
    /// least half of those are written as phone numbers (with a country code, or as their
    /// region writes them); nil otherwise. The default region is the candidate under which most
    /// numbers without a country code are valid and written as it writes them (so that a region
    /// whose plan takes almost any run of digits, Germany's, does not win a column of North
    /// American numbers); on a tie, the one more numbers of the column belong to (so that Bermuda,
    /// where a bare seven digits are a local number, does not win a US column whose North American
    /// numbers are valid under any region of +1), then the one under which more are valid, then
    /// the first candidate. It is nil when no number without a country code is valid under any.
    func choice(values: Int) -> PhoneChoice? {
        guard values > 0, shaped * 100 >= values * Self.validHundredths else { return nil }
        let rank = { (region: String, figures: RegionFigures) in
            (figures.written, figures.own + (self.regions[region] ?? 0), figures.valid)
        }
        var best: (region: String, figures: RegionFigures)?
        for region in candidates {
            let figures = underRegion[region] ?? RegionFigures()
            guard figures.valid > 0 else { continue }
            if let chosen = best, rank(region, figures) <= rank(chosen.region, chosen.figures) { continue }
            best = (region, figures)
        }
        let valid = international + (best?.figures.valid ?? 0)
        let written = international + (best?.figures.written ?? 0)
        guard valid * 100 >= values * Self.validHundredths, written * 2 >= valid else { return nil }
        return PhoneChoice(
            defaultRegion: best?.region, valid: valid, international: international, tally: self)
    }
}

/// The phone column `describe` proposes: its default region (nil when every valid number has a
/// country code), its valid numbers, and what its comment says of their regions.
struct PhoneChoice {
    /// How the YAML comment names the kind.
    static let kindName = "phone numbers"

    var defaultRegion: String?
    var valid: Int
    var international: Int
    let tally: PhoneTally

    /// `412 with a country code (GB 300, US 80, DE 32 and 3 more regions)`, `97 without, read as
    /// GB`.
    var notes: [String] {
        var notes: [String] = []
        if international > 0 {
            let ranked = tally.regions.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            let shown = ranked.prefix(5).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let more = ranked.count > 5 ? " and \(ranked.count - 5) more regions" : ""
            notes.append("\(international) with a country code (\(shown)\(more))")
        }
        if let region = defaultRegion {
            let without = valid - international
            notes.append("\(without) without, valid as numbers of \(region)")
        }
        return notes
    }
}
