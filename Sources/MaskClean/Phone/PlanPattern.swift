/// A regular expression of the numbering plan (`NumberingPlanData.swift`), in the small language
/// libphonenumber's metadata writes them in: digits, `\d`, classes of digits (`[2-46-9]`), groups
/// (`( )` capturing, `(?: )` not), `|`, the counts `?`, `*`, `+`, `{n}` and `{n,m}`, and `$`.
/// Anything else is refused, so a new construct in a new release of the data cannot be misread.
///
/// A pattern is parsed into a tree (`Node`) and compiled into a program (`program`), which is all
/// it keeps: a tree of indirect enum cases, kept for the life of the process, would hold its
/// boxes through tagged pointers that a leak checker cannot follow. Two uses: `NumberAutomaton`
/// makes the programs of a country code's patterns one automaton, and `prefixMatch` runs the few
/// that need their groups (a national prefix and its transformation, an international prefix)
/// the way libphonenumber's Java regular expressions do.
struct PlanPattern: Sendable {
    indirect enum Node: Sendable {
        /// One digit among a set (bit d for digit d).
        case digits(UInt16)
        case sequence([Node])
        case alternation([Node])
        /// A group; `capture` is its number (1…) when it captures.
        case group(Node, capture: Int?)
        /// `max` nil: no bound.
        case repetition(Node, min: Int, max: Int?)
        /// `$`: the end of the number.
        case end
    }

    let text: String
    let captureCount: Int
    /// The digits a match starts with (bit d: digit d); nil when the pattern matches nothing at
    /// all, so that a number starting with another digit is refused without a match.
    let firstDigits: UInt16?
    /// The pattern compiled for `prefixMatch`.
    let program: [Operation]

    init(_ text: String) throws(PlanPatternError) {
        var parser = Parser(bytes: Array(text.utf8))
        let root = try parser.alternation()
        guard parser.index == parser.bytes.count else {
            throw PlanPatternError(pattern: text, offset: parser.index)
        }
        self.text = text
        captureCount = parser.captures
        let (first, nullable) = Self.first(root)
        guard !Self.repeatsEmpty(root) else { throw PlanPatternError(pattern: text, offset: 0) }
        firstDigits = nullable ? nil : first
        program = Self.program(root)
    }

    /// Whether `node` repeats without bound something that can match nothing: a program that
    /// could loop without reading a digit, refused.
    private static func repeatsEmpty(_ node: Node) -> Bool {
        switch node {
        case .digits, .end: false
        case .group(let inner, _): repeatsEmpty(inner)
        case .sequence(let nodes), .alternation(let nodes): nodes.contains(where: repeatsEmpty)
        case .repetition(let inner, _, let maximum): (maximum == nil && first(inner).1) || repeatsEmpty(inner)
        }
    }

    /// The digits a match of `node` can start with, and whether it matches the empty string.
    private static func first(_ node: Node) -> (UInt16, Bool) {
        switch node {
        case .digits(let set): return (set, false)
        case .end: return (0, true)
        case .group(let inner, _): return first(inner)
        case .repetition(let inner, let minimum, _):
            let (set, nullable) = first(inner)
            return (set, nullable || minimum == 0)
        case .alternation(let choices):
            return choices.map(first).reduce((0, false)) { ($0.0 | $1.0, $0.1 || $1.1) }
        case .sequence(let nodes):
            var set: UInt16 = 0
            for node in nodes {
                let (next, nullable) = first(node)
                set |= next
                if !nullable { return (set, false) }
            }
            return (set, true)
        }
    }

    /// The pattern matched at the start of `digits` (ASCII digits), Java's `lookingAt`: the first
    /// match in the order a backtracking matcher tries (alternatives left to right, counts greedy),
    /// with each capturing group's range (nil when the group took no part).
    ///
    /// The pattern runs as a program (`program`) on an explicit stack of choices to come back to
    /// and captures to restore, which tries alternatives in the same order as Java's recursive
    /// matcher, so that both find the same first match.
    func prefixMatch(_ digits: UnsafeBufferPointer<UInt8>) -> (end: Int, captures: [Range<Int>?])? {
        if let firstDigits {
            guard let byte = digits.first, (0x30...0x39).contains(byte),
                firstDigits & (1 << (byte - 0x30)) != 0
            else { return nil }
        }
        var slots = Array(repeating: -1, count: 2 * captureCount)
        /// A choice to come back to (`slot` < 0), or a capture to restore when backtracking past it.
        var stack: [(target: Int, position: Int, slot: Int)] = []
        stack.reserveCapacity(32)
        var pc = 0
        var position = 0
        while true {
            var failed = false
            switch program[pc] {
            case .digits(let set):
                if position < digits.count, case let digit = Int(digits[position]) &- 0x30,
                    (0...9).contains(digit),
                    set & (1 << digit) != 0
                {
                    pc += 1
                    position += 1
                } else {
                    failed = true
                }
            case .split(let preferred, let other):
                stack.append((other, position, -1))
                pc = preferred
            case .jump(let target):
                pc = target
            case .save(let slot):
                stack.append((slots[slot], 0, slot))
                slots[slot] = position
                pc += 1
            case .end:
                if position == digits.count { pc += 1 } else { failed = true }
            case .match:
                let captures = (0..<captureCount).map { group in
                    slots[2 * group] >= 0 && slots[2 * group + 1] >= 0
                        ? slots[2 * group]..<slots[2 * group + 1] : nil
                }
                return (position, captures)
            }
            guard failed else { continue }
            while true {
                guard let (target, at, slot) = stack.popLast() else { return nil }
                if slot >= 0 {
                    slots[slot] = target
                    continue
                }
                pc = target
                position = at
                break
            }
        }
    }

    /// `lookingAt` only, without the groups.
    func matchesPrefix(of digits: UnsafeBufferPointer<UInt8>) -> Bool { prefixMatch(digits) != nil }

    /// One step of the program `prefixMatch` runs.
    enum Operation: Sendable {
        case digits(UInt16)
        /// Try `preferred`; on failure, come back and try `other`.
        case split(preferred: Int, other: Int)
        case jump(Int)
        /// Record the position in capture slot n (group g's start is 2(g-1), its end 2(g-1)+1).
        case save(Int)
        case end
        case match
    }

    /// The pattern as a program: Thompson's construction with the order of choices kept (the
    /// earlier alternative, the longer count, first).
    static func program(_ root: Node) -> [Operation] {
        var program: [Operation] = []
        func emit(_ node: Node) {
            switch node {
            case .digits(let set): program.append(.digits(set))
            case .end: program.append(.end)
            case .sequence(let nodes): nodes.forEach(emit)
            case .group(let inner, let capture):
                if let capture { program.append(.save(2 * (capture - 1))) }
                emit(inner)
                if let capture { program.append(.save(2 * (capture - 1) + 1)) }
            case .alternation(let choices):
                var jumps: [Int] = []
                for (index, choice) in choices.enumerated() {
                    let split = program.count
                    if index < choices.count - 1 { program.append(.jump(-1)) }
                    emit(choice)
                    if index < choices.count - 1 {
                        jumps.append(program.count)
                        program.append(.jump(-1))
                        program[split] = .split(preferred: split + 1, other: program.count)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repetition(let inner, let minimum, let maximum):
                for _ in 0..<minimum { emit(inner) }
                if let maximum {
                    // Each optional one greedy: taken if the rest still matches.
                    var exits: [Int] = []
                    for _ in minimum..<maximum {
                        exits.append(program.count)
                        program.append(.jump(-1))
                        emit(inner)
                    }
                    for exit in exits { program[exit] = .split(preferred: exit + 1, other: program.count) }
                } else {
                    let loop = program.count
                    program.append(.jump(-1))
                    emit(inner)
                    program.append(.jump(loop))
                    program[loop] = .split(preferred: loop + 1, other: program.count)
                }
            }
        }
        emit(root)
        program.append(.match)
        return program
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var captures = 0

        var next: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func alternation() throws(PlanPatternError) -> Node {
            var choices = [try sequence()]
            while next == UInt8(ascii: "|") {
                index += 1
                choices.append(try sequence())
            }
            return choices.count == 1 ? choices[0] : .alternation(choices)
        }

        mutating func sequence() throws(PlanPatternError) -> Node {
            var nodes: [Node] = []
            while let byte = next, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                nodes.append(try counted(try atom()))
            }
            return nodes.count == 1 ? nodes[0] : .sequence(nodes)
        }

        mutating func atom() throws(PlanPatternError) -> Node {
            let start = index
            switch next {
            case let byte? where (0x30...0x39).contains(byte):
                index += 1
                return .digits(1 << UInt16(byte - 0x30))
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "d") else {
                    throw error(start)
                }
                index += 2
                return .digits(0x3FF)
            case UInt8(ascii: "$"):
                index += 1
                return .end
            case UInt8(ascii: "["):
                index += 1
                var set: UInt16 = 0
                while let byte = next, byte != UInt8(ascii: "]") {
                    guard (0x30...0x39).contains(byte) else { throw error(index) }
                    var last = byte
                    if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                        last = bytes[index + 2]
                        guard (byte...0x39).contains(last) else { throw error(index) }
                        index += 2
                    }
                    for digit in byte...last { set |= 1 << UInt16(digit - 0x30) }
                    index += 1
                }
                guard next == UInt8(ascii: "]"), set != 0 else { throw error(start) }
                index += 1
                return .digits(set)
            case UInt8(ascii: "("):
                index += 1
                var capture: Int?
                if next == UInt8(ascii: "?") {
                    guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":") else {
                        throw error(start)
                    }
                    index += 2
                } else {
                    captures += 1
                    capture = captures
                }
                let inner = try alternation()
                guard next == UInt8(ascii: ")") else { throw error(start) }
                index += 1
                return .group(inner, capture: capture)
            default:
                throw error(start)
            }
        }

        mutating func counted(_ atom: Node) throws(PlanPatternError) -> Node {
            switch next {
            case UInt8(ascii: "?"):
                index += 1
                return .repetition(atom, min: 0, max: 1)
            case UInt8(ascii: "*"):
                index += 1
                return .repetition(atom, min: 0, max: nil)
            case UInt8(ascii: "+"):
                index += 1
                return .repetition(atom, min: 1, max: nil)
            case UInt8(ascii: "{"):
                let start = index
                index += 1
                let low = number()
                var high = low
                if next == UInt8(ascii: ",") {
                    index += 1
                    high = number()
                }
                guard let low, let high, low <= high, next == UInt8(ascii: "}") else { throw error(start) }
                index += 1
                return .repetition(atom, min: low, max: high)
            default:
                return atom
            }
        }

        mutating func number() -> Int? {
            var value: Int?
            while let byte = next, (0x30...0x39).contains(byte), (value ?? 0) < 1000 {
                value = (value ?? 0) * 10 + Int(byte - 0x30)
                index += 1
            }
            return value
        }

        func error(_ offset: Int) -> PlanPatternError {
            PlanPatternError(pattern: String(decoding: bytes, as: UTF8.self), offset: offset)
        }
    }
}

/// A numbering-plan pattern outside the language `PlanPattern` reads: the table is wrong, never
/// the user's input.
struct PlanPatternError: Error, Equatable {
    var pattern: String
    var offset: Int
}
