import Foundation
import MaskClean
import Testing

/// Whether a complete cell's formatted value still says what its input said (issue 28, item 2),
/// judged here on its own, from the two texts and the spec's keys, never with the code that
/// proposed or masked the column:
///
/// - **Letters and digits** of the input appear in the formatted value in the same order (case
///   folded when the column sets `case`); the formatted value may add only characters that its
///   formats write as literals (the `1` of `+1 ([000]) …`).
/// - **A sign** in front of the input's first digit (`-`, `−` or `+`) is in front of the
///   formatted value's first digit too.
/// - **Digit groups**: two digits the input separates (by a space, `.`, `-`, `/`…) are still
///   separated in the formatted value, and a number's decimal separator (`-3.20`, `4,5`) stays
///   the same character, so that nothing is regrouped or joined. Separators may be added to a run
///   of digits (`19480713` as `1948-07-13`). A card column (`check: luhn`) may be regrouped.
/// - **A phone column** (`kind: phone`) is grouped by its numbering plan, so only its digits are
///   compared: the national number, the formatted value's digits after its country code, is the
///   end of the input's digits, and what comes before it in the input is at most an international
///   prefix (`00`, `011`), the same country code and a trunk prefix (`0`, `1`, `8`, `06`), as in
///   `+44 (0)20 7946 0958` or `020 7946 0958` (an E.164 form's country code is any of its first
///   1 to 3 digits; a national form's is any 1 to 3 digits the input dialled); an extension
///   keeps its digits.
struct MeaningRule {
    enum Kind { case plain, card, phone }

    let formattedColumn: String
    let statusColumn: String
    let kind: Kind
    let foldsCase: Bool
    /// The letters and digits the column's formats write themselves, outside their slots.
    let literals: Set<Character>

    /// The rule for a column of `kind` with these formats, as the rule's own tests state it.
    init(kind: Kind, foldsCase: Bool = false, formats: [String] = []) {
        formattedColumn = "formatted"
        statusColumn = "status"
        self.kind = kind
        self.foldsCase = foldsCase
        literals = Self.literals(of: formats)
    }

    init(_ column: ColumnSpec) throws {
        formattedColumn = try #require(column.formattedColumn, "\(column.place) has no formatted column")
        statusColumn = try #require(column.statusColumn, "\(column.place) has no status column")
        kind = column.phone != nil ? .phone : column.check?.name == .luhn ? .card : .plain
        foldsCase = column.letterCase != .keep
        literals = Self.literals(of: column.phone != nil ? [] : [column.format] + column.affineFormats)
    }

    /// Why `formatted` does not say what `input` said, or nil when it does.
    func problem(input: String, formatted: String) -> String? {
        switch kind {
        case .phone: phoneProblem(input: input, formatted: formatted)
        case .card:
            digitsAndLetters(input) == digitsAndLetters(formatted) ? nil : "its letters and digits differ"
        case .plain: plainProblem(input: input, formatted: formatted)
        }
    }

    private func plainProblem(input: String, formatted: String) -> String? {
        let source = Array(input)
        let target = Array(formatted)
        // Each letter and digit of the input, matched to the first one of the formatted value that
        // is the same character.
        var matches: [(input: Int, formatted: Int)] = []
        var next = 0
        for (index, character) in source.enumerated() where isData(character) {
            while next < target.count && !(isData(target[next]) && same(target[next], character)) {
                guard !isData(target[next]) || literals.contains(target[next]) else {
                    return "\(quoted(target[next])) is neither the input's nor one of its formats' literals"
                }
                next += 1
            }
            guard next < target.count else { return "\(quoted(character)) is missing or out of order" }
            matches.append((index, next))
            next += 1
        }
        if let extra = target[next...].first(where: { isData($0) && !literals.contains($0) }) {
            return "\(quoted(extra)) is neither the input's nor one of its formats' literals"
        }
        if let written = sign(of: source), sign(of: target) != written {
            return "the sign \(quoted(written)) is dropped"
        }
        // A number's one `.` or `,` is its decimal separator (or a thousands separator: changing
        // it changes the number either way); a date's two are not.
        let isNumber = source.allSatisfy { $0.isNumber || "+-−., ".contains($0) }
        for (left, right) in zip(matches, matches.dropFirst())
        where source[left.input].isNumber && source[right.input].isNumber && right.input > left.input + 1 {
            let written = source[(left.input + 1)..<right.input]
            let kept = target[(left.formatted + 1)..<right.formatted]
            guard !kept.isEmpty else {
                return "the digit groups around \(quoted(String(written))) are joined"
            }
            if isNumber && written.count == 1, let separator = written.first, ".,".contains(separator),
                source.count(where: { $0 == separator }) == 1, !kept.contains(separator)
            {
                return "the separator \(quoted(separator)) became \(quoted(String(kept)))"
            }
        }
        return nil
    }

    private func phoneProblem(input: String, formatted: String) -> String? {
        let (number, extensionDigits) = splitExtension(input.trimmingCharacters(in: .whitespaces))
        let (written, writtenExtension) = splitExtension(formatted)
        guard extensionDigits == writtenExtension else { return "the extension's digits differ" }
        let digits = number.filter(\.isNumber).map(String.init).joined()
        let formattedDigits = written.filter(\.isNumber).map(String.init).joined()
        // The country code is the international form's first group; an E.164 form has no
        // separator to tell it (1 to 3 digits) from the rest, so each length is tried.
        var countryCodes = [""]
        if written.first == "+" {
            let firstGroup = String(written.dropFirst().prefix(while: \.isNumber))
            countryCodes =
                firstGroup == formattedDigits
                ? (1...3).map { String(formattedDigits.prefix($0)) } : [firstGroup]
        }
        let problems = countryCodes.map { countryCode in
            nationalNumberProblem(
                digits: digits, international: number.hasPrefix("+"), formattedDigits: formattedDigits,
                countryCode: countryCode)
        }
        return problems.contains { $0 == nil } ? nil : problems[0]
    }

    /// Whether the national number, `formattedDigits` after `countryCode` (or after a national
    /// form's trunk prefix `0`), ends the input's `digits`, after at most an international
    /// prefix, the same country code and a trunk prefix.
    private func nationalNumberProblem(
        digits: String, international: Bool, formattedDigits: String, countryCode: String
    ) -> String? {
        var national = String(formattedDigits.dropFirst(countryCode.count))
        if countryCode.isEmpty && national.hasPrefix("0") { national.removeFirst() }
        guard !national.isEmpty, digits.hasSuffix(national) else {
            return "the national number \(national) does not end the input's digits \(digits)"
        }
        var before = Substring(digits.dropLast(national.count))
        var dialled = international
        if !international, let prefix = ["011", "00"].first(where: { before.hasPrefix($0) }) {
            before = before.dropFirst(prefix.count)
            dialled = true
        }
        // A national form does not say the country code an international input has.
        if countryCode.isEmpty && dialled {
            let code = before.count - (before.hasSuffix("0") && before.count > 1 ? 1 : 0)
            return (1...3).contains(code)
                ? nil : "the input's digits \(digits) are not \(national) dialled abroad"
        }
        if !countryCode.isEmpty && before.hasPrefix(countryCode) {
            before = before.dropFirst(countryCode.count)
        }
        guard ["", "0", "1", "8", "06"].contains(String(before)) else {
            return "the input's digits \(digits) hold \(before) before the national number \(national)"
        }
        return nil
    }

    /// A phone value's number and its extension's digits: what follows the first letter, `#` or
    /// `;` after a digit (`x123`, ` ext. 123`, `;ext=123`).
    private func splitExtension(_ text: String) -> (number: Substring, extensionDigits: String) {
        guard let firstDigit = text.firstIndex(where: \.isNumber),
            let marker = text[firstDigit...].firstIndex(where: { $0.isLetter || $0 == "#" || $0 == ";" })
        else { return (Substring(text), "") }
        return (text[..<marker], text[marker...].filter(\.isNumber).map(String.init).joined())
    }

    private func digitsAndLetters(_ text: String) -> [String] {
        text.filter(isData).map { foldsCase ? $0.lowercased() : String($0) }
    }

    /// The sign written in front of a value's first digit, if any.
    private func sign(of characters: [Character]) -> Character? {
        guard let first = characters.firstIndex(where: \.isNumber) else { return nil }
        return characters[..<first].last { "+-−".contains($0) }.map { $0 == "−" ? "-" : $0 }
    }

    private func isData(_ character: Character) -> Bool { character.isLetter || character.isNumber }

    private func same(_ left: Character, _ right: Character) -> Bool {
        foldsCase ? left.lowercased() == right.lowercased() : left == right
    }

    private func quoted(_ character: Character) -> String { quoted(String(character)) }
    private func quoted(_ text: String) -> String { "\"\(text)\"" }

    /// The letters and digits of input-mask formats outside their `[…]` slots (`{…}` blocks are
    /// literals too), which a formatted value holds whatever the input was.
    static func literals(of formats: [String]) -> Set<Character> {
        var found = Set<Character>()
        for format in formats {
            var inSlots = false
            var escaped = false
            for character in format {
                if escaped {
                    escaped = false
                    if !inSlots { found.insert(character) }
                    continue
                }
                switch character {
                case "\\": escaped = true
                case "[": inSlots = true
                case "]": inSlots = false
                default: if !inSlots && (character.isLetter || character.isNumber) { found.insert(character) }
                }
            }
        }
        return found
    }
}
