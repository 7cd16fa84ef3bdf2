import Foundation
import MaskEngine
import Testing

/// Regression: compiling was quadratic in a block's length (`[0` + 80,000 × `9` + `]` took 45 s,
/// a 1 MB format did not finish in 100 s), because each slot looked back over its whole block.
/// These formats must compile, and compile to what their shorter twins do; the time limit is
/// only a guard far above the linear cost, so that a quadratic compiler fails instead of hanging.
@Suite("Compiling long formats")
struct CompileScalingTests {
    func compiles(within seconds: Double, _ body: () throws -> Void) rethrows -> Bool {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start) < seconds
    }

    @Test("a block of 200,000 optional digits compiles and behaves as a short one")
    func longBlock() throws {
        var mask: Mask?
        let quick = try compiles(within: 30) {
            mask = try Mask(format: "[0" + String(repeating: "9", count: 200_000) + "]")
        }
        #expect(quick, "compiling took longer than 30 s")
        let result = try #require(mask).apply("12345")
        let short = try Mask(format: "[09999]").apply("12345")
        #expect(result.formatted == short.formatted)
        #expect(result.extracted == short.extracted)
        #expect(result.status == .complete)
    }

    @Test("a 1 MB format of literals and slots compiles")
    func megabyteFormat() throws {
        let piece = "+1 ([000]) [000]-[0000] x[9999] "
        let format = String(repeating: piece, count: (1 << 20) / piece.count)
        var mask: Mask?
        let quick = try compiles(within: 60) { mask = try Mask(format: format) }
        #expect(quick, "compiling took longer than 60 s")
        #expect(try #require(mask).apply("5551234567").formatted.hasPrefix("+1 (555) 123-4567"))
    }

    @Test("a mixed block still splits by kind with mandatory slots first")
    func mixedBlocksStillSplit() throws {
        for (written, sorted) in [
            ("[0a9A0]", "[0][a][9][A][0]"), ("[_-9_]", "[_-][9][_]"), ("[909a]", "[099][a]"),
        ] {
            for value in ["12ab", "1a2b3", "ab", "123", "1"] {
                #expect(
                    try Mask(format: written).apply(value) == Mask(format: sorted).apply(value),
                    "\(written) vs \(sorted) on \(value)")
            }
        }
    }
}
