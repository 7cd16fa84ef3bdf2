/// A column's formats: a primary one and its alternatives, with the strategy that picks, for each
/// value, the format it fits best (docs/mask-syntax.md). The primary format wins ties against any
/// alternative; among alternatives, the first listed wins ties.
///
/// Immutable and shared: a class, so that handing it to each worker costs one reference count.
public final class AffineMask: Sendable {
    /// The primary format first, then the alternatives in the order written.
    public let masks: [Mask]
    public let strategy: AffinityStrategy
    public let autocomplete: Bool
    /// The masks' programs, in the same order: the hot path works on these alone. Unmanaged, so
    /// that trying each one costs no reference counting; `masks` keeps them alive.
    private let programs: [Unmanaged<Program>]
    private let primaryProgram: Program
    private let literalByteCount: Int
    /// For each format, an earlier one it shares its first steps with, and how many it shares
    /// (0: none). A value whose walk through that earlier format never reached past those steps
    /// walks this one the same way, so this one can only tie with it.
    private let twins: [Twin]
    /// For each format, the most characters that format or any after it can consume (each step
    /// takes at most one; an ellipsis any number): bounds what the rest can still score.
    private let consumableFrom: [Int]

    public init(
        primary: Mask, alternatives: [Mask] = [], strategy: AffinityStrategy = .wholeString,
        autocomplete: Bool = true
    ) {
        self.masks = [primary] + alternatives
        self.programs = masks.map { Unmanaged.passUnretained($0.program) }
        self.primaryProgram = primary.program
        self.strategy = strategy
        self.autocomplete = autocomplete
        self.literalByteCount = masks.map(\.program.literalByteCount).max() ?? 0
        let programs = masks.map(\.program)
        self.twins = programs.indices.map { Twin.best(for: $0, among: programs) }
        var consumableFrom = programs.map(\.consumableCount) + [0]
        for index in programs.indices.reversed() {
            consumableFrom[index] = max(consumableFrom[index], consumableFrom[index + 1])
        }
        self.consumableFrom = consumableFrom
    }

    /// Compiles input-mask formats; the error says which format failed.
    public convenience init(
        format: String, affineFormats: [String] = [], notations: [Notation] = [],
        strategy: AffinityStrategy = .wholeString, autocomplete: Bool = true, rightToLeft: Bool = false
    ) throws(AffineFormatError) {
        try self.init(
            syntax: .inputMask, format: format, affineFormats: affineFormats, notations: notations,
            strategy: strategy, autocomplete: autocomplete, rightToLeft: rightToLeft)
    }

    /// Compiles formats written in any syntax; the error says which format failed.
    public convenience init(
        syntax: Syntax, format: String, affineFormats: [String] = [], notations: [Notation] = [],
        syntaxOptions: SyntaxOptions = SyntaxOptions(), strategy: AffinityStrategy = .wholeString,
        autocomplete: Bool = true, rightToLeft: Bool = false
    ) throws(AffineFormatError) {
        func compile(_ text: String, _ index: Int?) throws(AffineFormatError) -> Mask {
            do {
                return try Mask(
                    syntax: syntax, format: text, notations: notations, syntaxOptions: syntaxOptions,
                    rightToLeft: rightToLeft)
            } catch {
                throw AffineFormatError(affineIndex: index, format: text, error: error)
            }
        }
        let primary = try compile(format, nil)
        var alternatives: [Mask] = []
        for (index, text) in affineFormats.enumerated() {
            alternatives.append(try compile(text, index))
        }
        self.init(
            primary: primary, alternatives: alternatives, strategy: strategy, autocomplete: autocomplete)
    }

    public var primary: Mask { masks[0] }

    /// The bytes each of an `ApplyBuffer`'s outputs needs for an input of `inputCount` bytes: a
    /// character of the input gives at most one of the output, which upper-casing may make three
    /// times as long (`ß` is `SS`) but never longer for ASCII; plus the format's own characters.
    public func outputCapacity(forInputCount inputCount: Int, plainASCII: Bool = false) -> Int {
        (plainASCII ? 1 : 3) * inputCount + literalByteCount
    }

    /// The most bytes of format characters one of its formats writes: what a cell's outputs hold
    /// beyond its own characters.
    public var formatCharacterBytes: Int { literalByteCount }

    // MARK: Applying

    /// Picks the format for `value` and applies it.
    public func apply(_ value: String) -> AffineResult {
        let buffer = ApplyBuffer()
        var value = value
        let chosen = value.withUTF8 { apply(utf8: $0, into: buffer).chosen }
        return AffineResult(chosen: chosen, result: masks[chosen].apply(value, autocomplete: autocomplete))
    }

    /// Picks the format for the UTF-8 bytes of a value and applies it; the formatted and extracted
    /// bytes are left in `buffer`. Reusing one buffer per thread, a plain ASCII value costs no
    /// allocation.
    public func apply(utf8 input: UnsafeBufferPointer<UInt8>, into buffer: ApplyBuffer) -> CellOutcome {
        let plain = input.isPlainASCII  // once, not once per format tried
        // Two halves (the best result so far and the one being tried) only when there is a choice.
        buffer.reserve(
            outputCapacity(forInputCount: input.count, plainASCII: plain), halves: programs.count > 1 ? 2 : 1)
        guard programs.count > 1 else {
            return CellOutcome(chosen: 0, counts: buffer.apply(primaryProgram, input, autocomplete, plain))
        }
        if strategy == .capacity {
            // Scored on lengths alone: only the winner is applied.
            let length = plain ? input.count : String(decoding: input, as: UTF8.self).count
            var chosen = 0
            var best = Int.min
            for (index, program) in programs.enumerated() {
                let capacity = program._withUnsafeGuaranteedRef(\.capacityTextLength)
                let score = length > capacity ? Int.min : length - capacity
                if index == 0 || score > best {
                    best = score
                    chosen = index
                }
            }
            let counts = programs[chosen]._withUnsafeGuaranteedRef {
                buffer.apply($0, input, autocomplete, plain)
            }
            return CellOutcome(chosen: chosen, counts: counts)
        }
        switch strategy {
        case .bestStatus: return choose(input, plain: plain, buffer: buffer, BestStatusChoice.self)
        case .wholeString: return choose(input, plain: plain, buffer: buffer, WholeStringChoice.self)
        case .prefix: return choose(input, plain: plain, buffer: buffer, PrefixChoice.self)
        case .extractedValueCapacity:
            return choose(input, plain: plain, buffer: buffer, ExtractedValueCapacityChoice.self)
        case .capacity: preconditionFailure("capacity is chosen without applying")
        }
    }

    /// Tries the formats in order, keeping the best so far. A format is skipped, never walked,
    /// when it cannot score above the best: its bound is no higher (`bound(consumable:)`), or it
    /// shares the steps the value's walk through an earlier format stayed within (`Twin`).
    /// Either way it could at most tie, and a tie goes to the format listed first.
    private func choose<Choice: StrategyChoice>(
        _ input: UnsafeBufferPointer<UInt8>, plain: Bool, buffer: ApplyBuffer, _: Choice.Type
    ) -> CellOutcome {
        let strategy = Choice.strategy
        let trials = buffer.trials(programs.count)
        // For bestStatus's bound: the value's letters and digits, counted when first needed.
        var dataCharacters = -1
        var chosen = 0
        var best = Int.min
        var bestCounts: ApplyCounts?
        for index in programs.indices {
            if index > 0 {
                if bound(strategy, consumable: consumableFrom[index], input: input, plain: plain) <= best {
                    break
                }
                let ceiling = programs[index]._withUnsafeGuaranteedRef { program in
                    bound(
                        strategy, consumable: program.consumableCount, input: input, plain: plain,
                        status: strategy == .bestStatus && plain
                            ? statusCeiling(program, input, &dataCharacters) : 2)
                }
                if ceiling <= best || twinTies(strategy, twins[index], trials, plain: plain) {
                    trials[index].reach = Int.max
                    continue
                }
            }
            let (counts, score) = programs[index]._withUnsafeGuaranteedRef { program in
                let counts = buffer.applyToSpare(program, input, autocomplete, plain)
                return (counts, self.score(strategy, counts, of: program, input: input, buffer: buffer))
            }
            trials[index] = FormatTrial(
                reach: counts.reach, score: score, formattedBeforeTail: counts.formattedBeforeTail,
                status: counts.status)
            if bestCounts == nil || score > best {
                best = score
                chosen = index
                bestCounts = counts
                buffer.keepSpare(counts)
            }
        }
        return CellOutcome(chosen: chosen, counts: bestCounts!)
    }

    /// The highest score a format that can consume at most `consumable` characters can get for
    /// this value. Every character is either consumed (+1 to affinity) or dropped (−1), and every
    /// other term is a penalty, so affinity is at most `2 × consumed − characters`. Without plain
    /// ASCII the bytes stand in for the characters: an upper bound of the count, which is all
    /// the bound needs there (affinity never exceeds the characters consumed).
    @inline(__always)
    private func bound(
        _ strategy: AffinityStrategy, consumable: Int, input: UnsafeBufferPointer<UInt8>, plain: Bool,
        status: Int = 2
    ) -> Int {
        let characters = input.count
        switch strategy {
        case .wholeString, .bestStatus:
            let affinity =
                !plain || characters <= consumable ? characters : 2 * consumable - characters
            // bestStatus ranks by status first: `status` is the best the format can reach.
            return strategy == .bestStatus ? status << 40 + affinity : affinity
        case .prefix:
            // The formatted value's common start with the value is at most the value.
            return characters
        case .extractedValueCapacity:
            // An extracted value longer than the capacity scores lowest; otherwise at most 0.
            return 0
        case .capacity:
            return Int.max
        }
    }

    /// The best status rank (`score`'s: 2 complete, 1 lossy, 0 incomplete) a plain value can
    /// reach in `program`; `dataCharacters` caches the value's letters and digits. Each mandatory slot takes a character of its own, so fewer characters than
    /// slots leave it incomplete; more letters and digits than it can consume drop some.
    /// Out of line: only bestStatus asks, and the other strategies' loop stays small without it.
    @inline(never)
    private func statusCeiling(
        _ program: Program, _ input: UnsafeBufferPointer<UInt8>, _ dataCharacters: inout Int
    )
        -> Int
    {
        if input.count < program.mandatorySlotCount { return 0 }
        if dataCharacters < 0 { dataCharacters = input.count { Program.letterOrDigitASCII.contains($0) } }
        return dataCharacters > program.consumableCount ? 1 : 2
    }

    /// Whether the value's walk through the format's twin stayed within their shared steps, and
    /// what the twin scored then means this format scores the same: it walks the value the same
    /// way, writing the same bytes before the autocomplete tail, with the same affinity and the
    /// same dropped characters.
    @inline(__always)
    private func twinTies(
        _ strategy: AffinityStrategy, _ twin: Twin, _ trials: UnsafeMutablePointer<FormatTrial>, plain: Bool
    ) -> Bool {
        guard twin.sharedSteps > 0 else { return false }
        let trial = trials[twin.format]
        guard trial.reach <= twin.sharedSteps else { return false }
        switch strategy {
        case .wholeString:
            return true
        case .bestStatus:
            // Only completeness may differ, as the autocomplete tails may: when the twin is
            // complete or lossy, this format is at most the same.
            return trial.status != .incomplete
        case .prefix:
            // The same bytes up to the tail: when the common start ends before it, it ends there
            // for this format too.
            return plain && trial.score < trial.formattedBeforeTail
        case .extractedValueCapacity, .capacity:
            return false
        }
    }

    @inline(__always)
    private func score(
        _ strategy: AffinityStrategy, _ counts: ApplyCounts, of program: Program,
        input: UnsafeBufferPointer<UInt8>, buffer: ApplyBuffer
    ) -> Int {
        switch strategy {
        case .bestStatus:
            // The status ranks first; affinity (bounded by the value's and the format's lengths,
            // far below 2⁴⁰) only orders formats of equal status.
            let rank: Int
            switch counts.status {
            case .complete: rank = 2
            case .lossy: rank = 1
            case .incomplete, .empty: rank = 0
            }
            return rank << 40 + counts.affinity
        case .wholeString:
            return counts.affinity
        case .prefix:
            let formatted = buffer.spareFormatted(counts)
            if counts.isPlain {
                // Input characters are single bytes; a multi-byte literal never equals one.
                return commonPrefixCount(formatted, input)
            }
            return commonPrefixCount(
                String(decoding: formatted, as: UTF8.self), String(decoding: input, as: UTF8.self))
        case .extractedValueCapacity:
            let extracted = buffer.spareExtracted(counts)
            let length =
                counts.isPlain && program.literalsAreASCII
                ? extracted.count  // one byte per character
                : counts.isPlain
                    ? extracted.count { $0 & 0xC0 != 0x80 }  // one scalar per character
                    : String(decoding: extracted, as: UTF8.self).count
            let capacity = program.capacityValueLength
            return length > capacity ? Int.min : length - capacity
        case .capacity:
            preconditionFailure("capacity is scored without applying")
        }
    }
}

extension AffineMask {
    /// The template column's value for a cell (docs/mask-syntax.md): the formatted value, then the rest
    /// of the chosen mask with each unfilled mandatory slot shown as `placeholder` (right to
    /// left, the rest comes first).
    public func template(formatted: String, outcome: CellOutcome, placeholder: Character) -> String {
        let program = masks[outcome.chosen].program
        let rest = program.templateRest(from: outcome.counts.stop, placeholder: placeholder)
        return program.rightToLeft ? rest + formatted : formatted + rest
    }

    /// The template column's value for `value`.
    public func template(_ value: String, placeholder: Character) -> String {
        var value = value
        let buffer = ApplyBuffer()
        let outcome = value.withUTF8 { apply(utf8: $0, into: buffer) }
        return template(
            formatted: String(decoding: buffer.formatted, as: UTF8.self), outcome: outcome,
            placeholder: placeholder)
    }
}

/// A strategy as a type, so that the affine choice's loop is compiled once for each, its rules
/// folded in.
protocol StrategyChoice {
    static var strategy: AffinityStrategy { get }
}

enum BestStatusChoice: StrategyChoice {
    static var strategy: AffinityStrategy { .bestStatus }
}

enum WholeStringChoice: StrategyChoice {
    static var strategy: AffinityStrategy { .wholeString }
}

enum PrefixChoice: StrategyChoice {
    static var strategy: AffinityStrategy { .prefix }
}

enum ExtractedValueCapacityChoice: StrategyChoice {
    static var strategy: AffinityStrategy { .extractedValueCapacity }
}

/// An earlier format that shares its first `sharedSteps` steps with a format, walking them by the
/// same rules (same syntax, direction, literal kinds and data characters).
struct Twin {
    var format = 0
    var sharedSteps = 0

    /// The earlier format sharing the most steps with `programs[index]`. Only the primary and
    /// the few formats just before are compared, so that many formats compile in linear time.
    static func best(for index: Int, among programs: [Program]) -> Twin {
        var twin = Twin()
        let program = programs[index]
        let candidates = Set([0] + Array(max(0, index - 16)..<index)).filter { $0 < index }
        for candidate in candidates.sorted() {
            let shared = program.sharedSteps(with: programs[candidate])
            if shared > twin.sharedSteps { twin = Twin(format: candidate, sharedSteps: shared) }
        }
        return twin
    }
}

/// What trying one format on the current value gave, for the formats after it.
struct FormatTrial {
    /// `ApplyCounts.reach`; `Int.max` for a format that was skipped.
    var reach = Int.max
    var score = 0
    var formattedBeforeTail = 0
    var status = CellStatus.empty
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

/// The outcome of one cell: which format was chosen and what applying it gave. The formatted
/// and extracted bytes are in the `ApplyBuffer` passed to `apply`.
public struct CellOutcome: Sendable {
    /// Index into `AffineMask.masks`: 0 for the primary format.
    public var chosen: Int
    public var counts: ApplyCounts

    public var status: CellStatus { counts.status }
}

/// The outcome of `AffineMask.apply(_:)` on a String.
public struct AffineResult: Hashable, Sendable {
    /// Index into `AffineMask.masks`: 0 for the primary format.
    public var chosen: Int
    public var result: MaskResult
}

/// A column format that does not compile: `affineIndex` is nil for the primary format.
public struct AffineFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public var affineIndex: Int?
    public var format: String
    public var error: FormatError

    public var description: String {
        if let affineIndex {
            return "affineFormats[\(affineIndex)]: \(error)"
        }
        return "format: \(error)"
    }
}

/// Reusable output space for `AffineMask.apply(utf8:into:)`: one per thread. It holds two sets
/// of formatted and extracted bytes, so that trying each format keeps the best one so far without
/// copying.
public final class ApplyBuffer {
    // Read by the inlinable `formatted` and `extracted`, which the pipeline calls for every cell.
    @usableFromInline @exclusivity(unchecked) var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline @exclusivity(unchecked) var capacity: Int
    /// How many result halves `storage` has room for: 1, or 2 for an affine choice.
    @exclusivity(unchecked) private var halves = 2
    // Exclusivity is checked statically: a buffer belongs to one thread and its methods do not
    // reenter, and the dynamic check costs more than the work it guards on the hot path.
    /// Which half holds the kept result (0 or 1).
    @usableFromInline @exclusivity(unchecked) var kept = 0
    @exclusivity(unchecked) public private(set) var formattedCount = 0
    @exclusivity(unchecked) public private(set) var extractedCount = 0

    /// One `FormatTrial` per format of the mask being applied.
    @exclusivity(unchecked) private var trialStorage: UnsafeMutablePointer<FormatTrial>
    @exclusivity(unchecked) private var trialCapacity = 4

    public init(capacity: Int = 256) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity * 4)
        trialStorage = .allocate(capacity: trialCapacity)
        trialStorage.initialize(repeating: FormatTrial(), count: trialCapacity)
    }

    deinit {
        storage.deallocate()
        trialStorage.deallocate()
    }

    /// Room for `count` formats' trials. Each entry is written before it is read.
    @inline(__always)
    func trials(_ count: Int) -> UnsafeMutablePointer<FormatTrial> {
        if count > trialCapacity {
            trialStorage.deallocate()
            trialCapacity = max(count, trialCapacity * 2)
            trialStorage = .allocate(capacity: trialCapacity)
            trialStorage.initialize(repeating: FormatTrial(), count: trialCapacity)
        }
        return trialStorage
    }

    /// The formatted bytes of the last `apply`.
    @inlinable
    public var formatted: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: formattedStart(kept), count: formattedCount)
    }

    /// The extracted bytes of the last `apply`.
    @inlinable
    public var extracted: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: extractedStart(kept), count: extractedCount)
    }

    @inline(__always)
    func reserve(_ needed: Int, halves: Int = 2) {
        // Room a huge cell needed is given back at the next ordinary one, not kept for the run.
        if needed > capacity || halves > self.halves || capacity > 1 << 20 && needed < capacity >> 2 {
            resize(needed, halves: halves)
        }
    }

    /// Out of line: the ordinary cell fits the room there is.
    @inline(never)
    private func resize(_ needed: Int, halves: Int) {
        storage.deallocate()
        // What the buffer held is not needed across a `reserve`: it is sized to this value, so
        // that one huge cell costs only what it needs.
        capacity = needed > capacity && needed < 1 << 20 ? max(needed, capacity * 2) : max(needed, 256)
        self.halves = halves
        kept = 0
        storage = .allocate(capacity: capacity * 2 * self.halves)
    }

    @usableFromInline
    func formattedStart(_ half: Int) -> UnsafeMutablePointer<UInt8> {
        storage + half * 2 * capacity
    }

    @usableFromInline
    func extractedStart(_ half: Int) -> UnsafeMutablePointer<UInt8> {
        storage + (half * 2 + 1) * capacity
    }

    @inline(__always)
    func apply(_ program: Program, _ input: UnsafeBufferPointer<UInt8>, _ autocomplete: Bool, _ plain: Bool)
        -> ApplyCounts
    {
        let counts = program.run(
            input, autocomplete: autocomplete, formatted: formattedStart(kept),
            extracted: extractedStart(kept), dropped: nil, inputIsPlainASCII: plain)
        formattedCount = counts.formattedByteCount
        extractedCount = counts.extractedByteCount
        return counts
    }

    @inline(__always)
    func applyToSpare(
        _ program: Program, _ input: UnsafeBufferPointer<UInt8>, _ autocomplete: Bool, _ plain: Bool
    ) -> ApplyCounts {
        program.run(
            input, autocomplete: autocomplete, formatted: formattedStart(1 - kept),
            extracted: extractedStart(1 - kept), dropped: nil, inputIsPlainASCII: plain)
    }

    func spareFormatted(_ counts: ApplyCounts) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: formattedStart(1 - kept), count: counts.formattedByteCount)
    }

    func spareExtracted(_ counts: ApplyCounts) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: extractedStart(1 - kept), count: counts.extractedByteCount)
    }

    /// Makes the spare half, just written with `counts`, the kept one.
    func keepSpare(_ counts: ApplyCounts) {
        kept = 1 - kept
        formattedCount = counts.formattedByteCount
        extractedCount = counts.extractedByteCount
    }
}
