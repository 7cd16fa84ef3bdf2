import Testing

@testable import MaskClean

extension Checks {
    @Suite("Luhn check digit")
    struct LuhnTests {
        func luhn(_ value: String, prefix: String = "") -> Bool {
            withBytes(value) { Luhn.isValid($0, prefix: Array(prefix.utf8)) }
        }

        /// From the right, every second digit doubled (less 9 past 9): 4111 1111 1111 1111 sums to
        /// 1 + 7 × 2 + 7 × 1 + 8 = 30 (the 4 doubled), a multiple of 10.
        @Test("the rule on hand examples: a test card number, its last digit changed, non-digits")
        func handExamples() {
            #expect(luhn("4111111111111111"))
            #expect(!luhn("4111111111111112"))
            #expect(luhn("79927398713"))
            #expect(!luhn("79927398710"))
            // 0 sums to 0; an empty value or one with anything but digits is not a number.
            #expect(luhn("0"))
            #expect(!luhn(""))
            #expect(!luhn("4111 1111 1111 1111"))
            #expect(!luhn("411111111111111a"))
        }

        /// The CMS's example NPI 1234567893 passes only with the prefix 80840 counted in front.
        @Test("an NPI counts the prefix 80840 in front")
        func npiPrefix() {
            #expect(luhn("1234567893", prefix: "80840"))
            #expect(!luhn("1234567893"))
            #expect(!luhn("1234567894", prefix: "80840"))
            #expect(!luhn("1234567893", prefix: "8084x"))
        }

        /// Random digit strings of 2 to 19 digits, card numbers with every single-digit change and
        /// adjacent transposition, NPIs with the 80840 prefix: against a Luhn written from the
        /// definition, which python-stdnum's stdnum.luhn agrees with on every line.
        @Test("agrees with the reference Luhn and stdnum.luhn on 294,145 numbers")
        func corpus() throws {
            let corpus = try OracleCorpus("luhn")
            var disagreements = Disagreements()
            var valid = 0
            for line in corpus.lines {
                let prefix = line[0].elementsEqual("-".utf8) ? [] : Array(line[0])
                let expected = line[2].elementsEqual("valid".utf8)
                if expected { valid += 1 }
                let actual = Array(line[1]).withUnsafeBufferPointer { Luhn.isValid($0, prefix: prefix) }
                if actual != expected {
                    disagreements.record(
                        "\(line[0].text) \(line[1].text): ours \(actual), oracle \(expected)")
                }
            }
            #expect(corpus.lines.count == 294_145)
            #expect(valid == 12_786)
            disagreements.expectNone("Luhn")
        }
    }
}
