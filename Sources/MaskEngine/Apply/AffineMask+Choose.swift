/// The affine choice's fast path: it picks the format the rule picks without walking every
/// format.
///
/// The rule (docs/mask-syntax.md, and its slow twin `referenceChoice` in the engine's tests,
/// which the fast path is checked against): walk the value through every format, score each
/// result by the strategy, take the highest score, the format listed first on a tie.
///
/// The pruning invariant: a format is skipped, never walked, only when its score cannot be
/// higher than the best so far. Then it could at most tie, and a tie goes to the format listed
/// earlier, which is the best so far, so skipping it never changes the choice. Three things
/// prove a format cannot beat the best (each strategy's own terms are in `AffinityChoice.swift`):
///
/// - its bound: `ceiling` is at least its score, so `ceiling <= best` means it cannot win. The
///   bound of the formats from here on (`consumableFrom`) ends the loop at once when no later
///   format can win either;
/// - its twin: an earlier format sharing its first steps, through which the value's walk never
///   went past them, walks the value the same way, and `tiesWithTwin` says when that leaves it
///   scoring at most what the twin scored, which is at most the best;
/// - its group (`SharedSuffixPlan`): its score, worked out from its leading literals and what
///   the group's shared steps did with the rest of the value, or bounded from them.
///
/// A format that is not skipped is walked and scored exactly as the rule says.
extension AffineMask {
    /// Tries the formats in order, keeping the best so far, skipping those that cannot beat it.
    @inline(__always)
    func chooseByWalking<Choice: WalkedChoice, Walk: ProgramWalk, Mode: PlanMode>(
        _ input: UnsafeBufferPointer<UInt8>, plain: Bool, _ plan: SharedSuffixPlan?, _ buffer: ApplyBuffer,
        _: Choice.Type, _: Walk.Type, _: Mode.Type
    ) -> CellOutcome {
        let trials = buffer.trials(programs.count)
        // Unmanaged, so that consulting them for each format costs no reference counting; the
        // mask keeps the plan alive, the buffer the memo.
        let sharing = (Mode.hasPlan ? plan : nil).map { plan in
            let memo = buffer.suffixMemo
            memo.begin(
                groups: plan.groupCount, positions: input.count + 1, stride: input.count + literalByteCount)
            return (
                formats: plan.formats, plan: Unmanaged.passUnretained(plan),
                memo: Unmanaged.passUnretained(memo)
            )
        }
        // For group bounds: how many of each format's leading literals the value could match,
        // fetched when first needed.
        var matchable: [Int32] = []
        // For bestStatus's ceiling: the value's letters and digits, counted when first needed.
        var dataCharacters = -1
        var chosen = 0
        var best = Int.min
        var bestCounts: ApplyCounts?
        for index in programs.indices {
            if index > 0 {
                if Choice.bound(consumable: consumableFrom[index], characters: input.count, plain: plain)
                    <= best
                {
                    break
                }
                let ceiling = programs[index]._withUnsafeGuaranteedRef { program in
                    Choice.ceiling(of: program, input, plain: plain, &dataCharacters)
                }
                if ceiling <= best || twinTies(Choice.self, twins[index], trials, plain: plain) {
                    trials[index].reach = Int.max
                    continue
                }
                if let sharing, sharing.formats[index].group >= 0,
                    let score = sharing.plan._withUnsafeGuaranteedRef({ plan in
                        sharing.memo._withUnsafeGuaranteedRef { memo in
                            sharedScore(Choice.self, index, plan, input, memo, best: best, &matchable)
                        }
                    })
                {
                    // Not walked: no format's twin test may rely on its reach.
                    trials[index].reach = Int.max
                    if score <= best { continue }
                }
            }
            let (counts, score) = programs[index]._withUnsafeGuaranteedRef { program in
                let counts = buffer.applyToSpare(program, input, autocomplete, plain, Walk.self)
                return (counts, Choice.score(counts, of: program, input: input, buffer: buffer))
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
        // The primary format is always walked (index 0 is never skipped), so there is a best.
        return CellOutcome(chosen: chosen, counts: bestCounts!)
    }

    /// Whether the value's walk through the format's twin stayed within their shared steps, and
    /// what the twin scored then bounds this format's score (`WalkedChoice.tiesWithTwin`).
    @inline(__always)
    private func twinTies<Choice: WalkedChoice>(
        _: Choice.Type, _ twin: Twin, _ trials: UnsafeMutablePointer<FormatTrial>, plain: Bool
    ) -> Bool {
        guard twin.sharedSteps > 0 else { return false }
        let trial = trials[twin.format]
        guard trial.reach <= twin.sharedSteps else { return false }
        return Choice.tiesWithTwin(trial, plain: plain)
    }

    /// The score of `programs[index]`, of a `plan` group, for a plain value: its leading literals
    /// walked here, then what the group's shared steps did with the rest of the value (walked
    /// once a value for each position they start from). Nil when the value ends among them.
    /// Walking a leading literal follows input-mask's rules, the only ones a plan holds
    /// (`Program.leadingLiteralRun`): a byte it matches is consumed, else the literal is inserted.
    @inline(__always)
    private func sharedScore<Choice: WalkedChoice>(
        _: Choice.Type, _ index: Int, _ plan: SharedSuffixPlan, _ input: UnsafeBufferPointer<UInt8>,
        _ memo: SuffixMemo, best: Int, _ matchable: inout [Int32]
    ) -> Int? {
        if Choice.boundsGroups {
            // Bounded first: most formats of a group cannot beat the best, and are not walked.
            if matchable.isEmpty { matchable = memo.matchable(plan, input) }
            let ceiling = sharedCeiling(Choice.self, index, Int(matchable[index]), plan, input, memo)
            if ceiling <= best { return ceiling }
        }
        let format = plan.formats[index]
        let lead = Int(format.lead)
        let leads = plan.leads + Int(format.leadStart)
        var affinity = 0
        var position = 0
        var extracted = 0
        guard let bytes = input.baseAddress else { return nil }
        for offset in 0..<lead {
            guard position < input.count else { return nil }
            let step = leads[offset]
            let unit = bytes[position]
            let written: UInt8
            // A literal that matches consumes the byte; one that does not is inserted.
            if step.accepts.contains(unit) {
                affinity &+= 1
                position &+= 1
                written = unit
            } else {
                affinity &-= 1
                written = step.literal
            }
            if step.fixed { extracted &+= 1 }
            // Where the formatted value first differs from the value: the score, for prefix.
            if Choice.endsAtFirstDifference && (offset >= input.count || bytes[offset] != written) {
                return offset
            }
        }
        let group = Int(format.group)
        let rest = memo.cached(group, position) ?? walkShared(group, from: position, plan, input, memo)
        return Choice.sharedScore(
            LeadWalk(literals: lead, affinity: affinity, extracted: extracted), rest, format, input, memo)
    }

    /// The most `programs[index]`, of a `plan` group, can score for a plain value when at most
    /// `matchable` of its leading literals can match a character of it: consuming p characters
    /// there, it inserts its other leading literals, scoring `2p − lead` before the shared steps
    /// score from p. A value its leading literals might consume whole is walked, not bounded.
    @inline(__always)
    private func sharedCeiling<Choice: WalkedChoice>(
        _: Choice.Type, _ index: Int, _ matchable: Int, _ plan: SharedSuffixPlan,
        _ input: UnsafeBufferPointer<UInt8>, _ memo: SuffixMemo
    ) -> Int {
        guard matchable < input.count else { return Int.max }
        let format = plan.formats[index]
        let group = Int(format.group)
        let highest =
            memo.ceiling(group, upTo: matchable)
            ?? fillCeilings(Choice.self, group, upTo: matchable, plan, input, memo)
        return highest - Int(format.lead)
    }

    @inline(never)
    private func fillCeilings<Choice: WalkedChoice>(
        _: Choice.Type, _ group: Int, upTo matchable: Int, _ plan: SharedSuffixPlan,
        _ input: UnsafeBufferPointer<UInt8>, _ memo: SuffixMemo
    ) -> Int {
        memo.fillCeilings(group) { position in
            Choice.groupCeiling(
                memo.cached(group, position) ?? self.walkShared(group, from: position, plan, input, memo))
        }
        return memo.ceiling(group, upTo: matchable)!
    }

    /// What a group's shared steps do with the value from `position` on, walked in the group's
    /// representative and kept for the group's other formats.
    @inline(never)
    private func walkShared(
        _ group: Int, from position: Int, _ plan: SharedSuffixPlan, _ input: UnsafeBufferPointer<UInt8>,
        _ memo: SuffixMemo
    ) -> SuffixMemo.Entry {
        let representative = plan.representatives[group]
        return programs[representative]._withUnsafeGuaranteedRef {
            memo.walk(
                group, position, $0, from: Int(plan.formats[representative].lead), input,
                autocomplete: autocomplete)
        }
    }
}

/// Whether the affine choice consults a `SharedSuffixPlan`, as a type: the loop is compiled for
/// each, so that the columns of a few formats pay nothing for the plan.
protocol PlanMode { static var hasPlan: Bool { get } }
enum WithPlan: PlanMode { static var hasPlan: Bool { true } }
enum WithoutPlan: PlanMode { static var hasPlan: Bool { false } }

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
