/// The record writer's layout for a program rather than a file (`RecordCleaner`): each cell its
/// length, four bytes little-endian, then its bytes; a record ends with `recordEnd` in the place
/// of a length. Nothing is quoted or escaped, so reading the cells back is exact.
enum CellsLayout {
    static let recordEnd = UInt32.max

    static func append<Sink: ByteSink>(_ value: UnsafeBufferPointer<UInt8>, _ out: inout Sink) {
        appendLength(UInt32(value.count), &out)
        out.append(value)
    }

    static func endRecord<Sink: ByteSink>(_ out: inout Sink) {
        appendLength(recordEnd, &out)
    }

    private static func appendLength<Sink: ByteSink>(_ length: UInt32, _ out: inout Sink) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: length >> shift)) }
    }

    /// The records written in this layout, each its cells as text.
    static func records(_ bytes: UnsafeBufferPointer<UInt8>) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var position = 0
        while position + 4 <= bytes.count {
            var length: UInt32 = 0
            for index in 0..<4 { length |= UInt32(bytes[position + index]) << (8 * index) }
            position += 4
            guard length != recordEnd else {
                records.append(record)
                record = []
                continue
            }
            let end = position + Int(length)
            record.append(
                String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self))
            position = end
        }
        return records
    }
}
