import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The keys a JSON record's members are looked up among — the masked ones, the first keys of the
/// masked paths, and those maskclean adds — in plain memory: looking up a member reference-counts nothing, most members are told
/// apart from every wanted key by one load, and the rest by comparing a length and a word.
///
/// Made once per processor and freed by it (`deallocate`): the processor is its only owner.
struct JSONWantedKeys {
    /// A wanted key: masked (the spec column's index) or added by maskclean (-1 when not).
    struct Key {
        var length: Int
        /// The key's first eight bytes (fewer, zero-padded, when it is shorter), as one word.
        var head: UInt64
        /// The bytes after the first eight.
        var rest: UnsafePointer<UInt8>
        var masked: Int
        var added: Int
        /// The first key of masked key `nested`'s path (`contact` of `contact.phone`), or -1.
        var nested: Int
        /// The index of the next key spelled the same (a key both masked and, wrongly, added),
        /// or `Int.max`: looking further is needless for nearly every key.
        var nextSame: Int
    }

    /// For each first byte, bit `min(length, 63)` is set when a wanted key has that first byte and
    /// length: most keys of a record are none of the wanted ones, and one load tells.
    private let lengths: UnsafeMutablePointer<UInt64>
    /// In order of first byte (then masked, added, nested, each in spec order): those starting
    /// with byte `b` are `keys[from[b]..<from[b + 1]]`.
    private let keys: UnsafeMutableBufferPointer<Key>
    private let from: UnsafeMutablePointer<Int>
    private let storage: UnsafeMutableBufferPointer<UInt8>

    /// `nested`: for masked keys that are paths, the path's first key and the masked key's index.
    init(masked: [String], added: [String], nested: [(key: String, masked: Int)] = []) {
        var wanted: [(bytes: [UInt8], masked: Int, added: Int, nested: Int)] = []
        for (index, key) in masked.enumerated() { wanted.append((Array(key.utf8), index, -1, -1)) }
        for (index, key) in added.enumerated() { wanted.append((Array(key.utf8), -1, index, -1)) }
        for (key, index) in nested { wanted.append((Array(key.utf8), -1, -1, index)) }
        let firstByte = { (bytes: [UInt8]) in Int(bytes.first ?? 0) }
        wanted = wanted.enumerated()
            .sorted { (firstByte($0.element.bytes), $0.offset) < (firstByte($1.element.bytes), $1.offset) }
            .map(\.element)
        let allBytes = wanted.flatMap(\.bytes)
        storage = .allocate(capacity: max(allBytes.count, 1))
        _ = storage.initialize(from: allBytes)
        lengths = .allocate(capacity: 256)
        lengths.initialize(repeating: 0, count: 256)
        from = .allocate(capacity: 257)
        keys = .allocate(capacity: max(wanted.count, 1))
        var offset = 0
        for (index, key) in wanted.enumerated() {
            lengths[firstByte(key.bytes)] |= Self.lengthBit(key.bytes.count)
            let head = key.bytes.prefix(8).withUnsafeBufferPointer { Self.head($0.baseAddress, $0.count) }
            (keys.baseAddress! + index).initialize(
                to: Key(
                    length: key.bytes.count, head: head,
                    rest: UnsafePointer(storage.baseAddress! + offset + 8),
                    masked: key.masked, added: key.added, nested: key.nested,
                    nextSame: wanted[(index + 1)...].firstIndex { $0.bytes == key.bytes } ?? Int.max))
            offset += key.bytes.count
        }
        for byte in 0...256 {
            from[byte] = wanted.firstIndex { firstByte($0.bytes) >= byte } ?? wanted.count
        }
    }

    func deallocate() {
        storage.deallocate()
        lengths.deallocate()
        from.deallocate()
        keys.deallocate()
    }

    @inline(__always)
    static func lengthBit(_ count: Int) -> UInt64 { 1 << UInt64(min(count, 63)) }

    /// The first `min(count, 8)` bytes at `base`, zero-padded, as a little-endian word.
    static func head(_ base: UnsafePointer<UInt8>?, _ count: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<min(count, 8) { word |= UInt64(base![index]) << (8 * UInt64(index)) }
        return word
    }

    /// Whether a wanted key may be spelled as `name`: false for most keys of a record.
    @inline(__always)
    func mayHold(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let first = name.isEmpty ? 0 : Int(name[0])
        return lengths[first] & Self.lengthBit(name.count) != 0
    }

    /// The wanted keys spelled as `name`'s bytes; none for nearly every key of a record.
    /// `readable` bytes from its start may be read (a word at a time, when eight are).
    @inline(__always)
    func matches(_ name: UnsafeBufferPointer<UInt8>, readable: Int) -> Matches {
        let count = name.count
        guard let base = name.baseAddress, count > 0 else {
            return Matches(
                keys: keys, index: from[0], end: lengths[0] & 1 != 0 ? from[1] : from[0], head: 0, name: name)
        }
        let first = Int(base[0])
        guard lengths[first] & Self.lengthBit(count) != 0 else {
            return Matches(keys: keys, index: 0, end: 0, head: 0, name: name)
        }
        let head: UInt64
        if readable >= 8 {
            let word = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
            head = count >= 8 ? word : word & ((1 << (8 * UInt64(count))) &- 1)
        } else {
            head = Self.head(base, count)
        }
        return Matches(keys: keys, index: from[first], end: from[first + 1], head: head, name: name)
    }

    /// The wanted keys among `keys[index..<end]` whose bytes are `name`'s, in order.
    struct Matches: Sequence, IteratorProtocol {
        let keys: UnsafeMutableBufferPointer<Key>
        var index: Int
        let end: Int
        let head: UInt64
        let name: UnsafeBufferPointer<UInt8>

        @inline(__always)
        mutating func next() -> Key? {
            while index < end {
                let key = keys[index]
                index += 1
                let count = name.count
                if key.length == count, key.head == head,
                    count <= 8 || memcmp(key.rest, name.baseAddress! + 8, count - 8) == 0
                {
                    index = key.nextSame
                    return key
                }
            }
            return nil
        }
    }
}
