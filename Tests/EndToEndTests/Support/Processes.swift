import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `maskclean` process the test drives itself: started, read from, signalled, awaited.
final class RunningMaskclean {
    let process = Process()
    let output = Pipe()
    private let errors = Pipe()
    /// What the process writes on stderr, collected by a thread.
    private var errorReader: BackgroundReader?

    /// Starts `maskclean arguments…` in `directory`, with stdin empty.
    init(_ arguments: [String], in directory: URL? = nil) throws {
        process.executableURL = Maskclean.binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let handle = errors.fileHandleForReading
        try process.run()
        errorReader = BackgroundReader { handle.readDataToEndOfFile() }
    }

    /// Waits for the process to end; false when it is still running after `seconds`.
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return errorReader?.finished(within: 10) ?? true
    }

    var stderr: String {
        String(decoding: errorReader?.data ?? Data(), as: UTF8.self)
    }

    /// Ends a process a failed test left running.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        _ = wait(seconds: 10)
    }
}

/// Polls `condition` until it holds or `seconds` pass.
func eventually(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(5000)
    }
    return true
}

/// Realistic generated inputs, too big to commit.
enum Generated {
    static let phoneSpec = #"""
        {"columns": [
          {"name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"], "minComplete": 0.5},
          {"name": "date", "format": "[00]{/}[00]{/}[0000]", "formattedColumn": null}
        ]}
        """#

    /// A customers export of `rows` records; every record has a quoted note over two lines.
    /// Rows divisible by `lossyEvery` hold a phone too long; by `incompleteEvery`, a date too
    /// short; by `badEvery` (when given), text after a quoted field's closing quote.
    static func customers(
        rows: Int, lossyEvery: Int = 4000, incompleteEvery: Int = 3500, badEvery: Int? = nil,
        noteLength: Int = 200
    ) -> Data {
        var text = "id,name,phone,date,note\n"
        text.reserveCapacity(rows * (noteLength + 80))
        let filler = String(repeating: "lorem ipsum, ", count: noteLength / 13 + 1).prefix(noteLength)
        for row in 1...rows {
            let phone: String
            if row % lossyEvery == 0 {
                phone = "555\(String(format: "%07d", row))99"
            } else {
                phone =
                    row % 3 == 0
                    ? "(555) \(String(format: "%03d", row % 1000))-\(String(format: "%04d", row % 10000))"
                    : "555\(String(format: "%07d", row))"
            }
            let date =
                row % incompleteEvery == 0
                ? "12/3"
                : "\(String(format: "%02d", row % 12 + 1))/\(String(format: "%02d", row % 28 + 1))/2024"
            let name = row % 7 == 0 ? "\"Doe, Jane \"\"JD\"\"\"" : "Customer \(row)"
            if let badEvery, row % badEvery == 0 {
                text += "\(row),\(name),\"55\"5,\(date),broken\n"
                continue
            }
            text += "\(row),\(name),\"\(phone)\",\(date),\"\(filler) \(row)\nsecond line of \(row)\"\n"
        }
        return Data(text.utf8)
    }
}

/// Runs `maskclean arguments…`, its output and messages thrown away, and returns its exit
/// status and the most memory it held at once (its peak resident set, in bytes).
///
/// Through a small Python process: Linux carries a process's peak over `execve`, so a child this
/// test process spawned would report at least this process's own (hundreds of MB); a child of a
/// small process reports its own.
func peakMemory(_ arguments: [String]) throws -> (status: Int32, bytes: Int) {
    let measure = """
        import resource, subprocess, sys
        status = subprocess.call(sys.argv[1:], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", measure, Maskclean.binary.path] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let fields = printed.split(separator: " ").compactMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard process.terminationStatus == 0, fields.count == 2 else {
        throw CocoaError(
            .executableLoad, userInfo: [NSLocalizedDescriptionKey: "python3 measuring: \(printed)"])
    }
    return (Int32(fields[0]), fields[1])
}

/// Built with AddressSanitizer, whose shadow memory and quarantine of freed blocks make a
/// process's footprint say nothing about maskclean's own.
let isAddressSanitized = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
