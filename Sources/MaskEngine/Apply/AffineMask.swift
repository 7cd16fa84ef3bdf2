/// A column's formats: a primary one and its alternatives, with the strategy that picks, for each
/// value, the format it fits best (DESIGN §1). The primary format wins ties against any
/// alternative; among alternatives, the first listed wins ties.
public struct AffineMask: Sendable {
    /// The primary format first, then the alternatives in the order written.
    public let masks: [Mask]
    public let strategy: AffinityStrategy
    public let autocomplete: Bool
    private let literalByteCount: Int

    public init(
        primary: Mask, alternatives: [Mask] = [], strategy: AffinityStrategy = .wholeString,
        autocomplete: Bool = true
    ) {
        self.masks = [primary] + alternatives
        self.strategy = strategy
        self.autocomplete = autocomplete
        self.literalByteCount = masks.map(\.program.literalByteCount).max() ?? 0
    }

    /// Compiles input-mask formats; the error says which format failed.
    public init(
        format: String, affineFormats: [String] = [], notations: [Notation] = [],
        strategy: AffinityStrategy = .wholeString, autocomplete: Bool = true, rightToLeft: Bool = false
    ) throws(AffineFormatError) {
        func compile(_ text: String, _ index: Int?) throws(AffineFormatError) -> Mask {
            do {
                return try Mask(format: text, notations: notations, rightToLeft: rightToLeft)
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

    /// The bytes each of an `ApplyBuffer`'s outputs needs for an input of `inputCount` bytes.
    public func outputCapacity(forInputCount inputCount: Int) -> Int {
        inputCount + literalByteCount
    }

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
        buffer.reserve(outputCapacity(forInputCount: input.count))
        guard masks.count > 1 else {
            return CellOutcome(chosen: 0, counts: buffer.apply(masks[0], input, autocomplete))
        }
        if strategy == .capacity {
            // Scored on lengths alone: only the winner is applied.
            let length = input.isPlainASCII ? input.count : String(decoding: input, as: UTF8.self).count
            var chosen = 0
            var best = Int.min
            for (index, mask) in masks.enumerated() {
                let capacity = mask.program.capacityTextLength
                let score = length > capacity ? Int.min : length - capacity
                if index == 0 || score > best {
                    best = score
                    chosen = index
                }
            }
            return CellOutcome(chosen: chosen, counts: buffer.apply(masks[chosen], input, autocomplete))
        }
        var chosen = 0
        var best = Int.min
        var bestCounts: ApplyCounts?
        for (index, mask) in masks.enumerated() {
            let counts = buffer.applyToSpare(mask, input, autocomplete)
            let score = self.score(counts, of: mask, input: input, buffer: buffer)
            if bestCounts == nil || score > best {
                best = score
                chosen = index
                bestCounts = counts
                buffer.keepSpare(counts)
            }
        }
        return CellOutcome(chosen: chosen, counts: bestCounts!)
    }

    private func score(
        _ counts: ApplyCounts, of mask: Mask, input: UnsafeBufferPointer<UInt8>, buffer: ApplyBuffer
    )
        -> Int
    {
        switch strategy {
        case .wholeString:
            return counts.affinity
        case .prefix:
            let formatted = buffer.spareFormatted(counts)
            if counts.exactCharacterCounts != nil {
                return zip(formatted, input).prefix { $0 == $1 }.count
            }
            let text = String(decoding: formatted, as: UTF8.self)
            return zip(text, String(decoding: input, as: UTF8.self)).prefix { $0 == $1 }.count
        case .extractedValueCapacity:
            let length =
                counts.exactCharacterCounts?.extracted
                ?? String(decoding: buffer.spareExtracted(counts), as: UTF8.self).count
            let capacity = mask.program.capacityValueLength
            return length > capacity ? Int.min : length - capacity
        case .capacity:
            preconditionFailure("capacity is scored without applying")
        }
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

/// Reusable output space for `AffineMask.apply(utf8:into:)`: one per thread. It holds two sets
/// of formatted and extracted bytes, so that trying each format keeps the best one so far without
/// copying.
public final class ApplyBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Which half holds the kept result (0 or 1).
    private var kept = 0
    public private(set) var formattedCount = 0
    public private(set) var extractedCount = 0

    public init(capacity: Int = 256) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity * 4)
    }

    deinit {
        storage.deallocate()
    }

    /// The formatted bytes of the last `apply`.
    public var formatted: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: formattedStart(kept), count: formattedCount)
    }

    /// The extracted bytes of the last `apply`.
    public var extracted: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: extractedStart(kept), count: extractedCount)
    }

    func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        storage.deallocate()
        capacity = max(needed, capacity * 2)
        storage = .allocate(capacity: capacity * 4)
    }

    private func formattedStart(_ half: Int) -> UnsafeMutablePointer<UInt8> {
        storage + half * 2 * capacity
    }

    private func extractedStart(_ half: Int) -> UnsafeMutablePointer<UInt8> {
        storage + (half * 2 + 1) * capacity
    }

    func apply(_ mask: Mask, _ input: UnsafeBufferPointer<UInt8>, _ autocomplete: Bool) -> ApplyCounts {
        let counts = mask.apply(
            utf8: input, autocomplete: autocomplete, formatted: formattedStart(kept),
            extracted: extractedStart(kept))
        formattedCount = counts.formattedByteCount
        extractedCount = counts.extractedByteCount
        return counts
    }

    func applyToSpare(_ mask: Mask, _ input: UnsafeBufferPointer<UInt8>, _ autocomplete: Bool) -> ApplyCounts
    {
        mask.apply(
            utf8: input, autocomplete: autocomplete, formatted: formattedStart(1 - kept),
            extracted: extractedStart(1 - kept))
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
