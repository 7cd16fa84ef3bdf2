import MaskEngine
import Testing

@Suite("Autocomplete")
struct AutocompleteTests {
    @Test("on, the separator after the last filled slot is appended")
    func onAppendsFreeCharacters() throws {
        let phone = try Mask(format: "+1 ([000]) [000]-[0000]")
        #expect(phone.apply("555123", autocomplete: true).formatted == "+1 (555) 123-")
        #expect(phone.apply("555", autocomplete: true).formatted == "+1 (555) ")
    }

    @Test("off, the value stops at its last character")
    func offStopsAtLastSlot() throws {
        let phone = try Mask(format: "+1 ([000]) [000]-[0000]")
        let result = phone.apply("555123", autocomplete: false)
        #expect(result.formatted == "+1 (555) 123")
        #expect(result.tailPlaceholder == "-0000")
    }

    @Test("characters inserted before a filled slot appear whatever the setting")
    func insertionIsNotAutocomplete() throws {
        let date = try Mask(format: "[00]{/}[00]{/}[9900]")
        #expect(date.apply("3112", autocomplete: false).formatted == "31/12")
        #expect(date.apply("3112", autocomplete: true).formatted == "31/12/")
    }

    @Test("an autocompleted fixed character completes the value and is extracted")
    func fixedCharacterAndCompleteness() throws {
        let mask = try Mask(format: "[00]{/}")
        let off = mask.apply("12", autocomplete: false)
        #expect(off.formatted == "12")
        #expect(!off.complete)
        let on = mask.apply("12", autocomplete: true)
        #expect(on.formatted == "12/")
        #expect(on.extracted == "12/")
        #expect(on.complete)
    }

    @Test("autocomplete does not change the affinity")
    func affinityUnchanged() throws {
        let phone = try Mask(format: "+1 ([000]) [000]-[0000]")
        for value in ["555123", "5551234567", "(555"] {
            #expect(
                phone.apply(value, autocomplete: true).affinity
                    == phone.apply(value, autocomplete: false).affinity)
        }
    }

    @Test("an AffineMask passes its autocomplete setting to the format it applies")
    func affineMaskSetting() throws {
        let on = try AffineMask(format: "[00]-[00]", autocomplete: true)
        let off = try AffineMask(format: "[00]-[00]", autocomplete: false)
        #expect(on.apply("12").result.formatted == "12-")
        #expect(off.apply("12").result.formatted == "12")
    }

    @Test("the engine autocompletes an empty value to the leading characters, like the reference")
    func emptyValue() throws {
        // The pipeline never masks an empty cell (docs/cell-status.md); the engine itself follows the reference.
        let phone = try Mask(format: "+1 ([000]) [000]-[0000]")
        #expect(phone.apply("").formatted == "+1 (")
        #expect(phone.apply("", autocomplete: false).formatted == "")
        #expect(phone.apply("").status == .incomplete)
    }

    @Test("right to left, a non-empty value is not autocompleted")
    func rightToLeftNoAutocomplete() throws {
        let amount = try Mask(format: "$[999],[999]", options: SyntaxOptions(rightToLeft: true))
        #expect(amount.apply("1234").formatted == "1,234")
    }
}

@Suite("Completeness")
struct CompletenessTests {
    @Test("unfilled optional slots do not make a value incomplete")
    func optionalSlotsLeft() throws {
        let result = try Mask(format: "[00]-[99]").apply("12")
        #expect(result.complete)
        #expect(result.formatted == "12-")
    }

    @Test("an unfilled mandatory slot makes a value incomplete")
    func mandatorySlotLeft() throws {
        let mask = try Mask(format: "[00][99]")
        #expect(!mask.apply("1").complete)
        #expect(mask.apply("12").complete)
    }

    @Test("a format with only optional slots is complete on an empty value")
    func allOptional() throws {
        let mask = try Mask(format: "[s][9999]", options: SyntaxOptions(notations: [currencySymbol]))
        #expect(mask.apply("").complete)
        #expect(mask.apply("").status == .complete)
    }
}

@Suite("Affinity")
struct AffinityTests {
    @Test("bare phone digits: four characters inserted, three digits, two inserted, three, one, four")
    func phoneDigits() throws {
        // "+1 (" inserted: −4; "555": +3; ") " inserted: −2; "123": +3; "-" inserted: −1; "4567": +4.
        let result = try Mask(format: "+1 ([000]) [000]-[0000]").apply("5551234567")
        #expect(result.affinity == -4 + 3 - 2 + 3 - 1 + 4)
    }

    @Test("a formatted phone: only the country code is inserted")
    func formattedPhone() throws {
        // "+1 " inserted: −3; then all 14 characters are consumed: +14.
        let result = try Mask(format: "+1 ([000]) [000]-[0000]").apply("(555) 123-4567")
        #expect(result.affinity == -3 + 14)
    }

    @Test("a dash where a space is expected costs an insertion and a skip")
    func dashedCard() throws {
        // 16 digits: +16; each of the 3 dashes: the space is inserted (−1), the dash skipped (−1).
        let result = try Mask(format: "[0000] [0000] [0000] [0000]").apply("4111-1111-1111-1111")
        #expect(result.affinity == 16 - 3 * 2)
    }

    @Test("optional slots passed over each cost one")
    func optionalSlotsPassedOver() throws {
        // "1234": +4; the point passes over five optional digits: −5; "." +1; "56": +2.
        let result = try Mask(
            format: "[999999999][.][99]", options: SyntaxOptions(notations: [optionalPoint])
        ).apply("1234.56")
        #expect(result.affinity == 4 - 5 + 1 + 2)
    }

    @Test("characters left after the format ends each cost one")
    func charactersAfterTheEnd() throws {
        let result = try Mask(format: "[00]").apply("1234")
        #expect(result.affinity == 2 - 2)
    }
}

@Suite("Tail placeholder")
struct TailPlaceholderTests {
    @Test("it shows the part of the format the value did not reach")
    func shortValue() throws {
        let phone = try Mask(format: "+1 ([000]) [000]-[0000]")
        #expect(phone.apply("555").tailPlaceholder == "000-0000")
        #expect(phone.apply("555", autocomplete: false).tailPlaceholder == ") 000-0000")
    }

    @Test("it is empty when the format is used up")
    func fullValue() throws {
        let phone = try Mask(format: "+1 ([000]) [000]-[0000]")
        #expect(phone.apply("5551234567").tailPlaceholder == "")
    }

    @Test("it shows letters as a, alphanumerics as -, and notations as themselves")
    func slotKinds() throws {
        let mask = try Mask(format: "[0][A][_][s]", options: SyntaxOptions(notations: [currencySymbol]))
        #expect(mask.apply("1").tailPlaceholder == "a-s")
    }

    @Test("it stops at an ellipsis")
    func ellipsis() throws {
        #expect(try Mask(format: "[00…]").apply("1").tailPlaceholder == "0")
    }
}

@Suite("Dropped characters and status")
struct DroppedAndStatusTests {
    @Test("too many digits: complete but lossy")
    func tooLong() throws {
        let result = try Mask(format: "+1 ([000]) [000]-[0000]").apply("555123456789")
        #expect(result.formatted == "+1 (555) 123-4567")
        #expect(result.dropped == "89")
        #expect(result.complete)
        #expect(result.status == .lossy)
    }

    @Test("a letter among digits: skipped, dropped, lossy")
    func wrongType() throws {
        let result = try Mask(format: "[0000]").apply("12a34")
        #expect(result.formatted == "1234")
        #expect(result.dropped == "a")
        #expect(result.status == .lossy)
    }

    @Test("a missing mandatory slot is incomplete even when data was also dropped")
    func incompleteWinsOverLossy() throws {
        let result = try Mask(format: "[0000]").apply("12ab")
        #expect(result.dropped == "ab")
        #expect(!result.complete)
        #expect(result.status == .incomplete)
    }

    @Test(
        "dropped spaces, punctuation and symbols are not loss",
        arguments: ["1234 ", " 1234", "12-34", "(12)34.", "12€34", "12 $34", "1,2;3:4!", "12\t34\n"])
    func normalisationIsNotLoss(_ value: String) throws {
        let result = try Mask(format: "[0000]").apply(value)
        #expect(result.formatted == "1234")
        #expect(result.dropped == "")
        #expect(result.status == .complete)
    }

    @Test("a dropped character of a custom notation used by the format is loss")
    func notationCharacterIsData() throws {
        let mask = try Mask(format: "[0][s]", options: SyntaxOptions(notations: [currencySymbol]))
        let result = mask.apply("1$€")
        #expect(result.formatted == "1$")
        #expect(result.dropped == "€")
        #expect(result.status == .lossy)
    }

    @Test("a symbol dropped by a format that uses no notation with it is not loss")
    func unusedNotationCharacter() throws {
        let mask = try Mask(format: "[00]", options: SyntaxOptions(notations: [currencySymbol]))
        let result = mask.apply("12€")
        #expect(result.dropped == "")
        #expect(result.status == .complete)
    }

    @Test("the derived status follows complete and dropped")
    func derivedStatus() {
        #expect(CellStatus(complete: true, droppedDataCharacters: 0) == .complete)
        #expect(CellStatus(complete: true, droppedDataCharacters: 2) == .lossy)
        #expect(CellStatus(complete: false, droppedDataCharacters: 0) == .incomplete)
        #expect(CellStatus(complete: false, droppedDataCharacters: 3) == .incomplete)
    }
}
