import Foundation
import TestSupport
import Testing

/// docs/spec.md, "Specs in YAML": a YAML spec whose aliases nest or expand past the limits exits
/// 78 with the line where they pass it, at once, as the binary is run; it never crashes.
@Suite("YAML spec limits, as a user meets them")
struct YAMLSpecLimitsEndToEndTests {
    @Test("50,000 chained aliases: exit 78 at the line where they pass 512 levels, not a crash")
    func chainedAliases() throws {
        let scratch = try TemporaryFolder()
        var yaml = "a0: &a0 [x]\n"
        for level in 1...50_000 { yaml += "a\(level): &a\(level) [*a\(level - 1)]\n" }
        let spec = try scratch.write("spec.yaml", yaml + "columns: *a50000\n")
        let input = try scratch.write("data.csv", "phone\n5551234567\n")
        let started = ContinuousClock.now
        let outcome = try Maskclean.run(["check", spec, input])
        #expect(outcome.status == 78)
        #expect(
            outcome.stderr.contains("\(spec):511: nested more than 512 deep"), "stderr: \(outcome.stderr)")
        #expect(ContinuousClock.now - started < .seconds(20))
    }
}
