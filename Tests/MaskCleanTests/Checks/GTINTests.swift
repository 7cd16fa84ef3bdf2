import Testing

@testable import MaskClean

extension Checks {
    @Suite("GTIN check digit")
    struct GTINTests {
        func gtin(_ value: String) -> Bool {
            withBytes(value, GTIN.isValid)
        }

        /// 4006381333931: the digits before the check, weighted 3, 1, 3… from the right, sum to 89;
        /// 1 brings it to 90.
        @Test("the rule on hand examples, of each length")
        func handExamples() {
            #expect(gtin("4006381333931"))
            #expect(!gtin("4006381333932"))
            #expect(gtin("96385074"))  // GTIN-8
            #expect(gtin("036000291452"))  // UPC-A
            #expect(gtin("10614141000415"))  // GTIN-14
            #expect(withBytes("400638133393") { GTIN.checkDigit($0) } == 1)
            // A check digit of its own does not make a length a GTIN's; nor do non-digits.
            #expect(!gtin("0000000000"))
            #expect(!gtin("400638133393a"))
            #expect(!gtin(""))
        }

        /// GTIN-8, -12, -13 and -14: valid numbers, random ones, one digit changed, and other lengths,
        /// each with python-stdnum's stdnum.ean verdict.
        @Test("agrees with stdnum.ean on 61,800 numbers")
        func corpus() throws {
            let corpus = try OracleCorpus("gtin")
            var disagreements = Disagreements()
            var valid = 0
            for line in corpus.lines {
                let expected = line[1].elementsEqual("valid".utf8)
                if expected { valid += 1 }
                let actual = Array(line[0]).withUnsafeBufferPointer(GTIN.isValid)
                if actual != expected {
                    disagreements.record("\(line[0].text): ours \(actual), stdnum \(expected)")
                }
            }
            #expect(corpus.lines.count == 61_800)
            #expect(valid == 22_011)
            disagreements.expectNone("stdnum.ean")
        }
    }
}
