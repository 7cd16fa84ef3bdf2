/// The loop that applies a program to a value: one pass over the input's characters, one step
/// of the program at a time, writing bytes straight into the caller's buffers.
///
/// It is generic over the input, so that the same loop serves plain ASCII bytes (the fast path:
/// a byte is a character) and Swift `Character`s (every other value), both in `WalkInputs.swift`,
/// and over the syntax (`MaskSyntax`), so that each syntax's loop is compiled with its own rules
/// folded in and input-mask's pays nothing for the others.
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
func walk<Input: WalkInput, Rules: MaskSyntax>(
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
