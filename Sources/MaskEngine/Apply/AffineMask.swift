/// A column's formats: a primary one and its affine formats, with the strategy that picks, for
/// each value, the format it fits best (docs/mask-syntax.md). The primary format wins ties
/// against any affine format; among affine formats, the first listed wins ties. Each strategy's rules are one
/// type (`AffinityChoice.swift`); the chooser that walks only the formats that can still win
/// is in `AffineMask+Choose.swift`, with the reason it may skip the others.
///
/// Immutable and shared: a class, so that handing it to each worker costs one reference count.
public final class AffineMask: Sendable {
    /// The primary format first, then the affine formats in the order written.
    public let masks: [Mask]
    public let strategy: AffinityStrategy
    public let autocomplete: Bool
    /// The masks' programs, in the same order: the hot path works on these alone. Unmanaged, so
    /// that trying each one costs no reference counting; `masks` keeps them alive.
    let programs: [Unmanaged<Program>]
    let literalByteCount: Int
    /// The strategy's choice, with the formats' walk compiled in.
    private let chooser: Chooser
    /// For each format, an earlier one it shares its first steps with, and how many it shares
    /// (0: none). A value whose walk through that earlier format never reached past those steps
    /// walks this one the same way, so this one can only tie with it.
    let twins: [Twin]
    /// For each format, the most characters that format or any after it can consume (each step
    /// takes at most one; an ellipsis any number): bounds what the rest can still score.
    let consumableFrom: [Int]
    /// Groups of formats that differ only in their leading literals, when there are many formats.
    let sharedSuffixes: SharedSuffixPlan?

    public init(
        primary: Mask, affineFormats: [Mask] = [], strategy: AffinityStrategy = .wholeString,
        autocomplete: Bool = true
    ) {
        self.masks = [primary] + affineFormats
        self.programs = masks.map { Unmanaged.passUnretained($0.program) }
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
        self.sharedSuffixes = SharedSuffixPlan(programs)
        // Formats all of one syntax (as a spec's are) have its walk compiled into the choice.
        let syntax = programs[0].syntax
        self.chooser =
            programs.allSatisfy { ObjectIdentifier($0.syntax) == ObjectIdentifier(syntax) }
            ? syntax.chooser(strategy, formats: programs.count)
            : Chooser(strategy, formats: programs.count, EachProgramsSyntax.self)
    }

    /// Compiles input-mask formats; the error says which format failed.
    public convenience init(
        format: String, affineFormats: [String] = [], options: SyntaxOptions = SyntaxOptions(),
        strategy: AffinityStrategy = .wholeString, autocomplete: Bool = true
    ) throws(AffineFormatError) {
        try self.init(
            syntax: .inputMask, format: format, affineFormats: affineFormats, options: options,
            strategy: strategy, autocomplete: autocomplete)
    }

    /// Compiles formats written in any syntax; the error says which format failed.
    public convenience init(
        syntax: Syntax, format: String, affineFormats: [String] = [],
        options: SyntaxOptions = SyntaxOptions(),
        strategy: AffinityStrategy = .wholeString, autocomplete: Bool = true
    ) throws(AffineFormatError) {
        func compile(_ text: String, _ index: Int?) throws(AffineFormatError) -> Mask {
            do {
                return try Mask(syntax: syntax, format: text, options: options)
            } catch {
                throw AffineFormatError(affineIndex: index, format: text, error: error)
            }
        }
        let primary = try compile(format, nil)
        var compiled: [Mask] = []
        for (index, text) in affineFormats.enumerated() {
            compiled.append(try compile(text, index))
        }
        self.init(
            primary: primary, affineFormats: compiled, strategy: strategy, autocomplete: autocomplete)
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
        return chooser.choose(self, input, plain, buffer)
    }
}

extension AffineMask {
    /// Applies one format, `format` (an index into `masks`), with no choice: for a caller that
    /// judges the formats by more than the strategy does (maskclean's checks). The formatted and
    /// extracted bytes are left in `buffer`.
    public func apply(utf8 input: UnsafeBufferPointer<UInt8>, format: Int, into buffer: ApplyBuffer)
        -> CellOutcome
    {
        let plain = input.isPlainASCII
        buffer.reserve(
            outputCapacity(forInputCount: input.count, plainASCII: plain), halves: programs.count > 1 ? 2 : 1)
        let counts = programs[format]._withUnsafeGuaranteedRef {
            buffer.apply($0, input, autocomplete, plain, EachProgramsSyntax.self)
        }
        return CellOutcome(chosen: format, counts: counts)
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
