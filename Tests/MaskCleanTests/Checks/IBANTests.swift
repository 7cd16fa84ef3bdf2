import Foundation
import Testing

@testable import MaskClean

extension Checks {
    @Suite("IBAN: registry layouts and MOD 97-10")
    struct IBANTests {
        func iban(_ value: String) -> Bool {
            withBytes(value, IBAN.isValid)
        }

        func electronic(_ value: String) -> String {
            let out = ByteBuffer()
            withBytes(value) { IBAN.electronic($0, into: out) }
            return String(decoding: out.bytes, as: UTF8.self)
        }

        /// GB82 WEST 1234 5698 7654 32: WEST12345698765432GB82 with letters as numbers
        /// (W = 32, E = 14, S = 28, T = 29, G = 16, B = 11) is 1 modulo 97.
        @Test("the rule on hand examples: check digits, layout, length, spaces and case")
        func handExamples() {
            #expect(iban("GB82WEST12345698765432"))
            #expect(iban("GB82 WEST 1234 5698 7654 32"))
            #expect(iban("gb82 west 1234 5698 7654 32"))
            #expect(electronic("gb82 west 1234 5698 7654 32") == "GB82WEST12345698765432")
            // A check digit changed, two digits swapped, one digit more.
            #expect(!iban("GB83WEST12345698765432"))
            #expect(!iban("GB82WEST12345698765423"))
            #expect(!iban("GB82WEST123456987654321"))
            // GB's bank code is four letters (4!a): a digit there fails the layout, even with the
            // check digits that make the sum right.
            #expect(!iban("GB82W3ST12345698765432"))
            #expect(!iban("GB15W3ST12345698765432"))
            // A country the registry does not list, and check digits that are not digits.
            #expect(!iban("XX82WEST12345698765432"))
            #expect(!iban("GBA2WEST12345698765432"))
            #expect(!iban("GB82-WEST-1234-5698-7654-32"))
            #expect(!iban(""))
        }

        /// Tests/Oracles/iban-registry-examples.tsv: country, BBAN structure, electronic and print
        /// examples, from the SWIFT registry's own text file.
        static func registryExamples() throws -> [[String]] {
            let file = repositoryRoot.appendingPathComponent("Tests/Oracles/iban-registry-examples.tsv")
            let text = try String(contentsOf: file, encoding: .utf8)
            return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("country\t") }
                .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        }

        /// Our table of BBAN layouts is the registry's: the same countries, the same structures.
        @Test("the layouts are the registry's, country by country")
        func layoutsAreTheRegistrys() throws {
            let examples = try Self.registryExamples()
            #expect(examples.count == 89)
            let registry = Dictionary(uniqueKeysWithValues: examples.map { ($0[0], $0[1]) })
            #expect(registry == IBAN.layouts)
            for example in examples {
                #expect(iban(example[2]), "\(example[2])")
                #expect(iban(example[3]), "\(example[3])")
                #expect(electronic(example[3]) == example[2])
            }
        }

        /// The example IBAN of every country in the registry, electronic, in print, in lower case; every
        /// change of one digit and every transposition of two adjacent different characters of each
        /// (MOD 97-10 must catch each one with digits; RO's 1B ↔ B1 is the one it cannot, both being
        /// 111), each BBAN character changed to one of the other kind with the check digits made right
        /// again (only the BBAN structure can refuse those), and one character more or fewer:
        /// python-stdnum's stdnum.iban verdict (registry structure and MOD 97-10), and its compact
        /// form, which must be our electronic form.
        @Test("agrees with stdnum.iban on the registry's examples and 19,998 changes to them")
        func corpus() throws {
            let corpus = try OracleCorpus("iban")
            let (valid, disagreements) = corpus.agreement(isValid: IBAN.isValid) {
                IBAN.electronic($0, into: $1)
            }
            #expect(corpus.lines.count == 20_354)
            // 89 countries in 4 forms each, RO49AAAAB131007593840000, and 583 BBANs with a letter
            // or a digit where the structure says c.
            #expect(valid == 940)
            disagreements.expectNone("stdnum.iban")
        }
    }
}
