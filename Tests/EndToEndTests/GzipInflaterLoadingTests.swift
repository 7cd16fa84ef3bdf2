import Foundation
import TestSupport
import Testing

/// ISA-L is loaded only when a gzip input is read (docs/record-formats.md): a plain run, the
/// most common, spent a dlopen of it at start-up, outside the workers. glibc's loader says what
/// it loads with LD_DEBUG=files.
@Suite("Loading ISA-L")
struct GzipInflaterLoadingTests {
    @Test("a plain CSV run does not load libisal; a .gz run does, when the system has it")
    func loadedOnlyForGzip() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        let data = Generated.customers(rows: 2_000, lossyEvery: 500)
        try data.write(to: scratch.url.appendingPathComponent("data.csv"))
        let csv = scratch.path("data.csv")
        let gzip = try Process.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "gzip -c '\(csv)' > '\(csv).gz'"])
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
        let debug = ["LD_DEBUG": "files"]
        let plain = try Maskclean.run(
            ["run", "spec.json", "data.csv", "-o", "plain.csv", "--quiet"], in: scratch.url,
            environment: debug)
        #expect(plain.status == 0)
        #expect(plain.stderr.contains("file="), "LD_DEBUG=files says what the loader loads")
        #expect(!plain.stderr.contains("libisal"), "a plain run loads no inflater")
        let compressed = try Maskclean.run(
            ["run", "spec.json", "data.csv.gz", "-o", "gz.csv", "--quiet"], in: scratch.url,
            environment: debug)
        #expect(compressed.status == 0)
        // make deps installs libisal-dev, which brings libisal2.
        #expect(compressed.stderr.contains("libisal.so.2"), "a gzip run loads ISA-L")
        #expect(
            try Data(contentsOf: scratch.url.appendingPathComponent("plain.csv"))
                == Data(contentsOf: scratch.url.appendingPathComponent("gz.csv")))
    }
}
