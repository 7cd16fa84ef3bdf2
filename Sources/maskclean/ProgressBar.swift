// `--progress`: the bar `run` and `check` draw on a terminal's stderr while they read.

import Foundation

/// `--progress`: a bar on stderr, redrawn at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private let start = Date()
    private var drawn = false

    func update(read: Int, size: Int?) {
        lock.withLock {
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
                line += String(format: " %3.0f%%", fraction * 100)
            } else {
                line = "read"
            }
            line += String(format: " %.1f MB, %.1f MB/s", megabytes, rate)
            Diagnostics.print("\r\u{1B}[K" + line, terminator: "")
            drawn = true
        }
    }

    func finish() {
        lock.withLock {
            if drawn { Diagnostics.print("\r\u{1B}[K", terminator: "") }
            drawn = false
        }
    }
}
