/// FAST PATH, fenced off here: `describe` masks every record of its input with what it proposes
/// (`Measure`), and judging each complete cell's meaning (`MeaningCheck`) and each incomplete
/// cell's shape (`ValueShape`) cost more than masking it. Both answers are the same for every
/// value of one ASCII shape: the proposed formats use only the standard slots (a digit, a letter
/// in its case, no notation), which take a character by its class, so two values that differ
/// only in which digits or which letters of one case they hold are written alike, their letters
/// and digits carried over one for one. `Measure` remembers the answer for each such shape (and,
/// for the meaning, the format that wrote it) and works it out only once. Without a check,
/// which judges the digits themselves, even the status is the shape's: `Measure` then masks
/// only the first value of each shape.
///
/// A value with a byte outside ASCII is never remembered: a mark can join a digit into another
/// character, and Unicode's classes are not the ASCII table's. The memo holds at most
/// `capacity` shapes, so its memory is bounded whatever the input; values of shapes beyond them
/// are judged one by one, as without it. `Measure(_:remembering: false)` is the slow twin the
/// tests hold it equal to.
struct ShapeMemo<Answer> {
    /// Most shapes remembered.
    static var capacity: Int { 4_096 }

    private var answers: [UInt64: (shape: [UInt8], answer: Answer)] = [:]
    /// The last value's hash, as `answer(for:salt:)` made it.
    private var hash: UInt64 = 0
    private var isRememberable = false

    /// A byte's place in a shape: every digit one, every ASCII letter of one case one.
    @inline(__always)
    private static func shaped(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x30...0x39: 0x30
        case 0x41...0x5A: 0x41
        case 0x61...0x7A: 0x61
        default: byte
        }
    }

    /// The answer remembered for `value`'s shape and `salt` (a format's index), or nil: then
    /// `remember` keeps the answer worked out for it. The shape is hashed as the value is read,
    /// and compared with the one remembered byte by byte: no shape is made for a value whose
    /// shape is known.
    mutating func answer(for value: UnsafeBufferPointer<UInt8>, salt: Int) -> Answer? {
        // FNV-1a, 64 bits, over the salt and the shape.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bitPattern: Int64(salt))
        for byte in value {
            guard byte < 0x80 else {
                isRememberable = false
                return nil
            }
            hash = (hash ^ UInt64(Self.shaped(byte))) &* 0x100_0000_01b3
        }
        self.hash = hash
        isRememberable = true
        guard let known = answers[hash], known.shape.count == value.count else { return nil }
        for (shaped, byte) in zip(known.shape, value) where shaped != Self.shaped(byte) { return nil }
        return known.answer
    }

    /// Keeps `answer` for `value`, whose shape the last `answer(for:salt:)` found nothing for,
    /// while there is room (a hash two shapes share keeps the first).
    mutating func remember(_ answer: Answer, for value: UnsafeBufferPointer<UInt8>) {
        guard isRememberable, answers.count < Self.capacity, answers[hash] == nil else { return }
        answers[hash] = (value.map(Self.shaped), answer)
    }
}
