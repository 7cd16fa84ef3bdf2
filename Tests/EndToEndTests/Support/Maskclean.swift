import Foundation
import Testing

/// Runs the built `maskclean` binary, as a user would, and captures what it does.
struct Maskclean {
    struct Outcome {
        var status: Int32
        var stdout: Data
        var stderr: String

        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The binary SwiftPM built next to the test bundle.
    static let binary: URL = {
        let products =
            Bundle.main.bundleURL.pathExtension == "xctest"
            ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
        let candidates = [
            products.appendingPathComponent("maskclean"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "maskclean"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// The repository's `Fixtures/` folder.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ path: String) -> String {
        fixtures.appendingPathComponent(path).path
    }

    /// Runs `maskclean arguments…` in `directory`, feeding `stdin`, with `environment` added to
    /// the tests' own. GitHub's variables are left out unless given, so that the tests behave
    /// the same when CI runs them on GitHub Actions.
    ///
    /// `stdinFile` gives standard input the file itself, as a shell's `< FILE` does (so that the
    /// process can tell which file it reads); `closedStdout` makes standard output a pipe whose
    /// reader has gone already, so that the first write to it fails with EPIPE (a `| head` that
    /// stopped reading, without the race).
    @discardableResult
    static func run(
        _ arguments: [String], in directory: URL? = nil, stdin: Data? = nil, stdinFile: URL? = nil,
        closedStdout: Bool = false, environment: [String: String] = [:]
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment
        inherited["GITHUB_ACTIONS"] = nil
        inherited["GITHUB_STEP_SUMMARY"] = nil
        process.environment = inherited.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        if closedStdout { try output.fileHandleForReading.close() }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = try stdinFile.map { try FileHandle(forReadingFrom: $0) } ?? input
        try process.run()
        // Read both pipes while the process runs, so that neither fills up and blocks it.
        let errorHandle = errors.fileHandleForReading
        let errorReader = BackgroundReader { errorHandle.readDataToEndOfFile() }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outputData = closedStdout ? Data() : output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: outputData,
            stderr: String(decoding: errorReader.data, as: UTF8.self))
    }
}

/// Reads a file handle to its end on a thread of its own, and hands the bytes over with a
/// proper happens-before edge (a dispatch group), so that ThreadSanitizer sees the
/// synchronisation that polling a thread's `isFinished` would hide.
final class BackgroundReader: @unchecked Sendable {
    private let lock = NSLock()
    private let group = DispatchGroup()
    private var collected = Data()

    init(_ read: @escaping @Sendable () -> Data) {
        group.enter()
        Thread { [self] in
            let data = read()
            lock.withLock { collected = data }
            group.leave()
        }.start()
    }

    /// Whether the reading has ended, waiting up to `seconds`.
    func finished(within seconds: Double) -> Bool {
        group.wait(timeout: .now() + seconds) == .success
    }

    /// The bytes read, once the reading has ended.
    var data: Data {
        group.wait()
        return lock.withLock { collected }
    }
}
