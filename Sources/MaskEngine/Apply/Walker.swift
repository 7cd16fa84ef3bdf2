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
    let base: UnsafeMutablePointer<UInt8>?
    var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>?) {
        self.base = base
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        guard let base else { return }
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ bytes: [UInt8], reversed: Bool) {
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
    /// Characters written (input characters and literals), before any merging.
    var formattedUnits = 0
    var extractedUnits = 0
}

/// Walks `input` through `steps`. `reverseLiterals` writes multi-byte literals back to front,
/// for a right-to-left walk whose output is reversed byte by byte afterwards.
@inline(__always)
func walk<Input: WalkInput>(
    _ input: inout Input, _ program: Program, _ steps: UnsafeBufferPointer<Step>,
    autocomplete: Bool, reverseLiterals: Bool,
    formatted: inout ByteCursor, extracted: inout ByteCursor, dropped: inout ByteCursor
) -> WalkCounts {
    var counts = WalkCounts()
    var index = 0
    let end = steps.count

    @inline(__always)
    func writeLiteral(_ step: Step, to cursor: inout ByteCursor) {
        if step.asciiLiteral < 0x80 {
            cursor.append(step.asciiLiteral)
        } else {
            cursor.append(program.literals[Int(step.index)].utf8, reversed: reverseLiterals)
        }
    }

    while let unit = input.next() {
        walkingOne: while true {
            guard index < end else {
                counts.affinity &-= 1
                if input.isData(unit, program) {
                    counts.dropped &+= 1
                    input.write(unit, to: &dropped)
                }
                break walkingOne
            }
            let step = steps[index]
            switch step.kind {
            case .slot, .ellipsis:
                if input.fits(unit, step, program) {
                    input.write(unit, to: &formatted)
                    input.write(unit, to: &extracted)
                    counts.formattedUnits &+= 1
                    counts.extractedUnits &+= 1
                    counts.affinity &+= 1
                    if step.kind == .slot { index &+= 1 }
                } else {
                    counts.affinity &-= 1
                    if input.isData(unit, program) {
                        counts.dropped &+= 1
                        input.write(unit, to: &dropped)
                    }
                }
                break walkingOne
            case .optionalSlot:
                index &+= 1
                if input.fits(unit, step, program) {
                    input.write(unit, to: &formatted)
                    input.write(unit, to: &extracted)
                    counts.formattedUnits &+= 1
                    counts.extractedUnits &+= 1
                    counts.affinity &+= 1
                    break walkingOne
                }
                counts.affinity &-= 1
            case .free, .fixed:
                index &+= 1
                counts.formattedUnits &+= 1
                if input.matches(unit, step, program) {
                    input.write(unit, to: &formatted)
                    if step.kind == .fixed {
                        input.write(unit, to: &extracted)
                        counts.extractedUnits &+= 1
                    }
                    counts.affinity &+= 1
                    break walkingOne
                }
                writeLiteral(step, to: &formatted)
                if step.kind == .fixed {
                    writeLiteral(step, to: &extracted)
                    counts.extractedUnits &+= 1
                }
                counts.affinity &-= 1
            }
        }
    }
    if autocomplete {
        while index < end, steps[index].isLiteral {
            let step = steps[index]
            writeLiteral(step, to: &formatted)
            counts.formattedUnits &+= 1
            if step.kind == .fixed {
                writeLiteral(step, to: &extracted)
                counts.extractedUnits &+= 1
            }
            index &+= 1
        }
    }
    counts.stop = index
    return counts
}

/// Plain ASCII without CR: every byte is its own grapheme cluster, so bytes are walked directly.
struct ASCIIInput: WalkInput {
    let base: UnsafePointer<UInt8>
    var position: Int
    let end: Int
    let stride: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, reversed: Bool) {
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        if reversed {
            position = bytes.count - 1
            end = -1
            stride = -1
        } else {
            position = 0
            end = bytes.count
            stride = 1
        }
    }

    @inline(__always)
    mutating func next() -> UInt8? {
        guard position != end else { return nil }
        defer { position &+= stride }
        return base[position]
    }

    @inline(__always)
    func fits(_ unit: UInt8, _ step: Step, _ program: Program) -> Bool {
        step.accepts.contains(unit)
    }

    @inline(__always)
    func matches(_ unit: UInt8, _ step: Step, _ program: Program) -> Bool {
        unit == step.asciiLiteral
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
    /// No byte of 0x80 or above, and no CR (CR LF is a single grapheme cluster).
    var isPlainASCII: Bool {
        var seen: UInt8 = 0
        var carriageReturn = false
        for byte in self {
            seen |= byte
            carriageReturn = carriageReturn || byte == 0x0D
        }
        return seen < 0x80 && !carriageReturn
    }
}
