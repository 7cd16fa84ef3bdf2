/// Each affinity strategy as one type, carrying its score, the bound on that score the affine
/// choice prunes with, and its tie rules (the pruning and why it holds: `AffineMask+Choose.swift`).
///
/// `Chooser.init` is the one place a strategy's case is looked up; from there on the choice is
/// compiled once for each type and syntax, its rules and the syntax's walk folded in.
protocol AffinityChoice {
    /// Picks `mask`'s format for a value and applies it, leaving the result in `buffer`;
    /// `plain` is `input.isPlainASCII`, and `Walk` reaches the formats' walk.
    static func choose<Walk: ProgramWalk>(
        in mask: AffineMask, _ input: UnsafeBufferPointer<UInt8>, plain: Bool, _ buffer: ApplyBuffer,
        _: Walk.Type
    ) -> CellOutcome
}

/// A mask's choice for one value, made once for the mask: its strategy's type, with its
/// syntax's walk compiled in (`MaskSyntax.chooser`), so that trying a format costs no call.
struct Chooser: Sendable {
    let choose: @Sendable (AffineMask, UnsafeBufferPointer<UInt8>, Bool, ApplyBuffer) -> CellOutcome

    /// The choice of `strategy` among `formats` formats, walked by `Walk`.
    init<Walk: ProgramWalk>(_ strategy: AffinityStrategy, formats: Int, _: Walk.Type) {
        guard formats > 1 else {
            choose = { OneFormat.choose(in: $0, $1, plain: $2, $3, Walk.self) }
            return
        }
        switch strategy {
        case .bestStatus: choose = { BestStatusChoice.choose(in: $0, $1, plain: $2, $3, Walk.self) }
        case .wholeString: choose = { WholeStringChoice.choose(in: $0, $1, plain: $2, $3, Walk.self) }
        case .prefix: choose = { PrefixChoice.choose(in: $0, $1, plain: $2, $3, Walk.self) }
        case .capacity: choose = { CapacityChoice.choose(in: $0, $1, plain: $2, $3, Walk.self) }
        case .extractedValueCapacity:
            choose = { ExtractedValueCapacityChoice.choose(in: $0, $1, plain: $2, $3, Walk.self) }
        }
    }
}

/// The walk of a mask whose formats are not all of one syntax (`AffineMask(primary:...)` takes
/// any masks): each program's own, one indirect call a format.
enum EachProgramsSyntax: ProgramWalk {
    static func run(
        _ program: Program, _ input: UnsafeBufferPointer<UInt8>, autocomplete: Bool,
        formatted: UnsafeMutablePointer<UInt8>, extracted: UnsafeMutablePointer<UInt8>,
        dropped: UnsafeMutablePointer<UInt8>?, inputIsPlainASCII: Bool?
    ) -> ApplyCounts {
        program.run(
            input, autocomplete: autocomplete, formatted: formatted, extracted: extracted, dropped: dropped,
            inputIsPlainASCII: inputIsPlainASCII)
    }
}

/// A mask of one format, whatever the strategy: nothing to choose.
enum OneFormat: AffinityChoice {
    @inline(__always)
    static func choose<Walk: ProgramWalk>(
        in mask: AffineMask, _ input: UnsafeBufferPointer<UInt8>, plain: Bool, _ buffer: ApplyBuffer,
        _: Walk.Type
    ) -> CellOutcome {
        let counts = mask.programs[0]._withUnsafeGuaranteedRef {
            buffer.apply($0, input, mask.autocomplete, plain, Walk.self)
        }
        return CellOutcome(chosen: 0, counts: counts)
    }
}

/// A strategy that scores a format on what walking the value through it gave. Every score is
/// an `Int`, higher is better, and on a tie the format listed first wins.
protocol WalkedChoice: AffinityChoice {
    /// The score of a walked format, whose bytes are the spare half of `buffer`.
    static func score(
        _ counts: ApplyCounts, of program: Program, input: UnsafeBufferPointer<UInt8>, buffer: ApplyBuffer
    ) -> Int

    /// At least the score of any format that consumes at most `consumable` characters of a value
    /// of `characters` characters (when not `plain`, `characters` counts bytes: at least as many).
    static func bound(consumable: Int, characters: Int, plain: Bool) -> Int

    /// At least `program`'s score for the value: its `bound`, or less where the strategy can
    /// tell more from the program. `dataCharacters` caches the value's letters and digits (-1:
    /// not counted yet).
    static func ceiling(
        of program: Program, _ input: UnsafeBufferPointer<UInt8>, plain: Bool, _ dataCharacters: inout Int
    ) -> Int

    /// Whether a format scores at most what its twin scored (`trial`), given that the value's
    /// walk through the twin stayed within the steps they share: the format then walks the value
    /// the same way, writing the same bytes before the autocomplete tail, with the same affinity
    /// and the same dropped characters. Only what comes after may differ.
    static func tiesWithTwin(_ trial: FormatTrial, plain: Bool) -> Bool

    // With a `SharedSuffixPlan`: a format of a group is scored from its leading literals
    // (`LeadWalk`) and what the group's shared steps did with the rest of the value (`rest`).

    /// Whether `groupCeiling` bounds a group's formats before their leading literals are walked.
    static var boundsGroups: Bool { get }
    /// At least the score of a format whose leading literals all match and whose shared steps
    /// gave `rest`.
    static func groupCeiling(_ rest: SuffixMemo.Entry) -> Int
    /// Whether the score is known as soon as the formatted value first differs from the value,
    /// without the rest (prefix).
    static var endsAtFirstDifference: Bool { get }
    static func sharedScore(
        _ lead: LeadWalk, _ rest: SuffixMemo.Entry, _ format: SharedSuffixPlan.Format,
        _ input: UnsafeBufferPointer<UInt8>, _ memo: SuffixMemo
    ) -> Int
}

extension WalkedChoice {
    @inline(__always)
    static func choose<Walk: ProgramWalk>(
        in mask: AffineMask, _ input: UnsafeBufferPointer<UInt8>, plain: Bool, _ buffer: ApplyBuffer,
        _: Walk.Type
    ) -> CellOutcome {
        // Formats sharing steps are walked through them once for a value, not once each.
        if plain && input.count <= SharedSuffixPlan.maximumValueLength, let plan = mask.sharedSuffixes {
            return mask.chooseByWalking(
                input, plain: plain, plan, buffer, Self.self, Walk.self, WithPlan.self)
        }
        return mask.chooseByWalking(input, plain: plain, nil, buffer, Self.self, Walk.self, WithoutPlan.self)
    }

    @inline(__always)
    static func ceiling(
        of program: Program, _ input: UnsafeBufferPointer<UInt8>, plain: Bool, _ dataCharacters: inout Int
    ) -> Int {
        bound(consumable: program.consumableCount, characters: input.count, plain: plain)
    }

    static var boundsGroups: Bool { false }
    /// No bound is known: none is tighter than the largest score.
    static func groupCeiling(_ rest: SuffixMemo.Entry) -> Int { Int.max }
    static var endsAtFirstDifference: Bool { false }
}

/// A strategy scored on the walk's affinity: +1 per character consumed, −1 per character
/// dropped and per step that consumed nothing (docs/mask-syntax.md).
protocol AffinityScoredChoice: WalkedChoice {
    /// The score of `affinity` reached with a status of `rank` (`CellStatus.rank`).
    static func score(rank: Int, affinity: Int) -> Int
}

extension AffinityScoredChoice {
    @inline(__always)
    static func score(
        _ counts: ApplyCounts, of program: Program, input: UnsafeBufferPointer<UInt8>, buffer: ApplyBuffer
    ) -> Int {
        score(rank: counts.status.rank, affinity: counts.affinity)
    }

    /// Every character is either consumed (+1) or dropped (−1), and every other term is a
    /// penalty, so affinity is at most `2 × consumed − characters`. Without plain ASCII the bytes
    /// stand in for the characters: an upper bound of the count, which is all the bound needs
    /// there (affinity never exceeds the characters consumed).
    @inline(__always)
    static func affinityBound(consumable: Int, characters: Int, plain: Bool) -> Int {
        !plain || characters <= consumable ? characters : 2 * consumable - characters
    }

    @inline(__always)
    static func bound(consumable: Int, characters: Int, plain: Bool) -> Int {
        score(
            rank: CellStatus.complete.rank,
            affinity: affinityBound(consumable: consumable, characters: characters, plain: plain))
    }

    static var boundsGroups: Bool { true }

    @inline(__always)
    static func groupCeiling(_ rest: SuffixMemo.Entry) -> Int {
        score(rank: rest.status.rank, affinity: rest.affinity)
    }

    @inline(__always)
    static func sharedScore(
        _ lead: LeadWalk, _ rest: SuffixMemo.Entry, _ format: SharedSuffixPlan.Format,
        _ input: UnsafeBufferPointer<UInt8>, _ memo: SuffixMemo
    ) -> Int {
        score(rank: rest.status.rank, affinity: lead.affinity + rest.affinity)
    }
}

/// `bestStatus`: the status first (complete, lossy, incomplete), then affinity.
enum BestStatusChoice: AffinityScoredChoice {
    @inline(__always)
    static func score(rank: Int, affinity: Int) -> Int {
        StatusFirstScore.pack(rank: rank, affinity: affinity)
    }

    /// The bound, with the best status the format can reach for a plain value in place of
    /// complete.
    @inline(__always)
    static func ceiling(
        of program: Program, _ input: UnsafeBufferPointer<UInt8>, plain: Bool, _ dataCharacters: inout Int
    ) -> Int {
        score(
            rank: plain ? statusCeiling(program, input, &dataCharacters) : CellStatus.complete.rank,
            affinity: affinityBound(
                consumable: program.consumableCount, characters: input.count, plain: plain))
    }

    /// The best status rank a plain value can reach in `program`. Each mandatory slot takes a
    /// character of its own, so fewer characters than slots leave it incomplete; more letters
    /// and digits than it can consume drop some. Out of line: the loop stays small without it.
    @inline(never)
    static func statusCeiling(
        _ program: Program, _ input: UnsafeBufferPointer<UInt8>, _ dataCharacters: inout Int
    ) -> Int {
        if input.count < program.mandatorySlotCount { return CellStatus.incomplete.rank }
        if dataCharacters < 0 { dataCharacters = input.count { Program.letterOrDigitASCII.contains($0) } }
        return dataCharacters > program.consumableCount ? CellStatus.lossy.rank : CellStatus.complete.rank
    }

    /// Only completeness may differ, as the autocomplete tails may: when the twin is complete or
    /// lossy, this format is at most the same.
    static func tiesWithTwin(_ trial: FormatTrial, plain: Bool) -> Bool {
        trial.status != .incomplete
    }
}

/// `wholeString`: the affinity alone.
enum WholeStringChoice: AffinityScoredChoice {
    @inline(__always)
    static func score(rank: Int, affinity: Int) -> Int { affinity }

    /// The same walk before the tail is the same affinity: the tail adds none.
    static func tiesWithTwin(_ trial: FormatTrial, plain: Bool) -> Bool { true }
}

/// `prefix`: how many characters the formatted value shares with the start of the value.
enum PrefixChoice: WalkedChoice {
    @inline(__always)
    static func score(
        _ counts: ApplyCounts, of program: Program, input: UnsafeBufferPointer<UInt8>, buffer: ApplyBuffer
    ) -> Int {
        let formatted = buffer.spareFormatted(counts)
        if counts.isPlain {
            // Input characters are single bytes; a multi-byte literal never equals one.
            return commonPrefixCount(formatted, input)
        }
        return commonPrefixCount(
            String(decoding: formatted, as: UTF8.self), String(decoding: input, as: UTF8.self))
    }

    /// The formatted value's common start with the value is at most the value.
    @inline(__always)
    static func bound(consumable: Int, characters: Int, plain: Bool) -> Int { characters }

    /// The same bytes up to the tail: when the common start ends before it, it ends there for
    /// this format too.
    static func tiesWithTwin(_ trial: FormatTrial, plain: Bool) -> Bool {
        plain && trial.score < trial.formattedBeforeTail
    }

    static var endsAtFirstDifference: Bool { true }

    /// Reached only when the leading literals wrote the value's own first bytes.
    @inline(__always)
    static func sharedScore(
        _ lead: LeadWalk, _ rest: SuffixMemo.Entry, _ format: SharedSuffixPlan.Format,
        _ input: UnsafeBufferPointer<UInt8>, _ memo: SuffixMemo
    ) -> Int {
        lead.literals + memo.commonStart(rest, input, from: lead.literals)
    }
}

/// `extractedValueCapacity`: how close the extracted value's length is to the format's value
/// capacity; longer than the capacity scores lowest.
enum ExtractedValueCapacityChoice: WalkedChoice {
    @inline(__always)
    static func score(
        _ counts: ApplyCounts, of program: Program, input: UnsafeBufferPointer<UInt8>, buffer: ApplyBuffer
    ) -> Int {
        CapacityChoice.fit(
            characters(in: buffer.spareExtracted(counts), counts, program), program.capacityValueLength)
    }

    /// The extracted value's length in characters.
    @inline(__always)
    private static func characters(
        in extracted: UnsafeBufferPointer<UInt8>, _ counts: ApplyCounts, _ program: Program
    )
        -> Int
    {
        counts.isPlain && program.literalsAreASCII
            ? extracted.count  // one byte per character
            : counts.isPlain
                ? extracted.count { $0 & 0xC0 != 0x80 }  // one scalar per character
                : String(decoding: extracted, as: UTF8.self).count
    }

    /// An extracted value longer than the capacity scores lowest; otherwise at most 0.
    @inline(__always)
    static func bound(consumable: Int, characters: Int, plain: Bool) -> Int { 0 }

    /// The extracted values may differ in the tail, and the capacities anywhere.
    static func tiesWithTwin(_ trial: FormatTrial, plain: Bool) -> Bool { false }

    @inline(__always)
    static func sharedScore(
        _ lead: LeadWalk, _ rest: SuffixMemo.Entry, _ format: SharedSuffixPlan.Format,
        _ input: UnsafeBufferPointer<UInt8>, _ memo: SuffixMemo
    ) -> Int {
        CapacityChoice.fit(lead.extracted + rest.extracted, format.capacityValueLength)
    }
}

/// `capacity`: how close the value's length is to the format's text capacity. Scored on
/// lengths alone, so only the winner is applied, and nothing needs bounding.
enum CapacityChoice: AffinityChoice {
    static func choose<Walk: ProgramWalk>(
        in mask: AffineMask, _ input: UnsafeBufferPointer<UInt8>, plain: Bool, _ buffer: ApplyBuffer,
        _: Walk.Type
    ) -> CellOutcome {
        let length = plain ? input.count : String(decoding: input, as: UTF8.self).count
        var chosen = 0
        var best = Int.min
        for (index, program) in mask.programs.enumerated() {
            let score = fit(length, program._withUnsafeGuaranteedRef(\.capacityTextLength))
            if index == 0 || score > best {
                best = score
                chosen = index
            }
        }
        let counts = mask.programs[chosen]._withUnsafeGuaranteedRef {
            buffer.apply($0, input, mask.autocomplete, plain, Walk.self)
        }
        return CellOutcome(chosen: chosen, counts: counts)
    }

    /// The capacity strategies' score: 0 for a length that fills the capacity, less the more
    /// room is left, lowest for one that does not fit.
    @inline(__always)
    static func fit(_ length: Int, _ capacity: Int) -> Int {
        length > capacity ? Int.min : length - capacity
    }
}

/// `bestStatus`'s score in one `Int`: the status's rank above the affinity, so that comparing
/// two scores compares ranks first and affinities only between equal ranks. Affinity is bounded
/// by the value's and the format's lengths, far below 2³⁹ either way, so it never reaches
/// across the 2⁴⁰ between two ranks.
enum StatusFirstScore {
    @inline(__always)
    static func pack(rank: Int, affinity: Int) -> Int { rank << 40 + affinity }
}

extension CellStatus {
    /// How `bestStatus` ranks a status: complete 2, lossy 1, incomplete (and empty) 0.
    var rank: Int {
        switch self {
        case .complete: 2
        case .lossy: 1
        case .incomplete, .empty, .invalid: 0
        }
    }
}

/// What a format's leading literals did with the start of a plain value (`SharedSuffixPlan`).
struct LeadWalk {
    /// How many leading literals the format has, all walked.
    var literals: Int
    var affinity: Int
    /// The characters they added to the extracted value (fixed ones).
    var extracted: Int
}

/// How many leading elements two sequences share.
func commonPrefixCount<Left: Sequence, Right: Sequence>(_ left: Left, _ right: Right) -> Int
where Left.Element == Right.Element, Left.Element: Equatable {
    var count = 0
    for (a, b) in zip(left, right) {
        guard a == b else { break }
        count += 1
    }
    return count
}
