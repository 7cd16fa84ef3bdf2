// `--progress`: the bar `run` and `check` draw on a terminal's stderr while they read.

import FoundationEssentials
import Synchronization

/// `--progress`: a bar on stderr, redrawn at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    private let lock = Mutex(())
    private var lastDraw = Date.distantPast
    private let start = Date()
    private var drawn = false

    func update(read: Int, size: Int?) {
        lock.withLock { _ in
            let now = Date()
            guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            let megabytes = Double(read) / 1_048_576
            let rate = megabytes / max(now.timeIntervalSince(start), 0.001)
            var line: String
            if let size, size > 0 {
                let fraction = min(1, Double(read) / Double(size))
                let filled = Int(fraction * 30)
                line =
                    "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
                    + "]"
                let percent = String(Int((fraction * 100).rounded()))
                line += " " + String(repeating: " ", count: max(0, 3 - percent.count)) + percent + "%"
            } else {
                line = "read"
            }
            line += " \(Self.oneDecimal(megabytes)) MB, \(Self.oneDecimal(rate)) MB/s"
            Diagnostics.print("\r\u{1B}[K" + line, terminator: "")
            drawn = true
        }
    }

    func finish() {
        lock.withLock { _ in
            if drawn { Diagnostics.print("\r\u{1B}[K", terminator: "") }
            drawn = false
        }
    }

    /// A non-negative number with one decimal, as `%.1f` writes it: `12.3`.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
