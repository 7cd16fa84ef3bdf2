import Testing

@testable import MaskClean

extension Checks {
    @Suite("ISBN check character and ISBN-13")
    struct ISBNTests {
        func isbn(_ value: String) -> Bool {
            withBytes(value, ISBN.isValid)
        }

        func isbn13(_ value: String) -> String {
            let out = ByteBuffer()
            withBytes(value) { ISBN.isbn13($0, into: out) }
            return String(decoding: out.bytes, as: UTF8.self)
        }

        /// 0-306-40615-2: 0×10 + 3×9 + 0×8 + 6×7 + 4×6 + 0×5 + 6×4 + 1×3 + 5×2 + 2×1 = 132 = 12 × 11.
        /// Its ISBN-13 is 978, the first nine digits, and their GTIN check digit, 7.
        @Test("the rule on hand examples: ISBN-10 to ISBN-13, X as 10, prefixes 978 and 979 only")
        func handExamples() {
            #expect(isbn("0306406152"))
            #expect(isbn13("0306406152") == "9780306406157")
            #expect(!isbn("0306406153"))
            #expect(isbn("9780306406157"))
            #expect(isbn13("9780306406157") == "9780306406157")
            #expect(!isbn("9780306406158"))
            // X is 10, as the check character only, and a lower-case x is read as X.
            #expect(isbn("080442957X") && isbn("080442957x"))
            #expect(isbn13("080442957X") == "9780804429573")
            #expect(!isbn("X804429570"))
            // A GTIN-13 that is not a book's.
            #expect(withBytes("4006381333931", GTIN.isValid) && !isbn("4006381333931"))
            #expect(!isbn("030640615"))
        }

        /// ISBN-10s (X and x check characters), ISBN-13s of 978 and 979, EAN-13s of other
        /// prefixes, random check characters and other lengths: python-stdnum's stdnum.isbn verdict and
        /// its to_isbn13, which must be our normalized form.
        @Test("agrees with stdnum.isbn and its to_isbn13 on 80,007 numbers")
        func corpus() throws {
            let corpus = try OracleCorpus("isbn")
            let (valid, disagreements) = corpus.agreement(isValid: ISBN.isValid) { ISBN.isbn13($0, into: $1) }
            #expect(corpus.lines.count == 80_007)
            #expect(valid == 30_403)
            disagreements.expectNone("stdnum.isbn")
        }
    }
}
