import MaskEngine
import Testing

/// `bestStatus`, the default for batch work: complete beats lossy beats incomplete; among equals
/// the higher `wholeString` affinity; then the primary format, then the first alternative listed.
@Suite("bestStatus picks the format with the best cell status")
struct BestStatusTests {
    func choose(_ formats: [String], _ value: String, _ strategy: AffinityStrategy = .bestStatus) throws
        -> AffineResult
    {
        try AffineMask(format: formats[0], affineFormats: Array(formats.dropFirst()), strategy: strategy)
            .apply(value)
    }

    /// Regression: 1,350 real four-digit postcodes were marked incomplete, because the primary
    /// ZIP+4 format wins the wholeString tie against the four-digit alternative.
    @Test("a four-digit postcode fits its own format completely, where wholeString keeps the primary")
    func postcodes() throws {
        let formats = ["[00000]-[9999]", "[0000]"]
        let best = try choose(formats, "2400")
        #expect(best.chosen == 1)
        #expect(best.result.status == .complete)
        #expect(best.result.formatted == "2400")
        let reference = try choose(formats, "2400", .wholeString)
        #expect(reference.chosen == 0, "the reference's strategies behave as before")
        #expect(reference.result.status == .incomplete)
        // A ZIP+4 and a five-digit code still take the primary.
        #expect(try choose(formats, "90210-1234").chosen == 0)
        #expect(try choose(formats, "90210").chosen == 0)
    }

    @Test("complete beats lossy, and lossy beats incomplete, whatever the affinity says")
    func statusOrder() throws {
        // "5551234567": the local format drops three digits (lossy); the long one is complete.
        let completeOverLossy = try choose(["[000]-[0000]", "+1 ([000]) [000]-[0000]"], "5551234567")
        #expect(completeOverLossy.chosen == 1)
        #expect(completeOverLossy.result.status == .complete)
        // "55512345": lossy in [000]-[0000] (drops a digit) beats incomplete in the long format.
        let lossyOverIncomplete = try choose(["+1 ([000]) [000]-[0000]", "[000]-[0000]"], "55512345")
        #expect(lossyOverIncomplete.chosen == 1)
        #expect(lossyOverIncomplete.result.status == .lossy)
    }

    @Test("among formats of one status, the higher wholeString affinity wins")
    func affinityBreaksStatusTies() throws {
        // Both complete; "[000]-[0000]" consumes the dash, "[000][0000]" skips it.
        let outcome = try choose(["[000][0000]", "[000]-[0000]"], "555-1234")
        #expect(outcome.chosen == 1)
        #expect(outcome.result.status == .complete)
    }

    @Test("a full tie goes to the primary format, then to the first alternative listed")
    func fullTies() throws {
        #expect(try choose(["[000]", "[000]"], "123").chosen == 0)
        #expect(try choose(["[AAA]", "[000]", "[000]"], "123").chosen == 1)
    }

    @Test("it is listed first, as the one to pick for batch work")
    func listedFirst() throws {
        #expect(AffinityStrategy.allCases.first == .bestStatus)
        #expect(AffinityStrategy(rawValue: "bestStatus") == .bestStatus)
    }
}
