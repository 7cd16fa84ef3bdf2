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
        #expect(Self.initialisesISAL(compressed.stderr), "a gzip run loads ISA-L")
        #expect(
            try Data(contentsOf: scratch.url.appendingPathComponent("plain.csv"))
                == Data(contentsOf: scratch.url.appendingPathComponent("gz.csv")))
    }

    /// Whether the loader's account (LD_DEBUG=files) says libisal was loaded and initialised: a
    /// library found but not loadable is named too, but never with "calling init".
    static func initialisesISAL(_ loaderAccount: String) -> Bool {
        loaderAccount.split(separator: "\n").contains {
            $0.contains("calling init: ") && $0.contains("libisal")
        }
    }

    /// Whether this system lets a test hide libisal from maskclean: a mount namespace of its own
    /// (root, as CI runs), where /dev/null is mounted over the library's file.
    static let canHideISAL: Bool = {
        guard
            let unshare = try? Process.run(
                URL(fileURLWithPath: "/usr/bin/unshare"), arguments: ["-m", "true"])
        else { return false }
        unshare.waitUntilExit()
        return unshare.terminationStatus == 0
    }()

    /// docs/record-formats.md: without ISA-L a gzip input is inflated by zlib, to the same
    /// records; the bench's `--inflate igzip` then fails rather than time zlib under igzip's name.
    @Test(
        "without libisal a .gz run inflates with zlib, and --inflate igzip is refused",
        .enabled(if: canHideISAL, "needs a mount namespace of its own (unshare -m, as root)"))
    func withoutISAL() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        try Generated.customers(rows: 2_000, lossyEvery: 500).write(
            to: scratch.url.appendingPathComponent("data.csv"))
        let hidden = """
            set -u
            lib=$(readlink -f "$(ldconfig -p | awk '/libisal\\.so\\.2 /{print $NF; exit}')")
            mount --bind /dev/null "$lib" || exit 99
            gzip -c data.csv > data.csv.gz
            "$0" run spec.json data.csv -o plain.csv --quiet; echo "plain $?"
            LD_DEBUG=files "$0" run spec.json data.csv.gz -o gz.csv --quiet 2> loads.txt; echo "gz $?"
            "$0" run spec.json data.csv.gz -o /dev/null --quiet --inflate igzip 2> refused.txt; echo "igzip $?"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "/bin/sh", "-c", hidden, Maskclean.binary.path]
        process.currentDirectoryURL = scratch.url
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(said == "plain 0\ngz 0\nigzip 64\n")
        let loads = try scratch.text("loads.txt")
        #expect(loads.contains("libisal.so.2"), "maskclean looked for ISA-L")
        #expect(!Self.initialisesISAL(loads), "and could not load it")
        #expect(
            try Data(contentsOf: scratch.url.appendingPathComponent("plain.csv"))
                == Data(contentsOf: scratch.url.appendingPathComponent("gz.csv")))
        #expect(
            try scratch.text("refused.txt").hasPrefix(
                "Error: --inflate igzip: ISA-L's libisal.so.2 cannot be loaded on this system"))
    }
}
