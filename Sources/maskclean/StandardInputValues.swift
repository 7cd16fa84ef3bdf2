// `apply`'s values from standard input: read one a line as they come, never the whole input.

import MaskClean

/// Values from standard input, one a line (a CR before the line feed is not part of it), handed
/// on as they are read.
enum StandardInputValues {
    static let maximumBytes = 32 << 20

    /// `waiting` runs before each read that may block: what was written so far goes out then,
    /// so that a value typed at a terminal or sent down a pipe gets its row at once.
    static func forEach(
        _ body: (String) throws(MaskCleanError) -> Void, waiting: () throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) {
        let input = try InputFile(path: "-")
        var pending: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var line = 1
        func emit(_ bytes: ArraySlice<UInt8>) throws(MaskCleanError) {
            let value = bytes.last == 0x0D ? bytes.dropLast() : bytes
            try body(String(decoding: value, as: UTF8.self))
            line += 1
        }
        while true {
            try waiting()
            let count = try block.withUnsafeMutableBytes { buffer in
                Result { () throws(MaskCleanError) in try input.read(into: buffer) }
            }.get()
            if count == 0 { break }
            var start = 0
            while let feed = block[start..<count].firstIndex(of: 0x0A) {
                if pending.isEmpty {
                    try emit(block[start..<feed])
                } else {
                    pending += block[start..<feed]
                    try emit(pending[...])
                    pending.removeAll(keepingCapacity: true)
                }
                start = feed + 1
            }
            pending += block[start..<count]
            if pending.count > maximumBytes {
                throw .data("stdin", line: line, "a value longer than \(maximumBytes >> 20) MiB")
            }
        }
        if !pending.isEmpty { try emit(pending[...]) }
    }
}
