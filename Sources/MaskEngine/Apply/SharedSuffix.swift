/// Formats that differ only in a leading run of literals and go on with alike steps, as
/// "+1 ([000]) [000]-[0000]" … "+9999 ([000]) [000]-[0000]" do. Input-mask walks a plain ASCII
/// value through such a run one byte a step, never dropping one, so the run is cheap to walk;
/// what the alike steps then do with the rest of the value depends only on where the run left
/// it. `AffineMask` walks those steps once per group and position, not once per format.
///
/// Immutable once built, and read on every value: its tables are raw memory, so that reading
/// them costs no reference counting.
final class SharedSuffixPlan: @unchecked Sendable {
    /// What scoring a format of a group needs of it, without its program.
    struct Format {
        /// -1 for a format walked whole: the primary, and any format no other shares steps with.
        var group: Int32 = -1
        /// Where its leading literals are in `leads`, and how many.
        var leadStart: Int32 = 0
        var lead: Int32 = 0
        var capacityValueLength = 0
    }

    /// A leading literal: the bytes that match it, the byte it writes otherwise.
    struct Lead {
        var accepts: ASCIIBitmap
        var literal: UInt8
        var fixed: Bool
    }

    let formats: UnsafeMutablePointer<Format>
    let leads: UnsafeMutablePointer<Lead>
    /// For each group, a format of it, whose steps after its lead stand for the group's.
    let representatives: UnsafeMutablePointer<Int>
    let groupCount: Int
    /// Every byte some leading literal matches.
    let leadAlphabet: ASCIIBitmap
    private let formatCount: Int
    private let leadCount: Int

    /// Below this many formats, the plan saves less than it costs to consult.
    static let minimumFormats = 16
    /// Values longer than this are walked whole: the memo holds a result for each position.
    static let maximumValueLength = 64

    init?(_ programs: [Program]) {
        guard programs.count >= Self.minimumFormats else { return nil }
        var formats = [Format](repeating: Format(), count: programs.count)
        var leads: [Lead] = []
        var representatives: [Int] = []
        var members: [Int] = []
        // Each format is compared with the last group's only, so that many formats are grouped
        // in linear time: formats written alike are usually written together.
        for index in programs.indices.dropFirst() {
            let program = programs[index]
            guard let run = program.leadingLiteralRun else { continue }
            if let last = representatives.last,
                program.walksAlike(after: run, as: programs[last], after: Int(formats[last].lead))
            {
                members[members.count - 1] += 1
            } else {
                representatives.append(index)
                members.append(1)
            }
            formats[index] = Format(
                group: Int32(representatives.count - 1), leadStart: Int32(leads.count), lead: Int32(run),
                capacityValueLength: program.capacityValueLength)
            leads += program.steps.prefix(run).map {
                Lead(accepts: $0.accepts, literal: $0.asciiLiteral, fixed: $0.kind == .fixed)
            }
        }
        for index in formats.indices where formats[index].group >= 0 && members[Int(formats[index].group)] < 2
        {
            formats[index].group = -1
        }
        guard formats.contains(where: { $0.group >= 0 }) else { return nil }
        (formatCount, leadCount, groupCount) = (formats.count, leads.count, representatives.count)
        var leadAlphabet = ASCIIBitmap()
        for lead in leads { leadAlphabet.formUnion(lead.accepts) }
        self.leadAlphabet = leadAlphabet
        self.formats = .allocate(capacity: formats.count)
        self.formats.initialize(from: formats, count: formats.count)
        self.leads = .allocate(capacity: max(leads.count, 1))
        self.leads.initialize(from: leads, count: leads.count)
        self.representatives = .allocate(capacity: representatives.count)
        self.representatives.initialize(from: representatives, count: representatives.count)
    }

    /// For each format of a group, how many of its leading literals match a byte of `bytes` (a
    /// value's set of bytes): at most that many of the value's characters are consumed there.
    func matchable(_ bytes: ASCIIBitmap) -> [Int32] {
        (0..<formatCount).map { index in
            let format = formats[index]
            guard format.group >= 0 else { return 0 }
            return Int32(
                (0..<Int(format.lead)).count {
                    !leads[Int(format.leadStart) + $0].accepts.isDisjoint(with: bytes)
                })
        }
    }

    deinit {
        formats.deinitialize(count: formatCount).deallocate()
        leads.deinitialize(count: leadCount).deallocate()
        representatives.deinitialize(count: groupCount).deallocate()
    }
}

extension Program {
    /// How many free or fixed ASCII literals lead the format, for a format walked forward a byte
    /// a step on plain ASCII by input-mask's rules (no `SyntaxRule`: those are the rules the
    /// plan's shortcut and `runSteps` follow); nil for any other.
    var leadingLiteralRun: Int? {
        guard syntax.rules.isEmpty && !rightToLeft && literalsAreASCII && literalsAreInert else { return nil }
        return steps.prefix { ($0.kind == .free || $0.kind == .fixed) && $0.asciiLiteral < 0x80 }.count
    }

    /// Whether this program's steps from `start` walk any value as `other`'s from `otherStart`.
    func walksAlike(after start: Int, as other: Program, after otherStart: Int) -> Bool {
        guard walksByTheSameRules(as: other) && steps.count - start == other.steps.count - otherStart
        else { return false }
        return (0..<steps.count - start).allSatisfy {
            Self.alike(
                steps[start + $0], literals, classes, other.steps[otherStart + $0], other.literals,
                other.classes)
        }
    }

    /// Walks a plain ASCII value forward, by input-mask's rules (the plan holds only programs
    /// that walk by them: `leadingLiteralRun`), through the steps from `start`
    /// on: what a `SharedSuffixPlan` group's shared steps do with the rest of a value. `stop` is
    /// counted from the program's first step.
    func runSteps(
        from start: Int, _ input: UnsafeBufferPointer<UInt8>, autocomplete: Bool,
        formatted: UnsafeMutablePointer<UInt8>, extracted: UnsafeMutablePointer<UInt8>
    ) -> ApplyCounts {
        steps.withUnsafeBufferPointer { all in
            var formattedCursor = ByteCursor(formatted)
            var extractedCursor = ByteCursor(extracted)
            var droppedCursor: ByteCursor? = nil
            var source = ASCIIBytes<LeftToRight>(input)
            let counts = walk(
                &source, self, UnsafeBufferPointer(rebasing: all[start...]), rules: InputMaskSyntax.self,
                autocomplete: autocomplete, reverseLiterals: false, formatted: &formattedCursor,
                extracted: &extractedCursor, dropped: &droppedCursor)
            return ApplyCounts(
                formattedByteCount: formattedCursor.count, extractedByteCount: extractedCursor.count,
                droppedByteCount: 0, complete: completeFrom[start + counts.stop], affinity: counts.affinity,
                droppedDataCharacters: counts.dropped, stop: start + counts.stop, isPlain: true)
        }
    }
}

/// What a group's shared steps did with the value from each position on, for the value being
/// chosen for: one per thread, in its `ApplyBuffer`.
final class SuffixMemo {
    typealias MatchableCounts = (plan: SharedSuffixPlan, bytes: ASCIIBitmap, counts: [Int32])

    struct Entry {
        var affinity = 0
        var dropped = 0
        var extracted = 0
        var formatted = 0
        /// Where the formatted bytes are in `bytes`.
        var offset = 0
        var complete = false
        /// The value this entry is for (`SuffixMemo.stamp`); an older one is stale.
        var stamp: UInt32 = 0

        /// The status the shared steps leave: the whole format's, since its leading literals
        /// neither fill a slot nor drop a character.
        var status: CellStatus { CellStatus(complete: complete, droppedDataCharacters: dropped) }
    }

    // One per thread, and its methods do not reenter: the dynamic exclusivity check would cost
    // more than the lookups it guards.
    @exclusivity(unchecked) private var entries = UnsafeMutablePointer<Entry>.allocate(capacity: 0)
    @exclusivity(unchecked) private var entryCapacity = 0
    @exclusivity(unchecked) private var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    @exclusivity(unchecked) private var byteCapacity = 0
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private var stamp: UInt32 = 0
    @exclusivity(unchecked) private var positions = 0
    @exclusivity(unchecked) private var stride = 0

    /// For each group, the highest `2 × position + score of the shared steps from position` up to
    /// each position; `ceilingStamps` says which groups' are for this value.
    @exclusivity(unchecked) private var ceilings = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    @exclusivity(unchecked) private var ceilingStamps = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
    @exclusivity(unchecked) private var groupCapacity = 0
    /// The plans' `matchable` counts for the last few sets of bytes values had, most often the same
    /// few: computing them costs a pass over every format's leading literals.
    @exclusivity(unchecked) private var matchableCache: [MatchableCounts] = []
    @exclusivity(unchecked) private var nextReplaced = 0
    static let matchableCacheSize = 32

    deinit {
        entries.deinitialize(count: entryCapacity).deallocate()
        bytes.deallocate()
        ceilings.deallocate()
        ceilingStamps.deallocate()
    }

    /// `plan.matchable` for a value of these bytes.
    func matchable(_ plan: SharedSuffixPlan, _ input: UnsafeBufferPointer<UInt8>) -> [Int32] {
        var bytes = ASCIIBitmap()
        for byte in input { bytes.insert(byte) }
        bytes = bytes.intersection(plan.leadAlphabet)
        if let cached = matchableCache.first(where: { $0.plan === plan && $0.bytes == bytes }) {
            return cached.counts
        }
        let entry = (plan: plan, bytes: bytes, counts: plan.matchable(bytes))
        if matchableCache.count < Self.matchableCacheSize {
            matchableCache.append(entry)
        } else {
            matchableCache[nextReplaced] = entry
            nextReplaced = (nextReplaced + 1) % Self.matchableCacheSize
        }
        return entry.counts
    }

    /// The highest of `2 × p + score(p)` for the positions p up to `position`, where `score` is
    /// what the group's shared steps score from p (`fillCeilings`): bounds the score of a format
    /// of the group that consumes at most `position` characters with its leading literals. Nil
    /// until filled for this value.
    @inline(__always)
    func ceiling(_ group: Int, upTo position: Int) -> Int? {
        ceilingStamps[group] == stamp ? ceilings[group * positions + position] : nil
    }

    func fillCeilings(_ group: Int, _ score: (Int) -> Int) {
        var highest = Int.min
        for position in 0..<positions {
            highest = max(highest, 2 * position + score(position))
            ceilings[group * positions + position] = highest
        }
        ceilingStamps[group] = stamp
    }

    /// Forgets the last value's entries: those for a value of `positions − 1` characters whose
    /// shared steps write at most `stride` bytes each.
    func begin(groups: Int, positions: Int, stride: Int) {
        stamp &+= 1
        if stamp == 0 {
            entries.update(repeating: Entry(), count: entryCapacity)
            ceilingStamps.update(repeating: 0, count: groupCapacity)
            stamp = 1
        }
        if groupCapacity < groups {
            ceilingStamps.deallocate()
            ceilingStamps = .allocate(capacity: groups)
            ceilingStamps.initialize(repeating: 0, count: groups)
            groupCapacity = groups
        }
        if entryCapacity < groups * positions {
            ceilings.deallocate()
            ceilings = .allocate(capacity: groups * positions)
            entries.deinitialize(count: entryCapacity).deallocate()
            entryCapacity = groups * positions
            entries = .allocate(capacity: entryCapacity)
            entries.initialize(repeating: Entry(), count: entryCapacity)
        }
        self.positions = positions
        self.stride = stride
        used = 0
    }

    /// What the steps of `group` did with the value from `position` on, if walked yet.
    @inline(__always)
    func cached(_ group: Int, _ position: Int) -> Entry? {
        let entry = entries[group * positions + position]
        return entry.stamp == stamp ? entry : nil
    }

    /// Walks `program`'s steps from `start` (those of `group`) through `input` from `position`
    /// on, and keeps what they did for the value.
    func walk(
        _ group: Int, _ position: Int, _ program: Program, from start: Int,
        _ input: UnsafeBufferPointer<UInt8>, autocomplete: Bool
    ) -> Entry {
        // The formatted bytes are kept; the extracted ones go after them, overwritten next time.
        if byteCapacity < used + 2 * stride {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * (used + 2 * stride))
            grown.update(from: bytes, count: used)
            bytes.deallocate()
            bytes = grown
            byteCapacity = 2 * (used + 2 * stride)
        }
        let offset = used
        let counts = program.runSteps(
            from: start, UnsafeBufferPointer(rebasing: input[position...]), autocomplete: autocomplete,
            formatted: bytes + offset, extracted: bytes + offset + stride)
        used += stride
        let entry = Entry(
            affinity: counts.affinity, dropped: counts.droppedDataCharacters,
            extracted: counts.extractedByteCount, formatted: counts.formattedByteCount, offset: offset,
            complete: counts.complete, stamp: stamp)
        entries[group * positions + position] = entry
        return entry
    }

    /// The common start of an entry's formatted bytes and `input` from `position` on.
    func commonStart(_ entry: Entry, _ input: UnsafeBufferPointer<UInt8>, from position: Int) -> Int {
        commonPrefixCount(
            UnsafeBufferPointer(start: bytes + entry.offset, count: entry.formatted),
            UnsafeBufferPointer(rebasing: input[position...]))
    }
}
