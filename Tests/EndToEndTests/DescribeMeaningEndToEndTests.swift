import Foundation
import MaskClean
import TestSupport
import Testing

/// Issue 28, item 2, as the probe met it on an embassy directory: switchboard numbers of many
/// countries that no numbering plan takes (so not a phone column), and coordinates with a minus
/// sign. `describe` proposed formats of the digits' count, which regrouped the numbers and moved
/// the coordinates' decimal point, and `check` passed. Now a proposed column writes every
/// complete value as it says, or is left out with the reason.
@Suite("describe: the proposed spec keeps what an embassy directory's values say")
struct DescribeMeaningEndToEndTests {
    static let input = Maskclean.fixture("cases/describe-left-out-meaning/embassies.csv")

    @Test("no complete cell is written otherwise than it came; the regrouping column is left out, saying why")
    func embassyDirectory() throws {
        let scratch = try TemporaryFolder()
        let spec = scratch.path("spec.yaml")
        let described = try Maskclean.run(["describe", Self.input, "-o", spec])
        #expect(described.status == 0, "stderr: \(described.stderr)")
        let yaml = try String(contentsOfFile: spec, encoding: .utf8)
        #expect(
            yaml.contains(
                #"# "switchboard" left out: its formats would change what 6 values say: digits grouped otherwise than written"#
            ), "\(yaml)")
        #expect(yaml.contains(#"- name: "latitude""#))
        let checked = try Maskclean.run(["check", spec, Self.input, "--quiet"])
        #expect(checked.status == 0, "stderr: \(checked.stderr)")
        // Each proposed column's values are written as they came: these shapes need no change.
        let output = scratch.path("out.csv")
        let ran = try Maskclean.run(["run", spec, Self.input, "-o", output, "--quiet"])
        #expect(ran.status == 0, "stderr: \(ran.stderr)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = try #require(lines.first)
        for column in ["switchboard", "latitude", "longitude"] {
            guard let status = header.firstIndex(of: column + "_status") else { continue }
            let value = try #require(header.firstIndex(of: column))
            let formatted = try #require(header.firstIndex(of: column + "_formatted"))
            for row in lines.dropFirst() where row[status] == "complete" {
                #expect(row[formatted] == row[value], "\(column): \(row[value]) written \(row[formatted])")
            }
        }
    }
}
