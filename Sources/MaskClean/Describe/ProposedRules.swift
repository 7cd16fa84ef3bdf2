import MaskEngine

/// The rules `describe` proposes besides formats (docs/command-line.md, `describe`): a Luhn check
/// for card numbers, a calendar check for dates with the order their values show, and the
/// significant characters of numbers, so that a cell that fails them is not counted complete.
enum ProposedRules {
    /// Card-like values (13 to 19 digits) that may fail the Luhn check, per thousand, for the
    /// column to get `check: luhn`. Random digits pass one time in ten; a column of which nine in
    /// ten pass is card numbers, and the check is what finds its mistyped ones. More failing is a
    /// column of other numbers that happen to have a card's length.
    static let luhnFailuresPerThousand = 100

    /// Values of an ISBN's, a GTIN's or an IBAN's shape that may fail its check, per thousand,
    /// for the column to be of that kind, with the check. Random characters of the shape pass one
    /// time in eleven (an ISBN-10), in ten (a GTIN, an ISBN-13) or in 97 (an IBAN, whose
    /// registry length and layout are asked of it first): a column of which nine in ten pass is
    /// of the kind, and more failing is of other numbers that have its shape (order numbers,
    /// phone numbers of ten digits), which the check would call invalid.
    static let checkFailuresPerThousand = 100

    /// A card column's Luhn check, when nearly every card-like value passes it.
    static func cardCheck(_ kind: KindTally, failing: Int, into column: inout ColumnProposal) {
        let cardLike = kind.count + failing
        if failing * 1000 <= cardLike * luhnFailuresPerThousand {
            column.check = .luhn
        } else {
            column.notes.append(
                "no Luhn check: \(failing) of \(cardLike) card-like values fail it, more than 1 in 10")
        }
    }

    /// A date column's calendar check. ISO dates say their order; the others take the order
    /// their values show (a first number above 12 is a day: DMY; a second one: MDY). When no value
    /// shows it, or values show both, the check is left out and the comment says why.
    static func dateCheck(_ kind: KindTally, into column: inout ColumnProposal) {
        guard kind.other.count > 0 else {
            column.check = .date
            return
        }
        switch (kind.dayFirst, kind.monthFirst) {
        case (1..., 0): column.dateOrder = .dmy
        case (0, 1...): column.dateOrder = .mdy
        case (0, 0):
            column.notes.append(
                "no date check: add check: \"date\" with dateOrder \"DMY\" or \"MDY\" once you know which")
            return
        default:
            column.notes.append("no date check: the data mixes both orders")
            return
        }
        column.check = .date
    }

    /// What the kinds recognised by their formats (`KindMatch.format`) propose besides them: the
    /// check an ISBN, a GTIN or an IBAN has, `case: upper` where a kind's values hold letters
    /// (postcodes, IBANs, an ISBN-10's `X`), and for timestamps with an offset, its sign as
    /// significant. `check: date` reads a date, not a timestamp: the comment says so.
    static func kindRules(_ kind: KindTally, into column: inout ColumnProposal) {
        switch kind.kind {
        case .isbn: column.check = .isbn
        case .gtin: column.check = .gtin
        case .iban: column.check = .iban
        case .timestamp:
            if column.formats.contains(where: { TimestampKind.hasOffset($0) }) { column.significant = "+-" }
            if column.formats.contains(where: { $0.count > 20 }) {
                column.notes.append(
                    "no date check: check: \"date\" reads a date, not a date and time, so an impossible date is complete"
                )
            }
        default: break
        }
        if kind.failing > 0 {
            column.notes.append("\(kind.failing) of their shape but failing the check")
        }
        if column.formats.contains(where: { $0.contains("A") || $0.contains("_") }) {
            column.letterCase = "upper"
        }
    }

    /// The check proposed, if the column's formats can hold it: a date check needs formats whose
    /// groups are a day, a month and a year (`DateLayout`), which the kind's formats are; a
    /// column whose formats cannot is proposed without it rather than with a spec that fails.
    static func keepCheckIfReadable(_ column: inout ColumnProposal) {
        guard let check = column.check, let primary = column.formats.first else { return }
        do {
            let mask = try AffineMask(format: primary, affineFormats: Array(column.formats.dropFirst()))
            _ = try ColumnCheck(check, dateOrder: column.dateOrder, mask: mask)
        } catch {
            column.check = nil
            column.dateOrder = nil
        }
    }

    /// `significant` for a column of numbers (amounts, quantities): the sign and decimal point its
    /// values hold, so that a cell whose `-` or `.` a format drops is lossy, not complete. A
    /// number's shape is an optional sign, then digits, grouped by commas, with at most one
    /// decimal point; a column is numeric when all its shapes are.
    static func significant(_ shapes: [ValueShape]) -> String {
        guard !shapes.isEmpty, shapes.allSatisfy(isNumber) else { return "" }
        let held = Set(shapes.flatMap(\.steps))
        return ["-", "."].filter { held.contains(.literal($0)) }.map(String.init).joined()
    }

    static func isNumber(_ shape: ValueShape) -> Bool {
        var steps = shape.steps[...]
        if steps.first == .literal("-") || steps.first == .literal("+") { steps = steps.dropFirst() }
        guard steps.first == .digit, steps.last == .digit else { return false }
        var points = 0
        for (step, next) in zip(steps, steps.dropFirst()) {
            switch step {
            case .digit: continue
            case .literal(","): guard points == 0, next == .digit else { return false }
            case .literal("."):
                points += 1
                guard points == 1, next == .digit else { return false }
            default: return false
            }
        }
        return true
    }
}

extension ProposedRules {
    /// A number column's formats: each without a sign, and when some values are negative, each
    /// again after `-`, so that `-3.20` is complete in `-[0].[00]` and `3.20` in `[0].[00]`
    /// rather than one of them lossy (`significant` counts the sign) or given a sign it lacks.
    static func numberFormats(_ formats: [String], significant: String, limit: Int) -> [String] {
        var unsigned: [String] = []
        for format in formats {
            let bare = format.hasPrefix("-") || format.hasPrefix("+") ? String(format.dropFirst()) : format
            if !unsigned.contains(bare) { unsigned.append(bare) }
        }
        guard significant.contains("-") else { return unsigned }
        return Array(unsigned.flatMap { [$0, "-" + $0] }.prefix(limit))
    }
}
