/// The loop that applies a program to a value: one pass over the input's characters, one step
/// of the program at a time, writing bytes straight into the caller's buffers.
///
/// It is generic over the input so that the same loop serves plain ASCII bytes (the fast path:
/// a byte is a character) and Swift `Character`s (every other value).
protocol WalkInput {
    associatedtype Unit
    mutating func next() -> Unit?
    func fits(_ unit: Unit, _ step: Step, _ program: Program) -> Bool
    func matches(_ unit: Unit, _ step: Step, _ program: Program) -> Bool
    func isData(_ unit: Unit, _ program: Program) -> Bool
    func write(_ unit: Unit, to cursor: inout ByteCursor)
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
}

struct WalkCounts {
    var affinity = 0
    var dropped = 0
    /// The index of the step the walk stopped before.
    var stop = 0
}

/// Walks `input` through `steps`. `reverseLiterals` writes multi-byte literals back to front,
/// for a right-to-left walk whose output is reversed byte by byte afterwards.
@inline(__always)
func walk<Input: WalkInput>(
    _ input: inout Input, _ program: Program, _ steps: UnsafeBufferPointer<Step>,
    autocomplete: Bool, reverseLiterals: Bool,
    formatted: inout ByteCursor, extracted: inout ByteCursor, dropped: inout ByteCursor?
) -> WalkCounts {
    // Locals rather than fields of a struct, so that they stay in registers.
    var affinity = 0
    var droppedCount = 0
    guard var step = steps.baseAddress else { return WalkCounts() }
    let end = step + steps.count

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
            guard step != end else {
                affinity &-= 1
                if input.isData(unit, program) {
                    droppedCount &+= 1
                    if dropped != nil { input.write(unit, to: &dropped!) }
                }
                break walkingOne
            }
            let current = step.pointee
            switch current.kind {
            case .slot, .ellipsis:
                if input.fits(unit, current, program) {
                    input.write(unit, to: &formattedOut)
                    input.write(unit, to: &extractedOut)
                    affinity &+= 1
                    if current.kind == .slot { step += 1 }
                } else {
                    affinity &-= 1
                    if input.isData(unit, program) {
                        droppedCount &+= 1
                        if dropped != nil { input.write(unit, to: &dropped!) }
                    }
                }
                break walkingOne
            case .optionalSlot:
                step += 1
                if input.fits(unit, current, program) {
                    input.write(unit, to: &formattedOut)
                    input.write(unit, to: &extractedOut)
                    affinity &+= 1
                    break walkingOne
                }
                affinity &-= 1
            case .free, .fixed:
                step += 1
                if input.matches(unit, current, program) {
                    input.write(unit, to: &formattedOut)
                    if current.kind == .fixed { input.write(unit, to: &extractedOut) }
                    affinity &+= 1
                    break walkingOne
                }
                formattedOut.appendLiteral(current, program, reversed: reverseLiterals)
                if current.kind == .fixed {
                    extractedOut.appendLiteral(current, program, reversed: reverseLiterals)
                }
                affinity &-= 1
            }
        }
    }
    if autocomplete {
        while step != end, step.pointee.isLiteral {
            formattedOut.appendLiteral(step.pointee, program, reversed: reverseLiterals)
            if step.pointee.kind == .fixed {
                extractedOut.appendLiteral(step.pointee, program, reversed: reverseLiterals)
            }
            step += 1
        }
    }
    return WalkCounts(affinity: affinity, dropped: droppedCount, stop: step - steps.baseAddress!)
}

/// Plain ASCII without CR: every byte is its own grapheme cluster, so bytes are walked directly.
protocol ASCIIWalkInput: WalkInput where Unit == UInt8 {}

extension ASCIIWalkInput {
    @inline(__always)
    func fits(_ unit: UInt8, _ step: Step, _ program: Program) -> Bool {
        step.accepts.contains(unit)
    }

    @inline(__always)
    func matches(_ unit: UInt8, _ step: Step, _ program: Program) -> Bool {
        unit == step.asciiMatch
    }

    @inline(__always)
    func isData(_ unit: UInt8, _ program: Program) -> Bool {
        program.dataASCII.contains(unit)
    }

    @inline(__always)
    func write(_ unit: UInt8, to cursor: inout ByteCursor) {
        cursor.append(unit)
    }
}

struct ForwardASCII: ASCIIWalkInput {
    var position: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        position = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = position + bytes.count
    }

    @inline(__always)
    mutating func next() -> UInt8? {
        guard position != end else { return nil }
        defer { position += 1 }
        return position.pointee
    }
}

/// Right to left: the last byte first.
struct BackwardASCII: ASCIIWalkInput {
    var position: UnsafePointer<UInt8>
    let start: UnsafePointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        start = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        position = start + bytes.count
    }

    @inline(__always)
    mutating func next() -> UInt8? {
        guard position != start else { return nil }
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
        unit == program.literals[Int(step.index)].character
    }

    func isData(_ unit: Character, _ program: Program) -> Bool {
        program.isData(unit)
    }

    func write(_ unit: Character, to cursor: inout ByteCursor) {
        for byte in unit.utf8 { cursor.append(byte) }
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
        while end - position >= 8 {
            let word = UnsafeRawPointer(position).loadUnaligned(as: UInt64.self)
            let crBytes = word ^ carriageReturns  // a zero byte where there was a CR
            if (word | ((crBytes &- ones) & ~crBytes)) & high != 0 { return false }
            position += 8
        }
        while position != end {
            if position.pointee >= 0x80 || position.pointee == 0x0D { return false }
            position += 1
        }
        return true
    }
}
