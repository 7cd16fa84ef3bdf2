import MaskEngine
import Testing

@Suite("US phone numbers: +1 ([000]) [000]-[0000]")
struct PhoneNumberTests {
    let phone: Mask

    init() throws {
        phone = try Mask(format: "+1 ([000]) [000]-[0000]")
    }

    @Test("ten bare digits get the country code and the punctuation")
    func bareDigits() {
        let result = phone.apply("5551234567")
        #expect(result.formatted == "+1 (555) 123-4567")
        #expect(result.extracted == "5551234567")
        #expect(result.complete)
        #expect(result.dropped == "")
        #expect(result.status == .complete)
    }

    @Test("a number already written with brackets keeps its shape")
    func alreadyFormatted() {
        let result = phone.apply("(555) 123-4567")
        #expect(result.formatted == "+1 (555) 123-4567")
        #expect(result.extracted == "5551234567")
        #expect(result.status == .complete)
    }

    @Test("a country code typed in the value is not doubled")
    func countryCodeInValue() {
        let result = phone.apply("+1 555 123 4567")
        #expect(result.formatted == "+1 (555) 123-4567")
        #expect(result.extracted == "5551234567")
        #expect(result.status == .complete)
    }

    @Test("dots between the groups are normalised away without loss")
    func dottedNumber() {
        let result = phone.apply("555.123.4567")
        #expect(result.formatted == "+1 (555) 123-4567")
        #expect(result.dropped == "")
        #expect(result.status == .complete)
    }

    @Test("an extension has no room and makes the value lossy")
    func extensionIsDropped() {
        let result = phone.apply("555 123 4567 ext 89")
        #expect(result.formatted == "+1 (555) 123-4567")
        #expect(result.dropped == "ext89")
        #expect(result.complete)
        #expect(result.status == .lossy)
    }

    @Test("a short number is incomplete and the tail shows what is missing")
    func shortNumber() {
        let result = phone.apply("555123")
        #expect(result.formatted == "+1 (555) 123-")
        #expect(result.extracted == "555123")
        #expect(!result.complete)
        #expect(result.tailPlaceholder == "0000")
        #expect(result.status == .incomplete)
    }
}

@Suite("Card numbers: [0000] [0000] [0000] [0000]")
struct CardNumberTests {
    let card: Mask

    init() throws {
        card = try Mask(format: "[0000] [0000] [0000] [0000]")
    }

    @Test("sixteen digits are grouped by four")
    func sixteenDigits() {
        let result = card.apply("4111111111111111")
        #expect(result.formatted == "4111 1111 1111 1111")
        #expect(result.extracted == "4111111111111111")
        #expect(result.status == .complete)
    }

    @Test("dashes are replaced by spaces and are not data")
    func dashedNumber() {
        let result = card.apply("4111-1111-1111-1111")
        #expect(result.formatted == "4111 1111 1111 1111")
        #expect(result.dropped == "")
        #expect(result.status == .complete)
    }

    @Test("digits beyond the sixteenth are dropped and reported")
    func tooManyDigits() {
        let result = card.apply("4111 1111 1111 1111 22")
        #expect(result.formatted == "4111 1111 1111 1111")
        #expect(result.dropped == "22")
        #expect(result.status == .lossy)
    }
}

@Suite("Dates with fixed separators: [00]{/}[00]{/}[9900]")
struct DateTests {
    let date: Mask

    init() throws {
        date = try Mask(format: "[00]{/}[00]{/}[9900]")
    }

    @Test("the fixed slashes are part of the extracted value")
    func digitsOnly() {
        let result = date.apply("31122024")
        #expect(result.formatted == "31/12/2024")
        #expect(result.extracted == "31/12/2024")
        #expect(result.status == .complete)
    }

    @Test("a date typed with slashes consumes them")
    func withSlashes() {
        let result = date.apply("31/12/2024")
        #expect(result.formatted == "31/12/2024")
        #expect(result.affinity == 10)
    }

    @Test("a two-digit year is complete because the century is optional")
    func twoDigitYear() {
        let result = date.apply("31.12.24")
        #expect(result.formatted == "31/12/24")
        #expect(result.extracted == "31/12/24")
        #expect(result.complete)
        #expect(result.tailPlaceholder == "00")
        #expect(result.status == .complete)
    }

    @Test("day and month alone are incomplete, with the next slash autocompleted")
    func dayAndMonth() {
        let result = date.apply("3112")
        #expect(result.formatted == "31/12/")
        #expect(result.extracted == "31/12/")
        #expect(result.status == .incomplete)
    }
}

@Suite("Names: [A][-----------------------------------------------------]")
struct NameTests {
    let name: Mask

    init() throws {
        name = try Mask(format: "[A][" + String(repeating: "-", count: 53) + "]")
    }

    @Test("a single word is complete, the unused optional slots stay in the tail")
    func singleWord() {
        let result = name.apply("jean")
        #expect(result.formatted == "jean")
        #expect(result.status == .complete)
        #expect(result.tailPlaceholder == String(repeating: "-", count: 50))
    }

    @Test("a hyphen passes over every optional slot, so the second part is lost")
    func hyphenatedName() {
        // The hyphen fits no optional slot: each is passed over (−1 each), then it is dropped.
        let result = name.apply("Mary-Jane")
        #expect(result.formatted == "Mary")
        #expect(result.dropped == "Jane")
        #expect(result.status == .lossy)
        #expect(result.affinity == 4 - 50 - 1 - 4)
    }

    @Test("a name starting with a digit skips it for the mandatory letter")
    func leadingDigit() {
        let result = name.apply("2pac")
        #expect(result.formatted == "pac")
        #expect(result.dropped == "2")
        #expect(result.status == .lossy)
    }
}

@Suite("Currency with an optional symbol: [s][9999], s = $€")
struct CurrencyTests {
    let amount: Mask

    init() throws {
        amount = try Mask(format: "[s][9999]", options: SyntaxOptions(notations: [currencySymbol]))
    }

    @Test(
        "amounts with or without a listed symbol are complete",
        arguments: ["12", "$12", "918", "€918", "1000", "$1000"])
    func readmeResults(_ value: String) {
        let result = amount.apply(value)
        #expect(result.formatted == value)
        #expect(result.extracted == value)
        #expect(result.status == .complete)
    }

    @Test("a symbol outside the set passes over every optional slot and loses the amount")
    func unknownSymbol() {
        let result = amount.apply("£12")
        #expect(result.formatted == "")
        #expect(result.dropped == "12")
        #expect(result.status == .lossy)
    }
}

@Suite("Decimals with an optional point: [999999999][.][99]")
struct DecimalTests {
    @Test(
        "the README's results", arguments: ["1", "123", "1234.", "1234.5", "1234.56"])
    func readmeResults(_ value: String) throws {
        let decimal = try Mask(
            format: "[999999999][.][99]", options: SyntaxOptions(notations: [optionalPoint]))
        let result = decimal.apply(value)
        #expect(result.formatted == value)
        #expect(result.status == .complete)
    }

    @Test("an integer leaves the point and the decimals in the tail")
    func integer() throws {
        let decimal = try Mask(
            format: "[999999999][.][99]", options: SyntaxOptions(notations: [optionalPoint]))
        let result = decimal.apply("1234")
        #expect(result.tailPlaceholder == "00000.00")
    }

    @Test("a comma is accepted when the notation lists it")
    func commaInSet() throws {
        let point = Notation(character: ".", characterSet: ".,", isOptional: true)
        let decimal = try Mask(format: "[999999999][.][99]", options: SyntaxOptions(notations: [point]))
        #expect(decimal.apply("1,23").formatted == "1,23")
        #expect(decimal.apply("1.23").formatted == "1.23")
    }

    @Test("a comma not in the set ends the number and the decimals are lost")
    func commaNotInSet() throws {
        let decimal = try Mask(
            format: "[999999999][.][99]", options: SyntaxOptions(notations: [optionalPoint]))
        let result = decimal.apply("1234,56")
        #expect(result.formatted == "1234")
        #expect(result.dropped == "56")
        #expect(result.status == .lossy)
    }

    @Test("a second point is data of the notation, so dropping it is a loss")
    func secondPoint() throws {
        let decimal = try Mask(
            format: "[999999999][.][99]", options: SyntaxOptions(notations: [optionalPoint]))
        let result = decimal.apply("1.2.")
        #expect(result.formatted == "1.2")
        #expect(result.dropped == ".")
        #expect(result.status == .lossy)
    }
}

@Suite("Right-to-left amounts")
struct RightToLeftAmountTests {
    @Test("nine digits are grouped by thousands")
    func nineDigits() throws {
        let amount = try Mask(format: "[000],[000],[000]", options: SyntaxOptions(rightToLeft: true))
        let result = amount.apply("123456789")
        #expect(result.formatted == "123,456,789")
        #expect(result.extracted == "123456789")
        #expect(result.status == .complete)
    }

    @Test("groups fill from the end, so a short amount has a short first group")
    func sevenDigitsOptionalGroups() throws {
        let amount = try Mask(format: "[999],[999],[000]", options: SyntaxOptions(rightToLeft: true))
        #expect(amount.apply("1234567").formatted == "1,234,567")
        #expect(amount.apply("1234567").status == .complete)
        #expect(amount.apply("1234").formatted == "1,234")
        #expect(amount.apply("1234").status == .complete)
        #expect(amount.apply("123").formatted == "123")
    }

    @Test("with mandatory groups a short amount is incomplete; the tail is what the start lacks")
    func sevenDigitsMandatoryGroups() throws {
        let amount = try Mask(format: "[000],[000],[000]", options: SyntaxOptions(rightToLeft: true))
        let result = amount.apply("1234567")
        #expect(result.formatted == "1,234,567")
        #expect(result.status == .incomplete)
        #expect(result.tailPlaceholder == "00")
    }

    @Test("cents after a fixed point, thousands separated by spaces")
    func amountWithCents() throws {
        let amount = try Mask(format: "[999] [999] [990]{.}[00]", options: SyntaxOptions(rightToLeft: true))
        let result = amount.apply("123456.78")
        #expect(result.formatted == "123 456.78")
        #expect(result.extracted == "123456.78")
        #expect(result.status == .complete)
    }

    @Test("the same format groups from the other end when applied left to right")
    func directionMatters() throws {
        let forward = try Mask(format: "[999] [999] [999]")
        let backward = try Mask(format: "[999] [999] [999]", options: SyntaxOptions(rightToLeft: true))
        #expect(forward.apply("1234567").formatted == "123 456 7")
        #expect(backward.apply("1234567").formatted == "1 234 567")
        #expect(backward.rightToLeft)
        #expect(!forward.rightToLeft)
    }

    @Test("digits that do not fit are lost from the start of the value")
    func tooLong() throws {
        let amount = try Mask(format: "[000],[000]", options: SyntaxOptions(rightToLeft: true))
        let result = amount.apply("9123456")
        #expect(result.formatted == "123,456")
        #expect(result.dropped == "9")
        #expect(result.status == .lossy)
    }
}
