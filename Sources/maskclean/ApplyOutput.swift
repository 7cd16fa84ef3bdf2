import Foundation
import MaskClean
import MaskEngine

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output, buffered and checked: a write error is exit 74, and a reader that went away
/// (`maskclean apply … | head`) ends the command quietly, as a Unix filter does.
struct StandardOutput {
    private var pending: [UInt8] = []

    mutating func write(_ text: String) throws(MaskCleanError) {
        pending += text.utf8
        if pending.count >= 1 << 16 { try flush() }
    }

    mutating func flush() throws(MaskCleanError) {
        var offset = 0
        while offset < pending.count {
            let written = pending.withUnsafeBytes {
                Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw MaskCleanError.brokenPipe }
                let system = String(cString: strerror(errno))
                let reason =
                    errno == EBADF
                    ? "standard output is closed" : system.prefix(1).lowercased() + system.dropFirst()
                throw MaskCleanError.write("stdout", "cannot write: \(reason)")
            }
            offset += written
        }
        pending.removeAll(keepingCapacity: true)
    }
}

/// `apply`'s table. Values from the command line are all known: the columns fit them. Values
/// from standard input go out a row per value as they come, in columns as wide as the formats'
/// placeholders (a formatted value is no wider), so that memory does not grow with the input
/// and a value typed at a terminal shows at once. Every column is at most `maximumWidth` wide:
/// a longer cell is cut and ends with `…` (`--json` shows every value whole).
struct ApplyTable {
    static let maximumWidth = 48

    private var held: [[String]] = []
    private var widths: [Int]?
    private var headerWritten = false
    private let header: [String]
    /// What is known before any value: every status, and the formats and placeholders to show.
    private let known: [String]

    init(withTemplate: Bool, formats: [String], placeholders: [String], streaming: Bool) {
        header = ApplyTool.header + (withTemplate ? ["template"] : [])
        var known = Array(repeating: "", count: header.count)
        known[3] = CellStatus.incomplete.rawValue
        known[4] = formats.max { $0.count < $1.count } ?? ""
        let placeholder = placeholders.max { $0.count < $1.count } ?? ""
        known[5] = placeholder
        if streaming {
            for index in [0, 1, 2, 6] + (withTemplate ? [7] : []) { known[index] = placeholder }
        }
        self.known = known.map { visible($0) }
        if streaming { widths = fitted([header]) }
    }

    mutating func add(_ row: ApplyTool.Row, to out: inout StandardOutput) throws(MaskCleanError) {
        let cells = ApplyTool.cells(row).map { visible($0) }
        guard let widths else {
            held.append(cells)
            return
        }
        if !headerWritten {
            try out.write(line(header, widths))
            headerWritten = true
        }
        try out.write(line(cells, widths))
    }

    mutating func finish(to out: inout StandardOutput) throws(MaskCleanError) {
        if let widths {
            if !headerWritten { try out.write(line(header, widths)) }
            return
        }
        let widths = fitted([header] + held)
        for cells in [header] + held { try out.write(line(cells, widths)) }
    }

    private func fitted(_ rows: [[String]]) -> [Int] {
        header.indices.map { index in
            min(Self.maximumWidth, max(known[index].count, rows.map { $0[index].count }.max() ?? 0))
        }
    }

    private func line(_ cells: [String], _ widths: [Int]) -> String {
        var text = zip(cells, widths).map { cell, width in
            let shown = cell.count > width ? String(cell.prefix(width - 1)) + "…" : cell
            return shown + String(repeating: " ", count: width - shown.count)
        }.joined(separator: "  ")
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }
}

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
