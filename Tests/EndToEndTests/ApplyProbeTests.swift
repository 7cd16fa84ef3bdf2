import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `apply` under the probes: it buffered everything until its input ended and padded every row
/// to the widest value (2,000 short values and one of 1 MB printed 2 GB), was killed by SIGPIPE
/// under `| head`, and lost its output with exit 0 on a full or closed standard output.
@Suite("Hostile probes: apply")
struct ApplyProbeTests {
    func shell(_ command: String, in scratch: TemporaryFolder) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = scratch.url
        process.environment = ["MASKCLEAN": Maskclean.binary.path, "PATH": "/usr/bin:/bin"]
        try process.run()
        process.waitUntilExit()
        let read = { (name: String) in
            (try? String(contentsOfFile: scratch.path(name), encoding: .utf8)) ?? ""
        }
        return (process.terminationStatus, read("out.txt"), read("err.txt"))
    }

    @Test("a row goes out for each value that comes in, before the input ends")
    func streams() throws {
        let process = Process()
        process.executableURL = Maskclean.binary
        process.arguments = ["apply", "+1 ([000]) [000]-[0000]"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        input.fileHandleForWriting.write(Data("5551234567\n".utf8))
        var received = Data()
        let deadline = Date().addingTimeInterval(20)
        while String(decoding: received, as: UTF8.self).split(separator: "\n").count < 2 && Date() < deadline
        {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count >= 2, "the row came before the input ended: \(lines)")
        #expect(lines.last?.hasPrefix("5551234567") == true)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("a huge value among short ones costs its own row, not every row's width")
    func hugeValue() throws {
        let scratch = try TemporaryFolder()
        let values = Array(repeating: "5551234567", count: 2_000) + [String(repeating: "9", count: 1 << 20)]
        _ = try scratch.write("values.txt", values.joined(separator: "\n") + "\n")
        let result = try shell(
            "\"$MASKCLEAN\" apply '+1 ([000]) [000]-[0000]' < values.txt > out.txt 2> err.txt", in: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2_002)
        #expect(result.stdout.utf8.count < 1 << 20, "\(result.stdout.utf8.count) bytes")
        #expect(lines.last?.hasPrefix("9999999999999999…") == true, "\(lines.last?.prefix(80) ?? "")")
        #expect(lines.last?.contains("…") == true, "the long value is cut with a marker")
        let json = try shell(
            "\"$MASKCLEAN\" apply --json '[000]' < values.txt > out.txt 2> err.txt", in: scratch)
        #expect(json.stdout.contains(values.last!), "--json shows the value whole")
    }

    @Test("| head ends apply quietly with 0; a full or closed standard output is a write error")
    func closedOutputs() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("values.txt", String(repeating: "5551234567\n", count: 200_000))
        let head = try shell(
            "\"$MASKCLEAN\" apply '[000]' < values.txt 2> err.txt | head -1 > out.txt; exit ${PIPESTATUS[0]}",
            in: scratch)
        #expect(head.status == 0, "not killed by SIGPIPE (141): \(head.status)")
        #expect(head.stderr.isEmpty, "\(head.stderr)")
        let full = try shell("\"$MASKCLEAN\" apply '[000]' 1 2 > /dev/full 2> err.txt", in: scratch)
        #expect(full.status == 74)
        #expect(full.stderr == "stdout: cannot write: no space left on device\n", "\(full.stderr)")
        let closed = try shell("\"$MASKCLEAN\" apply '[000]' 1 2 >&- 2> err.txt", in: scratch)
        #expect(closed.status == 74)
        #expect(closed.stderr == "stdout: cannot write: standard output is closed\n", "\(closed.stderr)")
    }
}
