/// The loop that applies a program to a value: one pass over the input's characters, one step
/// of the program at a time, writing bytes straight into the caller's buffers.
///
/// It is generic over the input, so that the same loop serves plain ASCII bytes (the fast path:
/// a byte is a character) and Swift `Character`s (every other value), and over the syntax's
/// walking rules, so that each syntax's loop is compiled with its own rules folded in and
/// input-mask's pays nothing for the others.
protocol WalkInput {
    associatedtype Unit
    mutating func next() -> Unit?
    func fits(_ unit: Unit, _ step: Step, _ program: Program) -> Bool
    func matches(_ unit: Unit, _ step: Step, _ program: Program) -> Bool
    func isData(_ unit: Unit, _ program: Program) -> Bool
    func write(_ unit: Unit, to cursor: inout ByteCursor)
    /// Writes the unit with ASCII letters upper-cased (Maskara's formatted value).
    func writeUppercased(_ unit: Unit, to cursor: inout ByteCursor)
}

/// A way a syntax's walk differs from input-mask's.
struct WalkRule: OptionSet {
    let rawValue: UInt8

    /// A mandatory slot that a character does not fit stops the walk, and the rest of the value
    /// is dropped (AKMaskField, Maskara). Otherwise the character is skipped (input-mask).
    static let misfitStops = WalkRule(rawValue: 1 << 0)
    /// A literal that matches writes itself rather than the character that matched it
    /// (AKMaskField, where a space stands for any literal).
    static let matchedLiteralWritesItself = WalkRule(rawValue: 1 << 1)
    /// Letters that value slots take are upper-cased in the formatted value (Maskara).
    static let uppercasesFormatted = WalkRule(rawValue: 1 << 2)
    /// The formatted value ends at the last filled slot, plus the literals right after it when
    /// autocompleting; literals typed or inserted after that slot do not count (AKMaskField).
    static let formattedEndsAtLastSlot = WalkRule(rawValue: 1 << 3)
    /// A character that does not match a literal is tried at the next slot, every literal up to
    /// it inserted untried (AKMaskField). Otherwise it is tried at the next step, literal or not.
    static let mismatchSkipsToSlot = WalkRule(rawValue: 1 << 4)
}

/// How a syntax walks a value, where syntaxes differ (docs/mask-syntax.md). A type per syntax,
/// so that the walk is specialized for each and every rule is a constant in it.
protocol WalkRules {
    static var rules: WalkRule { get }
}

extension WalkRules {
    static var misfitStops: Bool { rules.contains(.misfitStops) }
    static var matchedLiteralWritesItself: Bool { rules.contains(.matchedLiteralWritesItself) }
    static var uppercasesFormatted: Bool { rules.contains(.uppercasesFormatted) }
    static var formattedEndsAtLastSlot: Bool { rules.contains(.formattedEndsAtLastSlot) }
    static var mismatchSkipsToSlot: Bool { rules.contains(.mismatchSkipsToSlot) }
}

enum InputMaskRules: WalkRules {
    static var rules: WalkRule { [] }
}

enum AKMaskRules: WalkRules {
    static var rules: WalkRule {
        [.misfitStops, .matchedLiteralWritesItself, .formattedEndsAtLastSlot, .mismatchSkipsToSlot]
    }
}

enum MaskaraRules: WalkRules {
    static var rules: WalkRule { [.misfitStops, .uppercasesFormatted] }
}

/// A write position in a caller's buffer, which is large enough by contract
/// (`Mask.outputCapacity(forInputCount:)`).
struct ByteCursor {
    let start: UnsafeMutablePointer<UInt8>
    private var position: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        self.position = start
    }

    var count: Int { position - start }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        position.pointee = byte
        position += 1
    }

    /// Writes a free or fixed step's character; back to front for a walk whose output is
    /// reversed byte by byte afterwards.
    @inline(__always)
    mutating func appendLiteral(_ step: Step, _ program: Program, reversed: Bool) {
        if step.asciiLiteral < 0x80 {
            append(step.asciiLiteral)
            return
        }
        let bytes = program.literals[Int(step.index)].utf8
        if reversed {
            for byte in bytes.reversed() { append(byte) }
        } else {
            for byte in bytes { append(byte) }
        }
    }

    mutating func truncate(to count: Int) {
        position = start + count
    }
}

struct WalkCounts {
    var affinity = 0
    var dropped = 0
    /// The index of the step the walk stopped before.
    var stop = 0
    /// One past the last step any character of the value met: a format that shares the steps
    /// before it walks the value the same way (`AffineMask` uses this to skip such a format).
    var reach = 0
    /// The formatted bytes written before the autocomplete tail.
    var formattedBeforeTail = 0
}

/// Walks `input` through `steps`. `reverseLiterals` writes multi-byte literals back to front,
/// for a right-to-left walk whose output is reversed byte by byte afterwards.
@inline(__always)
func walk<Input: WalkInput, Rules: WalkRules>(
    _ input: inout Input, _ program: Program, _ steps: UnsafeBufferPointer<Step>, rules: Rules.Type,
    autocomplete: Bool, reverseLiterals: Bool,
    formatted: inout ByteCursor, extracted: inout ByteCursor, dropped: inout ByteCursor?
) -> WalkCounts {
    // Locals rather than fields of a struct, so that they stay in registers.
    var affinity = 0
    var droppedCount = 0
    guard var step = steps.baseAddress else { return WalkCounts() }
    let end = step + steps.count
    var stopped = false
    // For `formattedEndsAtLastSlot`: the formatted length and the step after the last filled slot.
    var formattedAtLastSlot = 0
    var stepAfterLastSlot = step
    // The last step a character was dropped at: with where the walk ended, how far it reached.
    var lastDrop: UnsafePointer<Step>? = nil

    // No nested functions: a closure over these counters would keep them out of registers. The
    // cursors are copied in and out for the same reason: through `inout`, every write would be
    // stored back to the caller's memory.
    var formattedOut = formatted
    var extractedOut = extracted
    defer {
        formatted = formattedOut
        extracted = extractedOut
    }

    while let unit = input.next() {
        walkingOne: while true {
            guard step != end && !(Rules.misfitStops && stopped) else {
                drop(unit, at: step, input, program, &affinity, &droppedCount, &dropped, &lastDrop)
                break walkingOne
            }
            let current = step.pointee
            switch current.kind {
            case .slot, .ellipsis, .optionalSlot:
                if input.fits(unit, current, program) {
                    if Rules.uppercasesFormatted {
                        input.writeUppercased(unit, to: &formattedOut)
                    } else {
                        input.write(unit, to: &formattedOut)
                    }
                    input.write(unit, to: &extractedOut)
                    affinity &+= 1
                    if current.kind != .ellipsis { step += 1 }
                    if Rules.formattedEndsAtLastSlot {
                        formattedAtLastSlot = formattedOut.count
                        stepAfterLastSlot = step
                    }
                    break walkingOne
                }
                if current.kind == .optionalSlot {
                    // Passed over, with every step just like it after it: the same character is
                    // tried at the step after them.
                    step += 1
                    affinity &-= 1
                    if _slowPath(current.likeAfter != 0) {
                        step += Int(current.likeAfter)
                        affinity &-= Int(current.likeAfter)
                    }
                    continue walkingOne
                }
                if Rules.misfitStops {
                    stopped = true
                    continue walkingOne
                }
                drop(unit, at: step, input, program, &affinity, &droppedCount, &dropped, &lastDrop)
                break walkingOne
            case .free, .fixed, .optionalFree:
                step += 1
                if input.matches(unit, current, program) {
                    if Rules.matchedLiteralWritesItself {
                        formattedOut.appendLiteral(current, program, reversed: reverseLiterals)
                    } else {
                        input.write(unit, to: &formattedOut)
                    }
                    if current.kind == .fixed { input.write(unit, to: &extractedOut) }
                    affinity &+= 1
                    break walkingOne
                }
                affinity &-= 1
                guard current.kind != .optionalFree else {
                    // Passed over, with every step just like it after it.
                    if _slowPath(current.likeAfter != 0) {
                        step += Int(current.likeAfter)
                        affinity &-= Int(current.likeAfter)
                    }
                    continue walkingOne
                }
                formattedOut.appendLiteral(current, program, reversed: reverseLiterals)
                if current.kind == .fixed {
                    extractedOut.appendLiteral(current, program, reversed: reverseLiterals)
                }
                if Rules.mismatchSkipsToSlot {
                    while step != end, step.pointee.isLiteral {
                        formattedOut.appendLiteral(step.pointee, program, reversed: reverseLiterals)
                        step += 1
                    }
                    affinity &-= 1
                }
            }
        }
    }
    let reach = max(step - steps.baseAddress!, lastDrop.map { $0 - steps.baseAddress! + 1 } ?? 0)
    if Rules.formattedEndsAtLastSlot {
        formattedOut.truncate(to: formattedAtLastSlot)
        step = stepAfterLastSlot
    }
    let formattedBeforeTail = formattedOut.count
    // With no slot filled, AKMaskField shows nothing: the literals it would add come after one.
    if autocomplete && (!Rules.formattedEndsAtLastSlot || formattedAtLastSlot > 0) {
        while step != end, step.pointee.isLiteral {
            let current = step.pointee
            if current.kind != .optionalFree {
                formattedOut.appendLiteral(current, program, reversed: reverseLiterals)
                if current.kind == .fixed {
                    extractedOut.appendLiteral(current, program, reversed: reverseLiterals)
                }
            }
            step += 1
        }
    }
    return WalkCounts(
        affinity: affinity, dropped: droppedCount, stop: step - steps.baseAddress!, reach: reach,
        formattedBeforeTail: formattedBeforeTail)
}

/// Drops a character at `step`: −1 to affinity, and counted (and kept) when it carries data.
@inline(__always)
private func drop<Input: WalkInput>(
    _ unit: Input.Unit, at step: UnsafePointer<Step>, _ input: Input, _ program: Program,
    _ affinity: inout Int, _ droppedCount: inout Int, _ dropped: inout ByteCursor?,
    _ lastDrop: inout UnsafePointer<Step>?
) {
    lastDrop = step
    affinity &-= 1
    if input.isData(unit, program) {
        droppedCount &+= 1
        if dropped != nil { input.write(unit, to: &dropped!) }
    }
}

/// Plain ASCII without CR: every byte is its own grapheme cluster, so bytes are walked directly.
protocol ASCIIWalkInput: WalkInput where Unit == UInt8 {}

extension ASCIIWalkInput {
    @inline(__always)
    func fits(_ unit: UInt8, _ step: Step, _ program: Program) -> Bool {
        step.accepts.contains(unit)
    }

    /// For a literal step, `accepts` holds the ASCII characters that match it.
    @inline(__always)
    func matches(_ unit: UInt8, _ step: Step, _ program: Program) -> Bool {
        step.accepts.contains(unit)
    }

    @inline(__always)
    func isData(_ unit: UInt8, _ program: Program) -> Bool {
        program.dataASCII.contains(unit)
    }

    @inline(__always)
    func write(_ unit: UInt8, to cursor: inout ByteCursor) {
        cursor.append(unit)
    }

    @inline(__always)
    func writeUppercased(_ unit: UInt8, to cursor: inout ByteCursor) {
        cursor.append((0x61...0x7A).contains(unit) ? unit - 0x20 : unit)
    }
}

/// Which end of a value its walk starts from.
protocol ReadingDirection {
    static var isForward: Bool { get }
}

enum LeftToRight: ReadingDirection {
    static var isForward: Bool { true }
}

/// Right to left (amounts): the last byte first.
enum RightToLeft: ReadingDirection {
    static var isForward: Bool { false }
}

/// A plain ASCII value, a byte a character, read in `Direction`: a type per direction, so that
/// the walk is specialized for each.
struct ASCIIBytes<Direction: ReadingDirection>: ASCIIWalkInput {
    private var position: UnsafePointer<UInt8>
    private let stop: UnsafePointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let start = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        let end = start + bytes.count
        (position, stop) = Direction.isForward ? (start, end) : (end, start)
    }

    @inline(__always)
    mutating func next() -> UInt8? {
        guard position != stop else { return nil }
        if Direction.isForward {
            defer { position += 1 }
            return position.pointee
        }
        position -= 1
        return position.pointee
    }
}

/// Any other value: walked by grapheme cluster, as the reference walks Swift `Character`s.
struct ClusterInput: WalkInput {
    var iterator: String.Iterator

    init(_ string: String) {
        iterator = string.makeIterator()
    }

    mutating func next() -> Character? {
        iterator.next()
    }

    func fits(_ unit: Character, _ step: Step, _ program: Program) -> Bool {
        if let ascii = unit.asciiValue, unit != "\r\n" {
            return step.accepts.contains(ascii)
        }
        return program.classes[Int(step.index)].accepts(unit)
    }

    func matches(_ unit: Character, _ step: Step, _ program: Program) -> Bool {
        // Character equality is canonical equivalence: a decomposed `é` matches a composed one.
        let literal = program.literals[Int(step.index)]
        return unit == literal.character || literal.alternatives.contains(unit)
    }

    func isData(_ unit: Character, _ program: Program) -> Bool {
        program.isData(unit)
    }

    func write(_ unit: Character, to cursor: inout ByteCursor) {
        for byte in unit.utf8 { cursor.append(byte) }
    }

    func writeUppercased(_ unit: Character, to cursor: inout ByteCursor) {
        for byte in unit.utf8 { cursor.append((0x61...0x7A).contains(byte) ? byte - 0x20 : byte) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// No byte of 0x80 or above, and no CR (CR LF is a single grapheme cluster). Eight bytes at a
    /// time: this runs on every masked cell.
    var isPlainASCII: Bool {
        guard var position = baseAddress else { return true }
        let end = position + count
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        let carriageReturns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
        @inline(__always)
        func isPlain(_ word: UInt64) -> Bool {
            let crBytes = word ^ carriageReturns  // a zero byte where there was a CR
            return (word | ((crBytes &- ones) & ~crBytes)) & high == 0
        }
        guard count >= 8 else {
            // A short value in one word, its bytes read in overlapping pieces (some twice), so
            // that a typical cell costs no loop. Spaces fill the rest: neither high nor CR.
            let raw = UnsafeRawPointer(position)
            if count >= 4 {
                let first = UInt64(raw.loadUnaligned(as: UInt32.self))
                let last = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                return isPlain(first | last << 32)
            }
            guard count > 0 else { return true }
            let bytes =
                UInt64(position[0]) | UInt64(position[count >> 1]) << 8 | UInt64(position[count - 1]) << 16
            return isPlain(bytes | 0x2020_2020_2000_0000)
        }
        while end - position > 8 {
            if !isPlain(UnsafeRawPointer(position).loadUnaligned(as: UInt64.self)) { return false }
            position += 8
        }
        // The last eight bytes, overlapping the words already read.
        return isPlain(UnsafeRawPointer(end - 8).loadUnaligned(as: UInt64.self))
    }
}
