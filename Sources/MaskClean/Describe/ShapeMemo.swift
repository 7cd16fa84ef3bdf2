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
/// A format's own letters and digits (its free and fixed characters: the `1` of `+1`, the `T` and
/// `Z` of a timestamp, the `x` of an extension) take only themselves, not their class: a shape
/// keeps each such byte as it is (both cases of a letter), so that `2024-03-05T14:22Z` and
/// `2024-03-05X14:22Z`, or `1555201000` and `2555201000`, are not one shape.
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
    /// Each ASCII byte's place in a shape: a digit `0`, a letter `A` or `a` by its case, any
    /// other byte, and the formats' own letters and digits, itself.
    private let places: [UInt8]
    /// The last value's hash, as `answer(for:salt:)` made it.
    private var hash: UInt64 = 0
    private var isRememberable = false

    /// A memo for values masked with `formats` (input-mask syntax); for answers that do not
    /// depend on the formats (a value's shape as a comment shows it), none.
    init(formats: [String] = []) {
        var places = (0..<128).map { byte -> UInt8 in
            switch byte {
            case 0x30...0x39: 0x30
            case 0x41...0x5A: 0x41
            case 0x61...0x7A: 0x61
            default: UInt8(byte)
            }
        }
        for byte in Self.ownLettersAndDigits(formats) {
            places[Int(byte)] = byte
            // A letter the format writes may match the input's in either case.
            if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) {
                places[Int(byte ^ 0x20)] = byte ^ 0x20
            }
        }
        self.places = places
    }

    /// The ASCII letters and digits `formats` write themselves: every one outside a slot block's
    /// brackets (free, fixed in braces, or escaped). Slot blocks hold slot kinds, not characters.
    static func ownLettersAndDigits(_ formats: [String]) -> Set<UInt8> {
        var own = Set<UInt8>()
        for format in formats {
            var inBlock = false
            var escaped = false
            for byte in format.utf8 {
                let isLetterOrDigit =
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                    || (0x61...0x7A).contains(byte)
                if escaped {
                    escaped = false
                    if isLetterOrDigit { own.insert(byte) }
                    continue
                }
                switch byte {
                case 0x5C: escaped = true
                case 0x5B: inBlock = true
                case 0x5D: inBlock = false
                default: if !inBlock && isLetterOrDigit { own.insert(byte) }
                }
            }
        }
        return own
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
            hash = (hash ^ UInt64(places[Int(byte)])) &* 0x100_0000_01b3
        }
        self.hash = hash
        isRememberable = true
        guard let known = answers[hash], known.shape.count == value.count else { return nil }
        for (shaped, byte) in zip(known.shape, value) where shaped != places[Int(byte)] { return nil }
        return known.answer
    }

    /// Keeps `answer` for `value`, whose shape the last `answer(for:salt:)` found nothing for,
    /// while there is room (a hash two shapes share keeps the first).
    mutating func remember(_ answer: Answer, for value: UnsafeBufferPointer<UInt8>) {
        guard isRememberable, answers.count < Self.capacity, answers[hash] == nil else { return }
        answers[hash] = (value.map { places[Int($0)] }, answer)
    }
}
