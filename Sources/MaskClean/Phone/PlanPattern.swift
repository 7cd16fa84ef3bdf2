/// A regular expression of the numbering plan (`NumberingPlanData.swift`), in the small language
/// libphonenumber's metadata writes them in: digits, `\d`, classes of digits (`[2-46-9]`), groups
/// (`( )` capturing, `(?: )` not), `|`, the counts `?`, `*`, `+`, `{n}` and `{n,m}`, and `$`.
/// Anything else is refused, so a new construct in a new release of the data cannot be misread.
///
/// Two uses: `NumberAutomaton` compiles the patterns of a country code into one automaton, and
/// `prefixMatch` runs the few that need their groups (a national prefix and its transformation,
/// an international prefix) the way libphonenumber's Java regular expressions do.
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
    let root: Node
    let captureCount: Int
    /// The digits a match starts with (bit d: digit d); nil when the pattern matches nothing at
    /// all, so that a number starting with another digit is refused without a match.
    let firstDigits: UInt16?

    init(_ text: String) throws(PlanPatternError) {
        var parser = Parser(bytes: Array(text.utf8))
        root = try parser.alternation()
        guard parser.index == parser.bytes.count else {
            throw PlanPatternError(pattern: text, offset: parser.index)
        }
        self.text = text
        captureCount = parser.captures
        let (first, nullable) = Self.first(root)
        firstDigits = nullable ? nil : first
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
    /// match in the order a backtracking matcher tries (groups left to right, counts greedy), with
    /// each capturing group's range (nil when the group took no part).
    func prefixMatch(_ digits: UnsafeBufferPointer<UInt8>) -> (end: Int, captures: [Range<Int>?])? {
        if let firstDigits {
            guard let byte = digits.first, (0x30...0x39).contains(byte),
                firstDigits & (1 << (byte - 0x30)) != 0
            else { return nil }
        }
        let matcher = Matcher(digits: digits, captures: Array(repeating: nil, count: captureCount + 1))
        var end = -1
        guard
            matcher.match(
                root, at: 0,
                then: {
                    end = $0
                    return true
                })
        else { return nil }
        return (end, Array(matcher.captures.dropFirst()))
    }

    /// `lookingAt` only, without the groups.
    func matchesPrefix(of digits: UnsafeBufferPointer<UInt8>) -> Bool { prefixMatch(digits) != nil }

    /// A class: the continuations of a backtracking match share its captures.
    private final class Matcher {
        let digits: UnsafeBufferPointer<UInt8>
        var captures: [Range<Int>?]

        init(digits: UnsafeBufferPointer<UInt8>, captures: [Range<Int>?]) {
            self.digits = digits
            self.captures = captures
        }

        /// Matches `node` at `index`, then the rest of the pattern (`then`, given where `node`
        /// ended); backtracks into `node` while the rest fails.
        func match(_ node: Node, at index: Int, then rest: (Int) -> Bool) -> Bool {
            switch node {
            case .digits(let set):
                guard index < digits.count else { return false }
                let digit = Int(digits[index]) - 0x30
                return (0...9).contains(digit) && set & (1 << digit) != 0 && rest(index + 1)
            case .end:
                return index == digits.count && rest(index)
            case .group(let inner, let capture):
                guard let capture else { return match(inner, at: index, then: rest) }
                return match(inner, at: index) { end in
                    let old = captures[capture]
                    captures[capture] = index..<end
                    if rest(end) { return true }
                    captures[capture] = old
                    return false
                }
            case .sequence(let nodes):
                return matchSequence(nodes[...], at: index, then: rest)
            case .alternation(let choices):
                for choice in choices where match(choice, at: index, then: rest) { return true }
                return false
            case .repetition(let inner, let min, let max):
                return repeatMatch(inner, count: 0, min: min, max: max, at: index, then: rest)
            }
        }

        private func matchSequence(_ nodes: ArraySlice<Node>, at index: Int, then rest: (Int) -> Bool) -> Bool
        {
            guard let first = nodes.first else { return rest(index) }
            return match(first, at: index) { end in self.matchSequence(nodes.dropFirst(), at: end, then: rest)
            }
        }

        /// Greedy: one more repetition is tried before the rest; an empty repetition never repeats.
        private func repeatMatch(
            _ inner: Node, count: Int, min: Int, max: Int?, at index: Int, then rest: (Int) -> Bool
        ) -> Bool {
            if max.map({ count < $0 }) ?? true {
                let matched = match(inner, at: index) { end in
                    end == index && count >= min
                        ? false
                        : self.repeatMatch(inner, count: count + 1, min: min, max: max, at: end, then: rest)
                }
                if matched { return true }
            }
            return count >= min && rest(index)
        }
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
