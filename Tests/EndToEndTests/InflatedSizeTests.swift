import Foundation
import TestSupport
import Testing

/// A 12 KB gzip report inflated to 1 GiB and parsed into a tree 36 times its text (1.8 GB);
/// a report and a spec are small, so what is inflated of them is capped at the largest one can
/// be, and a report is read without building a tree (docs/report.md, docs/spec.md).
@Suite("Compressed reports and specs that inflate without end")
struct InflatedSizeTests {
    /// Runs `maskclean arguments…` in `folder` with its address space limited to 256 MiB: the old
    /// reader needed 1.8 GB for the same file. Not under AddressSanitizer, which reserves
    /// terabytes of address space for its shadow memory before `main`.
    static func runBounded(_ arguments: [String], in folder: String) throws -> Maskclean.Outcome {
        let command = (["exec", Maskclean.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", (isAddressSanitized ? "" : "ulimit -v 262144; ") + command]
        shell.currentDirectoryURL = Maskclean.fixtures.appendingPathComponent(folder)
        let errors = Pipe()
        shell.standardError = errors
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        return Maskclean.Outcome(
            status: shell.terminationStatus, stdout: Data(), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("a gzip bomb report is refused with 65 naming the cap, quickly and in bounded memory")
    func reportBomb() throws {
        let started = Date()
        let outcome = try Self.runBounded(
            ["merge", "../../demo/spec.json", "bomb.json.gz"], in: "bad/merge-report-bomb")
        #expect(outcome.status == 65, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "bomb.json.gz: larger than 9 MiB, the largest report ../../demo/spec.json can make: not a maskclean report"
            ))
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test("a gzip bomb spec is refused with 78 naming the cap, quickly and in bounded memory")
    func specBomb() throws {
        let started = Date()
        let outcome = try Self.runBounded(
            ["check", "spec.json.gz", "../../demo/customers.csv"], in: "bad/spec-bomb")
        #expect(outcome.status == 78, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("spec.json.gz: larger than 4 MiB: not a spec file"))
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
