import Foundation

/// What `tool -dc path` writes to standard output (`gzip`, `zstd`), and its exit status: the
/// standard tools' reading of what maskclean compressed.
public func decompressWithTool(_ tool: String, _ path: String) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool, "-dc", path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}
