/// Why a column of no recognised kind gets no format (docs/command-line.md, `describe`): what a
/// mask would not check, or would check wrongly. Asked of a column's tally before its shapes make
/// formats; the comment says the reason in the user's words and never shows a value.
enum LeftOutReasons {
    /// Most distinct values an enumeration has (a flag, a status, a borough), and how many
    /// values each has on average at least, for the column to be one: a flag of `Y` and `N` over
    /// ten records is one, ten different codes over twelve records are not yet.
    static let fewValues = 20
    static let repeatsPerValue = 5

    /// The reason for `tally`'s column, or nil when its shapes may make formats. `ranked`: its
    /// shapes, most common first; `shapeCount`: how many, as the comment says it.
    static func reason(_ tally: ValueTally, ranked: [(shape: ValueShape, count: Int)], _ shapeCount: String)
        -> String?
    {
        let values = tally.values
        if let few = tally.few, values >= few.count * repeatsPerValue, !isProse(few) {
            // A format of a handful of values checks their length, not that they are one of them.
            return few.count == 1
                ? "every value is the same (\(SpecProposer.plural(values, "value")))"
                : "an enumeration of \(few.count) values, which a mask does not check"
        }
        let addresses = ranked.filter { isAddress($0.shape) }.reduce(0) { $0 + $1.count }
        if addresses * 2 >= values {
            return
                "e-mail addresses or URLs in \(addresses) of \(SpecProposer.plural(values, "value")), which a mask does not check"
        }
        let wordy = ranked.filter { $0.shape.hasLetterRun(of: 3) }
        let withWords = wordy.reduce(0) { $0 + $1.count } + tally.otherShapesWithWords
        if withWords * 2 >= values, (wordy.first?.count ?? 0) * 2 < withWords {
            return
                "free text: words in \(withWords) of \(SpecProposer.plural(values, "value")), \(shapeCount) shape"
                + (shapeCount == "1" ? "" : "s")
        }
        if tally.lowercaseWords * 2 >= values {
            // Letter slots would take any word of the length: a name is no shape.
            return
                "names or words: a word in lower case in \(tally.lowercaseWords) of \(SpecProposer.plural(values, "value")), which a mask does not check"
        }
        if tally.otherShapesNotDigitsOnly == 0, !ranked.isEmpty, ranked.allSatisfy({ $0.shape.isDigitsOnly })
        {
            let lengths = shapeCount == "1" ? "one length" : "\(shapeCount) lengths"
            return "whole numbers of \(lengths) (an identifier or a count), which a mask does not check"
        }
        return nil
    }

    /// Whether most of a column's few values are sentences (three words or more): a handful of
    /// comments repeated is free text, not an enumeration.
    static func isProse(_ few: [String: Int]) -> Bool {
        let values = few.values.reduce(0, +)
        let prose = few.filter { ValueShape($0.key).letterRuns >= 3 }.values.reduce(0, +)
        return prose * 2 > values
    }

    /// Whether a shape is an e-mail address (`[A]@[A].[A]`, letters or digits around `@` and a
    /// dot after it) or a URL (a scheme's `://`).
    static func isAddress(_ shape: ValueShape) -> Bool {
        let steps = shape.steps
        for index in steps.indices {
            switch steps[index] {
            case .literal("@"):
                guard index > 0, index + 1 < steps.count, steps[index - 1] != .literal(" "),
                    steps[(index + 1)...].contains(.literal("."))
                else { continue }
                return !steps.contains(.literal(" "))
            case .literal(":"):
                if index + 2 < steps.count, steps[index + 1] == .literal("/"),
                    steps[index + 2] == .literal("/")
                {
                    return true
                }
            default: continue
            }
        }
        return false
    }

    /// Whether `value` has a run of three letters or more with one in lower case: ASCII letters
    /// by their bytes, and any other character's bytes as a letter's, in no case (a word with an
    /// accent is still a word; a value of other scripts is free text's or a kind's to judge).
    static func hasLowercaseWord(_ value: String) -> Bool {
        var run = 0
        var lower = false
        for byte in value.utf8 {
            let isLower = (0x61...0x7A).contains(byte)
            if isLower || (0x41...0x5A).contains(byte) || byte >= 0x80 {
                // A character outside ASCII counts once, by its first byte.
                if byte < 0x80 || byte >= 0xC0 { run += 1 }
                lower = lower || isLower
                if run >= 3 && lower { return true }
            } else {
                run = 0
                lower = false
            }
        }
        return false
    }
}

extension SpecProposer {
    /// Why values of no recognised kind make no format (`LeftOutReasons`).
    static func unsuitable(
        _ tally: ValueTally, ranked: [(shape: ValueShape, count: Int)], _ shapeCount: String
    ) -> String? {
        LeftOutReasons.reason(tally, ranked: ranked, shapeCount)
    }
}
