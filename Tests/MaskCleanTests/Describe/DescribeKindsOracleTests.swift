import Foundation
import Testing

@testable import MaskClean

/// Issue 28, item 3: the kinds' recognisers against python-stdnum, an implementation that is not
/// ours, where it has one (Tests/Oracles/kinds_oracle.py, and checks_oracle.py's corpora of IBANs,
/// ISBNs and GTINs): a value the oracle calls valid is of the kind, and one it calls invalid is not.
@Suite("describe: kinds against python-stdnum")
struct DescribeKindsOracleTests {
    /// Where `kind`'s recogniser and the oracle disagree on a corpus of `value  valid|invalid`
    /// lines (their first two fields), and how many lines the oracle calls valid.
    static func agreement(_ kind: ValueKind, _ corpus: OracleCorpus) -> (
        valid: Int, disagreements: Disagreements
    ) {
        var disagreements = Disagreements()
        var valid = 0
        for line in corpus.lines {
            let expected = line[1].elementsEqual("valid".utf8)
            if expected { valid += 1 }
            let actual: Bool =
                switch kind.match(line[0].text) {
                case .none, .failing: false
                default: true
                }
            if actual != expected {
                disagreements.record("\(line[0].text): ours \(actual), the oracle \(expected)")
            }
        }
        return (valid, disagreements)
    }

    @Test("Dutch postcodes agree with stdnum.nl.postcode on 10,816 codes, every pair of letters")
    func dutch() throws {
        let (valid, disagreements) = Self.agreement(
            .nlPostcode, try OracleCorpus(script: "kinds_oracle.py", arguments: ["nl"]))
        #expect(valid > 9000)
        disagreements.expectNone("stdnum.nl.postcode")
    }

    @Test("EINs agree with stdnum.us.ein on every prefix, with the hyphen and without")
    func ein() throws {
        let (valid, disagreements) = Self.agreement(
            .ein, try OracleCorpus(script: "kinds_oracle.py", arguments: ["ein"]))
        #expect(valid > 3000)
        disagreements.expectNone("stdnum.us.ein")
    }

    @Test("SSN shapes agree with stdnum.us.ssn: areas, groups, serials and the misused numbers")
    func ssn() throws {
        let (valid, disagreements) = Self.agreement(
            .ssn, try OracleCorpus(script: "kinds_oracle.py", arguments: ["ssn"]))
        #expect(valid > 1000)
        disagreements.expectNone("stdnum.us.ssn")
    }

    @Test("card numbers agree with stdnum.luhn on 6,000 numbers of 11 to 21 digits, grouped or not")
    func cards() throws {
        let (valid, disagreements) = Self.agreement(
            .card, try OracleCorpus(script: "kinds_oracle.py", arguments: ["card"]))
        #expect(valid > 1000)
        disagreements.expectNone("stdnum.luhn")
    }

    @Test("IBANs, ISBNs and GTINs agree with stdnum.iban, stdnum.isbn and stdnum.ean")
    func checkedNumbers() throws {
        for (kind, corpus) in [(ValueKind.iban, "iban"), (.isbn, "isbn"), (.gtin, "gtin")] {
            let (valid, disagreements) = Self.agreement(kind, try OracleCorpus(corpus))
            #expect(valid > 500, "\(corpus)")
            disagreements.expectNone("stdnum's \(corpus)")
        }
    }
}
