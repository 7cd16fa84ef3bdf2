import Foundation
import MaskClean
import MaskEngine
import Testing

/// Issue 25, item 7: the command line's choices are the library's own types (`RecordFormat`,
/// `Compression`, `Syntax`, `AffinityStrategy`), not enums mirrored by hand, so a case the
/// library gains is a value the command line takes, in the same order and spelling.
@Suite("Command-line choices, end to end")
struct CommandLineChoicesTests {
    /// The values each option of `command` takes, by its long name, as ArgumentParser lists them.
    static func choices(_ command: String) throws -> [String: [String]] {
        let dump = try Maskclean.run(["--experimental-dump-help"]).stdout
        let root = try #require(try JSONSerialization.jsonObject(with: dump) as? [String: Any])
        let commands = try #require((root["command"] as? [String: Any])?["subcommands"] as? [[String: Any]])
        let found = try #require(commands.first { $0["commandName"] as? String == command })
        var choices: [String: [String]] = [:]
        for argument in found["arguments"] as? [[String: Any]] ?? [] {
            guard let name = (argument["preferredName"] as? [String: Any])?["name"] as? String,
                let values = argument["allValues"] as? [String]
            else { continue }
            choices[name] = values
        }
        return choices
    }

    @Test("run, check and describe take every record format the library has")
    func recordFormats() throws {
        let formats = RecordFormat.allCases.map(\.rawValue)
        for command in ["run", "check", "describe"] {
            #expect(try Self.choices(command)["input-format"] == formats, "\(command)")
        }
        #expect(try Self.choices("run")["output-format"] == formats)
    }

    @Test("run --compress takes every compression the library has, and none")
    func compressions() throws {
        #expect(try Self.choices("run")["compress"] == Compression.allCases.map(\.rawValue) + ["none"])
    }

    @Test("apply takes every syntax and every strategy the engine has")
    func engineChoices() throws {
        let apply = try Self.choices("apply")
        #expect(apply["syntax"] == Syntax.allCases.map(\.rawValue))
        #expect(apply["strategy"] == AffinityStrategy.allCases.map(\.rawValue))
    }
}
