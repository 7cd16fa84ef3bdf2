import Foundation
import TestSupport
import Testing

/// docs/record-formats.md#compressed-files from the command line: what `run` compresses, gzip and
/// zstd read back as the uncompressed run's bytes.
@Suite("Compressed outputs from the command line")
struct CompressionEndToEndTests {
    /// `tool -dc path`'s output.
    static func decompress(_ tool: String, _ path: String) throws -> Data {
        let (status, output) = try decompressWithTool(tool, path)
        #expect(status == 0, "\(tool) -dc \(path)")
        return output
    }

    @Test(
        "-o FILE.gz and FILE.zst hold the records gzip and zstd read back",
        arguments: [("csv", "gz", "gzip"), ("ndjson", "zst", "zstd")], ["1", "2"])
    func byExtension(format: (String, String, String), jobs: String) throws {
        let (kind, suffix, tool) = format
        let scratch = try TemporaryFolder()
        let sample = Maskclean.fixture("bench-sample")
        let outcome = try Maskclean.run(
            [
                "run", "\(sample)/spec.json", "\(sample)/messy.\(kind)", "-o", "clean.\(kind).\(suffix)",
                "--jobs", jobs, "--quiet",
            ], in: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let expected = try Data(contentsOf: URL(fileURLWithPath: "\(sample)/clean.\(kind)"))
        #expect(try Self.decompress(tool, scratch.path("clean.\(kind).\(suffix)")) == expected)
    }

    @Test("--compress zstd compresses standard output; --compress none writes a .gz name plain")
    func compressFlag() throws {
        let scratch = try TemporaryFolder()
        let sample = Maskclean.fixture("bench-sample")
        let expected = try Data(contentsOf: URL(fileURLWithPath: "\(sample)/clean.csv"))
        let piped = try Maskclean.run(
            ["run", "\(sample)/spec.json", "\(sample)/messy.csv", "--compress", "zstd", "--quiet"],
            in: scratch.url)
        #expect(piped.status == 0, "\(piped.stderr)")
        try piped.stdout.write(to: scratch.url.appendingPathComponent("stdout.zst"))
        #expect(try Self.decompress("zstd", scratch.path("stdout.zst")) == expected)

        let plain = try Maskclean.run(
            [
                "run", "\(sample)/spec.json", "\(sample)/messy.csv", "-o", "plain.csv.gz", "--compress",
                "none", "--quiet",
            ],
            in: scratch.url)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("plain.csv.gz")) == expected)
    }

    @Test("--compression-level is checked against the compression (exit 64)")
    func levels() throws {
        let sample = Maskclean.fixture("bench-sample")
        let scratch = try TemporaryFolder()
        let cases: [([String], String)] = [
            (
                ["-o", "clean.csv", "--compression-level", "3"],
                "--compression-level needs a compressed output"
            ),
            (
                ["-o", "clean.csv.gz", "--compression-level", "12"],
                "--compression-level for gzip must be from 1 to 9"
            ),
            (
                ["-o", "clean.csv.zst", "--compression-level", "0"],
                "--compression-level for zstd must be from 1 to 22"
            ),
        ]
        for (arguments, message) in cases {
            let outcome = try Maskclean.run(
                ["run", "\(sample)/spec.json", "\(sample)/messy.csv"] + arguments, in: scratch.url)
            #expect(outcome.status == 64)
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
        let level = try Maskclean.run(
            [
                "run", "\(sample)/spec.json", "\(sample)/messy.csv", "-o", "clean.csv.zst",
                "--compression-level",
                "19", "--quiet",
            ], in: scratch.url)
        #expect(level.status == 0, "\(level.stderr)")
        let expected = try Data(contentsOf: URL(fileURLWithPath: "\(sample)/clean.csv"))
        #expect(try Self.decompress("zstd", scratch.path("clean.csv.zst")) == expected)
    }
}
