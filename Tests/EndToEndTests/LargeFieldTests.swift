import Foundation
import TestSupport
import Testing

/// The issue: "a 100 MB field" is malformed input, reported with the line its record begins on,
/// without holding it in memory. The file is generated here, not committed.
@Suite("A 100 MB field")
struct LargeFieldTests {
    static let megabytes = 100

    /// `id,phone,note` with one good record, the 100 MB note on line 3, and good records after.
    static func write(to url: URL, quoted: Bool) throws -> (long: Data, after: String) {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("id,phone,note\n1,5551234567,short\n".utf8))
        var long = Data("2,5551234567,\(quoted ? "\"" : "")".utf8)
        let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        try handle.write(contentsOf: long)
        for _ in 0..<megabytes { try handle.write(contentsOf: block) }
        let end = Data("\(quoted ? "\"" : "")\n".utf8)
        try handle.write(contentsOf: end)
        long += end  // the middle is `megabytes` MiB of x
        let after = "3,5551234567,after\n4,555-1234,last\n"
        try handle.write(contentsOf: Data(after.utf8))
        return (long, after)
    }

    @Test("fails with exit 65, the record's line, and nothing written", arguments: [true, false])
    func fails(quoted: Bool) throws {
        let inputs = try TemporaryFolder()
        let out = try TemporaryFolder()
        _ = try inputs.write("spec.json", ExitStatusTests.spec)
        _ = try Self.write(to: inputs.url.appendingPathComponent("big.csv"), quoted: quoted)
        let outcome = try Maskclean.run(
            [
                "run", "spec.json", "big.csv", "-o", out.path("clean.csv"), "--report",
                out.path("report.json"),
            ],
            in: inputs.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("big.csv:3: record longer than "), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "one line: \(outcome.stderr)")
        // No records; the report counts the one record before the long one.
        #expect(out.files == ["report.json"], "left \(out.files)")
        #expect(try out.text("report.json").hasPrefix("{\n  \"rows\": 1,\n  \"passed\": false,"))
    }
}
