import Foundation
import MaskClean
import Testing

/// `man/maskclean.1` and the README must keep up with `--help` and the spec loader.
@Suite("The manual and the README document everything")
struct ManualTests {
    static let root = Maskclean.fixtures.deletingLastPathComponent()
    static let manual =
        (try? String(contentsOf: root.appendingPathComponent("man/maskclean.1"), encoding: .utf8)) ?? ""
    static let readme =
        (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The long options a command's `--help` lists.
    static func options(of command: String) throws -> [String] {
        let help = try Maskclean.run([command, "--help"]).stdoutText
        let pattern = try Regex("--[a-z][a-z-]*")
        return Array(Set(help.matches(of: pattern).map { String(help[$0.range]) })).sorted()
    }

    /// The words set in bold in the manual (`.B` and `.BR` lines): where it names keys.
    static var boldWords: Set<String> {
        var words: Set<String> = []
        for line in manual.split(separator: "\n") where line.hasPrefix(".B ") || line.hasPrefix(".BR ") {
            for word in line.split(whereSeparator: { " \",.()".contains($0) }) { words.insert(String(word)) }
        }
        return words
    }

    /// Roff escapes hyphens as `\-`; the manual's text with them unescaped.
    static var manualText: String { manual.replacingOccurrences(of: "\\-", with: "-") }

    @Test(
        "every option of every command is in the manual and the README",
        arguments: ["run", "check", "merge", "apply"])
    func optionsDocumented(_ command: String) throws {
        let options = try Self.options(of: command)
        #expect(options.count >= 5, "\(command) --help lists \(options)")
        for option in options where option != "--version" {
            #expect(Self.manualText.contains(option), "the manual does not mention \(option)")
            #expect(Self.readme.contains(option), "the README does not mention \(option)")
        }
    }

    @Test("every spec key is in the manual and the README")
    func specKeysDocumented() {
        for key in SpecLoader.topKeys + SpecLoader.columnKeys + SpecLoader.notationKeys {
            #expect(Self.boldWords.contains(key), "the manual does not name \(key) in bold")
            #expect(Self.readme.contains("`\(key)`"), "the README does not mention `\(key)`")
        }
    }

    @Test("every exit status is in the manual and the README")
    func exitStatusesDocumented() {
        for status in ["0", "1", "64", "65", "66", "73", "74", "78"] {
            #expect(Self.manual.contains(".B \(status)\n"), "the manual does not list exit status \(status)")
            #expect(Self.readme.contains("| \(status) |"), "the README does not list exit status \(status)")
        }
    }

    /// Regression: `\(u2026` is not a groff escape; the ellipsis rendered as "026" with a warning.
    @Test(
        "groff renders the manual without a warning",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed")
    )
    func manualRendersCleanly() throws {
        let groff = Process()
        groff.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        groff.arguments = [
            "-man", "-Tutf8", "-ww", "-z", Self.root.appendingPathComponent("man/maskclean.1").path,
        ]
        let errors = Pipe()
        groff.standardError = errors
        groff.standardOutput = FileHandle.nullDevice
        try groff.run()
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        groff.waitUntilExit()
        #expect(groff.terminationStatus == 0)
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test("apply's help and the manual show -- before a value that starts with a hyphen")
    func doubleDashDocumented() throws {
        let help = try Maskclean.run(["apply", "--help"]).stdoutText
        #expect(help.contains("-- -5551234"), "\(help)")
        #expect(Self.manualText.contains("-- -5551234"))
        let applied = try Maskclean.run(["apply", "[000]-[0000]", "--", "-5551234"])
        #expect(applied.status == 0)
        #expect(applied.stdoutText.contains("-5551234  555-1234"), "\(applied.stdoutText)")
    }
}
