/// The shapes of a column's cells of one status, with how many cells had each
/// (docs/report.md#shapes): `999-9999` ×412, `99999` ×37. A shape is the value with every letter
/// `A` (upper or title case) or `a`, every numeral `9`, and the rest as it is, so a report says
/// what the bad cells look like without saying what they hold. The reports show the ten most
/// common.
public struct ShapeTally: Sendable, Equatable {
    /// Each shape seen and its count, in the order first seen.
    public private(set) var shapes: [String] = []
    public private(set) var counts: [Int] = []
    /// Cells whose shape was not kept: seen after `kept` others (a column of endlessly varied
    /// junk); they are counted here so that the counts still add up to the status's cells.
    public private(set) var otherCells = 0
    /// Where each shape is in `shapes`, by its hash: a cell's shape is found without a String.
    private var places: [UInt64: Int] = [:]
    /// The last shape counted, by its hash and place: a column's bad cells often come in runs of
    /// one shape, counted then without a lookup.
    private var lastHash: UInt64 = 0
    private var lastPlace = -1

    /// The most distinct shapes a tally keeps: enough for a top ten that is exact in any
    /// export that has a top ten at all, and a bound on a report's memory.
    public static let kept = 4096
    /// How many shapes the reports show.
    public static let shown = 10
    /// The most characters of a value a shape keeps, then `…`.
    static let shapeLength = 64

    public init() {}

    /// The shapes with their counts, most cells first (then in the order first seen), at most
    /// `limit` of them.
    public func top(_ limit: Int = shown) -> [(shape: String, count: Int)] {
        let order = shapes.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
        return order.prefix(limit).map { (shapes[$0], counts[$0]) }
    }

    /// Counts one cell's value by its shape.
    mutating func add(_ value: UnsafeBufferPointer<UInt8>) {
        add(shapeHash: Self.hash(value), count: 1) { Self.shape(value) }
    }

    /// Adds `count` cells of a shape already made (a later chunk's, a partial report's).
    public mutating func add(shape: String, count: Int) {
        var shape = shape
        let hash = shape.withUTF8 { Self.hash(shapeOf: $0) }
        add(shapeHash: hash, count: count) { shape }
    }

    /// Adds cells counted under no kept shape.
    public mutating func addOther(_ count: Int) { otherCells += count }

    private mutating func add(shapeHash hash: UInt64, count: Int, _ shape: () -> String) {
        if lastPlace >= 0 && hash == lastHash {
            counts[lastPlace] += count
        } else if let place = places[hash] {
            counts[place] += count
            (lastHash, lastPlace) = (hash, place)
        } else if shapes.count < Self.kept {
            (lastHash, lastPlace) = (hash, shapes.count)
            places[hash] = shapes.count
            shapes.append(shape())
            counts.append(count)
        } else {
            otherCells += count
        }
    }

    /// Adds a later chunk's tally.
    mutating func merge(_ later: ShapeTally) {
        for (shape, count) in zip(later.shapes, later.counts) { add(shape: shape, count: count) }
        otherCells += later.otherCells
    }

    // MARK: Shapes

    /// The shape of a value: ASCII byte by byte; a value with other characters character by
    /// character, by the same rule as redaction (`Redaction.placeholder`), letters as `A`/`a`.
    static func shape(_ value: UnsafeBufferPointer<UInt8>) -> String {
        // The shape's characters only: a 30 MB cell is read no further than they reach.
        if value.prefix(shapeLength).allSatisfy({ $0 < 0x80 }) {
            var bytes = [UInt8]()
            bytes.reserveCapacity(min(value.count, shapeLength) + 3)
            for byte in value.prefix(shapeLength) { bytes.append(asciiShape(byte)) }
            var shape = String(decoding: bytes, as: UTF8.self)
            if value.count > shapeLength { shape += "…" }
            return shape
        }
        var shape = ""
        var characters = 0
        // 64 characters of any script fit in 4 KiB but for stacks of marks, cut off there.
        var end = min(value.count, 4096)
        while end < value.count && end > 0 && value[end] & 0xC0 == 0x80 { end -= 1 }
        for character in String(decoding: UnsafeBufferPointer(rebasing: value[..<end]), as: UTF8.self) {
            if characters == shapeLength {
                shape += "…"
                break
            }
            characters += 1
            switch Redaction.placeholder(character) {
            case "9"?: shape.append("9")
            case "X"?: shape.append("A")
            case _?: shape.append("a")
            case nil: shape.append(character)
            }
        }
        // At most a sample's bytes (stacked marks make long characters): a report stays small.
        return shape.utf8.count > Sample.valueBytesKept ? Sample.shown(shape) : shape
    }

    @inline(__always)
    private static func asciiShape(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x30...0x39: 0x39  // 9
        case 0x41...0x5A: 0x41  // A
        case 0x61...0x7A: 0x61  // a
        default: byte
        }
    }

    /// FNV-1a over the shape of an ASCII value without making it; a value with other characters
    /// is hashed over its shape's text, made once.
    @inline(__always)
    static func hash(_ value: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.prefix(shapeLength) {
            guard byte < 0x80 else { return slowHash(value) }
            hash = (hash ^ UInt64(asciiShape(byte))) &* 0x100_0000_01b3
        }
        if value.count > shapeLength {
            for byte in "…".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return hash
    }

    /// The hash of a value with other characters than ASCII among its first: over its shape's text.
    @inline(never)
    private static func slowHash(_ value: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var shape = shape(value)
        return shape.withUTF8 { Self.hash(shapeOf: $0) }
    }

    /// FNV-1a over a shape's text, as `hash(_:)` hashes an ASCII value's shape.
    static func hash(shapeOf text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}

extension ShapeTally: CustomStringConvertible, CustomDebugStringConvertible {
    /// The shapes and their counts in the order first seen: the same tallies read the same,
    /// whatever order their hashes are kept in.
    public var description: String {
        "ShapeTally(" + zip(shapes, counts).map { "\($0) ×\($1)" }.joined(separator: ", ")
            + (otherCells > 0 ? ", other ×\(otherCells)" : "") + ")"
    }

    public var debugDescription: String { description }
}

extension ShapeTally {
    /// Two tallies are equal when they counted the same shapes the same: where they keep them is
    /// theirs.
    public static func == (left: ShapeTally, right: ShapeTally) -> Bool {
        left.shapes == right.shapes && left.counts == right.counts && left.otherCells == right.otherCells
    }
}
