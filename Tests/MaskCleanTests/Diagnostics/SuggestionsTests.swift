import Testing

@testable import MaskClean

/// The "did you mean" that follows a masked column or key the input does not have: another
/// case of the same letters first, then the nearest by edit distance, and nothing when no name
/// is close enough to be what was meant.
@Suite("Suggestions for a mistyped name")
struct SuggestionsTests {
    static let header = ["customer_id", "Phone", "email", "postal_code", "notes"]

    @Test("the same letters in another case win, even over a closer spelling")
    func sameLetters() {
        #expect(didYouMean("phone", in: Self.header) == "; did you mean \"Phone\"?")
        #expect(didYouMean("PHONE", in: ["phones", "Phone"]) == "; did you mean \"Phone\"?")
    }

    @Test("otherwise the nearest name within a third of the word's length (at least 2 edits)")
    func nearest() {
        #expect(didYouMean("postcode", in: Self.header) == "")
        #expect(didYouMean("postal_cod", in: Self.header) == "; did you mean \"postal_code\"?")
        #expect(didYouMean("emial", in: Self.header) == "; did you mean \"email\"?")
        #expect(didYouMean("customerid", in: Self.header) == "; did you mean \"customer_id\"?")
    }

    @Test("nothing when no name is close")
    func nothingClose() {
        #expect(didYouMean("date_of_birth", in: Self.header) == "")
        #expect(didYouMean("phone", in: []) == "")
    }
}
