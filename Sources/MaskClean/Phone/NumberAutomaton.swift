import MaskEngine

/// Every pattern of one country code's regions, compiled into one deterministic automaton over a
/// national number's digits, so that a number is read once, digit by digit, with no regular
/// expression run per cell. Each state knows everything libphonenumber would conclude about a
/// number that ends there (`Outcome`): which region it belongs to, whether it is valid there,
/// which of its regions' general patterns it fits, which format writes it, and whether more
/// digits could still make it valid.
///
/// The automaton is built by the subset construction from one nondeterministic automaton holding
/// every pattern at once. A pattern matched as a whole (a region's general pattern, a type's
/// pattern, a format's pattern) is known by its accepting state being in the set; a pattern matched
/// at the start only (`lookingAt`: a region's or a format's leading digits) sets a bit that stays
/// set. A state also knows how many digits led to it, for the lengths each type allows; numbers
/// longer than 17 digits are never valid (libphonenumber's limit) and end in the dead state.
final class NumberAutomaton: Sendable {
    struct Outcome: Sendable {
        /// The region of the number among the code's regions (`regions`' index); -1: none.
        var region: Int8 = -1
        /// Valid in that region: its general pattern and one type's pattern and length.
        var valid = false
        /// More digits could make a valid number (whatever its region).
        var live = false
        /// The format for national and for international numbers (the main region's `formats`'
        /// index); -1: none, the number is written as it is.
        var nationalFormat: Int16 = -1
        var internationalFormat: Int16 = -1
        /// Bit i: the number fits region i's general pattern, whatever its length (libphonenumber's
        /// test of whether a number is "viable" while it takes a national prefix off).
        var viable: UInt64 = 0
    }

    static let maximumLength = 17

    let callingCode: Int
    /// `44`, as text.
    let callingCodeText: [UInt8]
    let regions: [RegionPlan]
    /// The region whose formats numbers of this code are written with: the first.
    var main: RegionPlan { regions[0] }
    private let transitions: [Int32]
    private let outcomes: [Outcome]
    private let start: Int32
    /// The lengths of the code's numbers (bit n: n digits), local ones too.
    let lengths: UInt32

    var stateCount: Int { outcomes.count }

    init(callingCode: Int, regions: [RegionPlan]) {
        self.callingCode = callingCode
        self.callingCodeText = Array(String(callingCode).utf8)
        self.regions = regions
        var builder = Builder(regions: regions)
        (transitions, outcomes, start) = builder.build()
        lengths = regions.reduce(0) { $0 | $1.lengths | $1.localOnlyLengths }
    }

    /// What libphonenumber concludes of the national number `digits` (ASCII digits).
    func outcome(_ digits: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard digits.count <= Self.maximumLength else { return outcomes[0] }
        var state = Int(start)
        transitions.withUnsafeBufferPointer { next in
            for byte in digits { state = Int(next[state &* 10 &+ Int(byte &- 0x30)]) }
        }
        return outcomes[state]
    }

    /// The building: the nondeterministic automaton, then the subset construction.
    private struct Builder {
        let regions: [RegionPlan]
        // The nondeterministic automaton: a state consumes a digit of `digitSets` (then goes to
        // `targets`), or moves on without one (`epsilons`), or accepts `accepts` (a component).
        var digitSets: [UInt16] = []
        var targets: [Int32] = []
        /// The moves without a digit, as pairs while the automaton is built, then grouped by
        /// state (`moveStarts`: state i's are `moveTargets[moveStarts[i]..<moveStarts[i + 1]]`).
        var moveFrom: [Int32] = []
        var moveTo: [Int32] = []
        var moveStarts: [Int32] = []
        var moveTargets: [Int32] = []
        var accepts: [Int32] = []
        var components: [Component] = []
        var starts: [Int32] = []

        struct Component {
            var role: Role
            /// Matched at the start only: its bit in `Key.sticky`; -1: matched whole.
            var stickyBit: Int
        }

        enum Role {
            case general(region: Int)
            case type(region: Int, lengths: UInt32)
            case regionLeading(region: Int)
            case formatLeading(format: Int)
            case formatPattern(format: Int)
        }

        struct Key: Hashable {
            /// The consuming and accepting states, sorted.
            var states: [Int32]
            var sticky: (UInt64, UInt64)
            var depth: Int

            static func == (left: Key, right: Key) -> Bool {
                left.states == right.states && left.sticky == right.sticky && left.depth == right.depth
            }

            func hash(into hasher: inout Hasher) {
                hasher.combine(states)
                hasher.combine(sticky.0)
                hasher.combine(sticky.1)
                hasher.combine(depth)
            }
        }

        init(regions: [RegionPlan]) {
            self.regions = regions
        }

        mutating func build() -> (transitions: [Int32], outcomes: [NumberAutomaton.Outcome], start: Int32) {
            var stickyCount = 0
            func add(_ pattern: PlanPattern, _ role: Role, sticky: Bool) {
                let (start, accept) = states(of: pattern.program)
                accepts[Int(accept)] = Int32(components.count)
                components.append(Component(role: role, stickyBit: sticky ? stickyCount : -1))
                if sticky { stickyCount += 1 }
                starts.append(start)
            }
            for (index, region) in regions.enumerated() {
                if let general = region.general { add(general, .general(region: index), sticky: false) }
                // Types with the same pattern (a plan's fixed-line and mobile numbers often are)
                // are one component, valid at the lengths of either.
                var lengthsByPattern: [String: UInt32] = [:]
                var patterns: [PlanPattern] = []
                for type in region.types {
                    if lengthsByPattern[type.pattern.text] == nil { patterns.append(type.pattern) }
                    lengthsByPattern[type.pattern.text, default: 0] |= type.lengths
                }
                for pattern in patterns {
                    add(
                        pattern, .type(region: index, lengths: lengthsByPattern[pattern.text]!), sticky: false
                    )
                }
                if regions.count > 1, let leading = region.leadingDigits {
                    add(leading, .regionLeading(region: index), sticky: true)
                }
            }
            for (index, format) in regions[0].formats.enumerated() {
                add(format.pattern, .formatPattern(format: index), sticky: false)
                if let leading = format.leadingDigits {
                    add(leading, .formatLeading(format: index), sticky: true)
                }
            }
            precondition(stickyCount <= 128, "numbering plan: more than 128 leading-digit patterns")

            // The subset construction; state 0 is the dead state. A set of states moves on by
            // a digit to the union of its members' targets' closures, each closure made once; the
            // digits that lead to the same targets (all ten, after `\d`) share one union.
            groupMoves()
            var closures = Closures(count: digitSets.count)
            var keys: [Key] = [Key(states: [], sticky: (0, 0), depth: 0)]
            var index: [Key: Int32] = [keys[0]: 0]
            var transitions: [Int32] = Array(repeating: 0, count: 20)
            let startKey = union(of: starts, sticky: (0, 0), depth: 0, &closures)
            index[startKey] = 1
            keys.append(startKey)
            var pending = 1
            var nextByDigit: [[Int32]] = Array(repeating: [], count: 10)
            while pending < keys.count {
                let key = keys[pending]
                guard !key.states.isEmpty else {
                    // No pattern left to follow: the number stays where it is, whatever follows.
                    for digit in 0..<10 { transitions[pending * 10 + digit] = Int32(pending) }
                    pending += 1
                    continue
                }
                for digit in 0..<10 { nextByDigit[digit].removeAll(keepingCapacity: true) }
                if key.depth < NumberAutomaton.maximumLength {
                    for state in key.states {
                        let set = digitSets[Int(state)]
                        guard set != 0 else { continue }
                        for digit in 0..<10 where set & (1 << digit) != 0 {
                            nextByDigit[digit].append(targets[Int(state)])
                        }
                    }
                }
                for digit in 0..<10 {
                    if let same = (0..<digit).first(where: { nextByDigit[$0] == nextByDigit[digit] }) {
                        transitions[pending * 10 + digit] = transitions[pending * 10 + same]
                        continue
                    }
                    let nextKey = union(
                        of: nextByDigit[digit], sticky: key.sticky, depth: key.depth + 1, &closures)
                    let target: Int32
                    if nextKey.states.isEmpty && nextKey.sticky == (0, 0) {
                        target = 0
                    } else if let known = index[nextKey] {
                        target = known
                    } else {
                        target = Int32(keys.count)
                        index[nextKey] = target
                        keys.append(nextKey)
                        transitions.append(contentsOf: repeatElement(0, count: 10))
                    }
                    transitions[pending * 10 + digit] = target
                }
                pending += 1
            }
            return (transitions, outcomes(keys, transitions), 1)
        }

        /// Each state's closure, made on first use.
        struct Closures {
            var states: [[Int32]?]
            var sticky: [(UInt64, UInt64)]
            /// Which states the closure being made has reached: those marked `stamp`.
            var marks: [Int]
            var stamp = 0

            init(count: Int) {
                states = Array(repeating: nil, count: count)
                sticky = Array(repeating: (0, 0), count: count)
                marks = Array(repeating: 0, count: count)
            }
        }

        /// The key of the states reached without consuming from any of `states`.
        func union(of states: [Int32], sticky: (UInt64, UInt64), depth: Int, _ closures: inout Closures)
            -> Key
        {
            var kept: [Int32] = []
            var sticky = sticky
            for state in states {
                let position = Int(state)
                if closures.states[position] == nil {
                    (closures.states[position], closures.sticky[position]) = closure(of: state, &closures)
                }
                kept += closures.states[position]!
                sticky.0 |= closures.sticky[position].0
                sticky.1 |= closures.sticky[position].1
            }
            if states.count > 1 {
                kept.sort()
                var unique = 0
                for position in kept.indices where unique == 0 || kept[position] != kept[unique - 1] {
                    kept[unique] = kept[position]
                    unique += 1
                }
                kept.removeLast(kept.count - unique)
            }
            return Key(states: kept, sticky: sticky, depth: kept.isEmpty ? 0 : depth)
        }

        /// The consuming and accepting states reached from `start` without consuming, sorted; a
        /// leading-digits pattern's accepting state sets its sticky bit instead.
        func closure(of start: Int32, _ closures: inout Closures) -> ([Int32], (UInt64, UInt64)) {
            closures.stamp += 1
            let stamp = closures.stamp
            var stack = [start]
            var kept: [Int32] = []
            var sticky: (UInt64, UInt64) = (0, 0)
            while let state = stack.popLast() {
                let position = Int(state)
                guard closures.marks[position] != stamp else { continue }
                closures.marks[position] = stamp
                if digitSets[position] != 0 { kept.append(state) }
                let component = accepts[position]
                if component >= 0 {
                    let bit = components[Int(component)].stickyBit
                    if bit < 0 {
                        kept.append(state)
                    } else if bit < 64 {
                        sticky.0 |= 1 << UInt64(bit)
                    } else {
                        sticky.1 |= 1 << UInt64(bit - 64)
                    }
                }
                stack += moveTargets[Int(moveStarts[position])..<Int(moveStarts[position + 1])]
            }
            kept.sort()
            return (kept, sticky)
        }

        func isSticky(_ bit: Int, _ sticky: (UInt64, UInt64)) -> Bool {
            bit < 64 ? sticky.0 & (1 << UInt64(bit)) != 0 : sticky.1 & (1 << UInt64(bit - 64)) != 0
        }

        /// Each state's outcome, then whether a valid number can still be reached from it.
        func outcomes(_ keys: [Key], _ transitions: [Int32]) -> [NumberAutomaton.Outcome] {
            var leadingBit = Array(repeating: -1, count: regions.count)
            var formatLeadingBit = Array(repeating: -1, count: regions[0].formats.count)
            for component in components {
                switch component.role {
                case .regionLeading(let region): leadingBit[region] = component.stickyBit
                case .formatLeading(let format): formatLeadingBit[format] = component.stickyBit
                default: break
                }
            }
            let international = regions[0].formats.map { format in
                !regions[0].hasInternationalFormats || format.international != .none
            }
            var outcomes: [NumberAutomaton.Outcome] = []
            outcomes.reserveCapacity(keys.count)
            for key in keys {
                var general = Array(repeating: false, count: regions.count)
                var typed = Array(repeating: false, count: regions.count)
                var formatMatches = Array(repeating: false, count: regions[0].formats.count)
                let lengthBit: UInt32 = key.depth < 32 ? 1 << UInt32(key.depth) : 0
                for state in key.states where accepts[Int(state)] >= 0 {
                    switch components[Int(accepts[Int(state)])].role {
                    case .general(let region): general[region] = true
                    case .type(let region, let lengths): if lengths & lengthBit != 0 { typed[region] = true }
                    case .formatPattern(let format): formatMatches[format] = true
                    default: break
                    }
                }
                var outcome = NumberAutomaton.Outcome()
                for (region, plan) in regions.enumerated() {
                    if general[region] && region < 64 { outcome.viable |= 1 << UInt64(region) }
                    let valid = general[region] && plan.lengths & lengthBit != 0 && typed[region]
                    if outcome.region < 0
                        && (regions.count == 1 || valid
                            || (leadingBit[region] >= 0 && isSticky(leadingBit[region], key.sticky)))
                    {
                        outcome.region = Int8(region)
                        outcome.valid = valid
                    }
                }
                for format in formatMatches.indices where formatMatches[format] {
                    let bit = formatLeadingBit[format]
                    guard bit < 0 || isSticky(bit, key.sticky) else { continue }
                    if outcome.nationalFormat < 0 { outcome.nationalFormat = Int16(format) }
                    if outcome.internationalFormat < 0 && international[format] {
                        outcome.internationalFormat = Int16(format)
                    }
                }
                outcome.live = outcome.valid
                outcomes.append(outcome)
            }
            // A state is live when a valid one is reached from it: states only lead to deeper ones
            // (or to themselves, when dead), so passes as many as the depth settle it.
            var changed = true
            while changed {
                changed = false
                for state in outcomes.indices where !outcomes[state].live {
                    for digit in 0..<10 {
                        let next = Int(transitions[state * 10 + digit])
                        if next != state && outcomes[next].live {
                            outcomes[state].live = true
                            changed = true
                            break
                        }
                    }
                }
            }
            return outcomes
        }

        mutating func link(_ from: Int32, _ to: Int32) {
            moveFrom.append(from)
            moveTo.append(to)
        }

        /// Groups the moves by state, for the closures.
        mutating func groupMoves() {
            moveStarts = Array(repeating: 0, count: digitSets.count + 1)
            for from in moveFrom { moveStarts[Int(from) + 1] += 1 }
            for state in 0..<digitSets.count { moveStarts[state + 1] += moveStarts[state] }
            var next = moveStarts
            moveTargets = Array(repeating: 0, count: moveTo.count)
            for (from, to) in zip(moveFrom, moveTo) {
                moveTargets[Int(next[Int(from)])] = to
                next[Int(from)] += 1
            }
            moveFrom = []
            moveTo = []
        }

        mutating func newState() -> Int32 {
            digitSets.append(0)
            targets.append(-1)
            accepts.append(-1)
            return Int32(digitSets.count - 1)
        }

        /// The pattern's program (`PlanPattern.program`, Thompson's construction already) as
        /// states: one per step, a digit step consuming, the others moving on without one; its
        /// start and accepting states.
        mutating func states(of program: [PlanPattern.Operation]) -> (start: Int32, accept: Int32) {
            let base = Int32(digitSets.count)
            var accept: Int32 = -1
            for (step, operation) in program.enumerated() {
                let state = newState()
                switch operation {
                case .digits(let set):
                    digitSets[Int(state)] = set
                    targets[Int(state)] = base + Int32(step + 1)
                case .split(let preferred, let other):
                    link(state, base + Int32(preferred))
                    link(state, base + Int32(other))
                case .jump(let target): link(state, base + Int32(target))
                case .save: link(state, base + Int32(step + 1))
                case .end: preconditionFailure("numbering plan: `$` in a pattern the automaton compiles")
                case .match: accept = state
                }
            }
            return (base, accept)
        }
    }
}
