// The two kinds of input the walk reads, a fast one and its slow twin.
//
// `ClusterInput` is the rule: a value is walked by grapheme cluster, as the reference walks
// Swift `Character`s, a slot asking its class and a literal comparing characters (canonical
// equivalence). `ASCIIBytes` is the shortcut, taken for nearly every cell: in plain ASCII
// without CR every byte is a grapheme cluster of its own, so a character is a byte, fitting a
// slot or matching a literal is one bit of the step's `accepts` (built from the same classes
// and literals by `ProgramBuilder`), and nothing is decoded. `Program.run` takes the shortcut
// only when that holds (`isPlainASCII`, and literals that cannot merge with their neighbours);
// `MaskEnginePropertyTests` walks values both ways and compares.

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
