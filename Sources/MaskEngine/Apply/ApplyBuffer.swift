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
    /// For an `AffineMask` with a `SharedSuffixPlan`: made when first needed.
    @exclusivity(unchecked) private var memo: SuffixMemo?

    var suffixMemo: SuffixMemo {
        if let memo { return memo }
        let memo = SuffixMemo()
        self.memo = memo
        return memo
    }

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
    func apply<Walk: ProgramWalk>(
        _ program: Program, _ input: UnsafeBufferPointer<UInt8>, _ autocomplete: Bool, _ plain: Bool,
        _: Walk.Type
    ) -> ApplyCounts {
        let counts = Walk.run(
            program, input, autocomplete: autocomplete, formatted: formattedStart(kept),
            extracted: extractedStart(kept), dropped: nil, inputIsPlainASCII: plain)
        formattedCount = counts.formattedByteCount
        extractedCount = counts.extractedByteCount
        return counts
    }

    @inline(__always)
    func applyToSpare<Walk: ProgramWalk>(
        _ program: Program, _ input: UnsafeBufferPointer<UInt8>, _ autocomplete: Bool, _ plain: Bool,
        _: Walk.Type
    ) -> ApplyCounts {
        Walk.run(
            program, input, autocomplete: autocomplete, formatted: formattedStart(1 - kept),
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
