/// FAST PATH, fenced off here: `describe` masks every record of its input with what it proposes
/// (`Measure`), and judging each complete cell's meaning (`MeaningCheck`) and each incomplete
/// cell's shape (`ValueShape`) cost more than masking it. Both answers are the same for every
/// value of one ASCII shape: the proposed formats use only the standard slots (a digit, a letter
/// in its case, no notation), which take a character by its class, so two values that differ
/// only in which digits or which letters of one case they hold are written alike, their letters
/// and digits carried over one for one. `Measure` remembers the answer for each such shape (and,
/// for the meaning, the format that wrote it) and works it out only once.
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
    /// The last value's shape, and its hash, as `answer(for:salt:)` made them.
    private var shape: [UInt8] = []
    private var hash: UInt64 = 0
    private var isRememberable = false

    /// The answer remembered for `value`'s shape and `salt` (a format's index), or nil: then
    /// `remember` keeps the answer worked out for it.
    mutating func answer(for value: UnsafeBufferPointer<UInt8>, salt: Int) -> Answer? {
        shape.removeAll(keepingCapacity: true)
        // FNV-1a, 64 bits, over the salt and the shape.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bitPattern: Int64(salt))
        for byte in value {
            guard byte < 0x80 else {
                isRememberable = false
                return nil
            }
            let shaped: UInt8
            switch byte {
            case 0x30...0x39: shaped = 0x30
            case 0x41...0x5A: shaped = 0x41
            case 0x61...0x7A: shaped = 0x61
            default: shaped = byte
            }
            shape.append(shaped)
            hash = (hash ^ UInt64(shaped)) &* 0x100_0000_01b3
        }
        self.hash = hash
        isRememberable = true
        guard let known = answers[hash], known.shape == shape else { return nil }
        return known.answer
    }

    /// Keeps `answer` for the shape the last `answer(for:salt:)` found nothing for, while there is
    /// room (a hash two shapes share keeps the first).
    mutating func remember(_ answer: Answer) {
        guard isRememberable, answers.count < Self.capacity, answers[hash] == nil else { return }
        answers[hash] = (shape, answer)
    }
}
