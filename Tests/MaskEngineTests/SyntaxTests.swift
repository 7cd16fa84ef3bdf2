import MaskEngine
import Testing

/// One example row of docs/mask-syntax.md: a format, a value and what the engine must give.
struct SyntaxExample: CustomTestStringConvertible, Sendable {
    var format: String
    var input: String
    var formatted: String
    var extracted: String
    var status: CellStatus
    var symbols: String? = nil

    var testDescription: String { "\(format) ← \(input.debugDescription)" }

    func check(_ syntax: Syntax, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let mask = try Mask(syntax: syntax, format: format, options: SyntaxOptions(symbols: symbols))
        let result = mask.apply(input)
        #expect(result.formatted == formatted, sourceLocation: sourceLocation)
        #expect(result.extracted == extracted, sourceLocation: sourceLocation)
        #expect(result.status == status, sourceLocation: sourceLocation)
        // The byte API, with the ASCII fast path, agrees with the String one.
        let affine = AffineMask(primary: mask)
        let buffer = ApplyBuffer()
        var value = input
        let outcome = value.withUTF8 { affine.apply(utf8: $0, into: buffer) }
        #expect(
            String(decoding: buffer.formatted, as: UTF8.self) == formatted, sourceLocation: sourceLocation)
        #expect(
            String(decoding: buffer.extracted, as: UTF8.self) == extracted, sourceLocation: sourceLocation)
        #expect(outcome.status == status, sourceLocation: sourceLocation)
    }
}

@Suite("AKMaskField's syntax (docs/mask-syntax.md)")
struct AKMaskTests {
    /// The `akmask` table of docs/mask-syntax.md, row by row.
    static let table: [SyntaxExample] = [
        .init(
            format: "{dddd}-{dddd}-{dddd}-{dddd}", input: "1111222233334444",
            formatted: "1111-2222-3333-4444", extracted: "1111222233334444", status: .complete),
        .init(
            format: "{dddd}-{dddd}-{dddd}-{dddd}", input: "1111 2222 3333 4444",
            formatted: "1111-2222-3333-4444", extracted: "1111222233334444", status: .complete),
        .init(
            format: "+38 ({ddd}) {ddd}-{dd}-{dd}", input: "5551234567", formatted: "+38 (555) 123-45-67",
            extracted: "5551234567", status: .complete),
        .init(
            format: "+38 ({ddd}) {ddd}-{dd}-{dd}", input: "+38 (123) 111-22-33",
            formatted: "+38 (123) 111-22-33", extracted: "1231112233", status: .complete),
        .init(
            format: "+38 ({ddd}) {ddd}-{dd}-{dd}", input: "380501234567", formatted: "+38 (380) 501-23-45",
            extracted: "3805012345", status: .lossy),
        .init(
            format: "+38 ({ddd}) {ddd}-{dd}-{dd}", input: "+380501234567", formatted: "+38 (050) 123-45-67",
            extracted: "0501234567", status: .complete),
        .init(
            format: "{aa}/{d} {d} {d}-{ddd}-{dd}", input: "AB12345678", formatted: "AB/1 2 3-456-78",
            extracted: "AB12345678", status: .complete),
        .init(
            format: "{dddd}-{DDDD}-{WaWa}-{aaaa}", input: "1234ABCD!a?bwxyz",
            formatted: "1234-ABCD-!a?b-wxyz", extracted: "1234ABCD!a?bwxyz", status: .complete),
        .init(
            format: "{dddd}-{DDDD}-{WaWa}-{aaaa}", input: "12345", formatted: "1234-", extracted: "1234",
            status: .incomplete),
        .init(
            format: "{dddd}-{DDDD}-{WaWa}-{aaaa}", input: "1234ABCD1a2b", formatted: "1234-ABCD-",
            extracted: "1234ABCD", status: .incomplete),
        .init(
            format: "{dddd}-{DDDD}-{WaWa}-{aaaa}", input: "1234    !a?bwxyz", formatted: "1234-   !-",
            extracted: "1234   !", status: .incomplete),
        .init(format: "{dd}-{dd}", input: "١٢٣٤", formatted: "١٢-٣٤", extracted: "١٢٣٤", status: .complete),
        .init(format: "{dd}-{dd}", input: "123456", formatted: "12-34", extracted: "1234", status: .lossy),
        .init(format: "({ddd})", input: "1234", formatted: "(123)", extracted: "123", status: .lossy),
        .init(format: "{dddd}-{dddd}", input: "a1234567", formatted: "", extracted: "", status: .incomplete),
        .init(format: "{d.}", input: "1\n", formatted: "1", extracted: "1", status: .incomplete),
    ]

    @Test("every row of the akmask table", arguments: table)
    func tableRow(_ example: SyntaxExample) throws {
        try example.check(.akmask)
    }

    @Test("a template one character per position shows the rest of the mask")
    func fullTemplate() throws {
        let mask = try AffineMask(
            syntax: .akmask, format: "{dddd}-{DDDD}-{WaWa}-{aaaa}",
            options: SyntaxOptions(template: "ABCD-EFGH-IJKL-MNOP"))
        #expect(mask.template("12345", placeholder: "_") == "1234-EFGH-IJKL-MNOP")
        #expect(mask.template("1234ABCD!a?bwxyz", placeholder: "_") == "1234-ABCD-!a?b-wxyz")
    }

    @Test("a one-character template stands for every slot; without one, the placeholder does")
    func oneCharacterTemplate() throws {
        let withTemplate = try AffineMask(
            syntax: .akmask, format: "{dddd}-{dddd}", options: SyntaxOptions(template: "X"))
        #expect(withTemplate.template("12a4", placeholder: "_") == "12XX-XXXX")
        let withoutTemplate = try AffineMask(syntax: .akmask, format: "{dddd}-{dddd}")
        #expect(withoutTemplate.template("12a4", placeholder: "·") == "12··-····")
    }

    @Test("a template of any other length is an error")
    func templateLength() {
        #expect(throws: FormatError.self) {
            try Mask(syntax: .akmask, format: "{dd}-{dd}", options: SyntaxOptions(template: "XX"))
        }
        do {
            _ = try Mask(syntax: .akmask, format: "{dd}-{dd}", options: SyntaxOptions(template: "XX"))
        } catch {
            #expect(
                error.description
                    == "template has 2 characters: it needs one, or 5 (one for each position of the mask)")
        }
    }

    @Test(
        "spec errors carry their offset",
        arguments: [
            ("{ddxd}", "unknown symbol 'x' inside {} (akmask slots are d D W a .) at offset 3"),
            ("12{}", "empty block {} at offset 2"),
            ("{dd{d}}", "unexpected '{' inside {} at offset 3"),
            ("+1 {ddd", "'{' at offset 3 is never closed"),
        ])
    func errors(_ format: String, _ message: String) {
        do {
            _ = try Mask(syntax: .akmask, format: format)
            Issue.record("\(format) compiled")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("d takes any Unicode decimal digit; D takes ½ and letters, not digits")
    func unicode() throws {
        try SyntaxExample(format: "{dd}", input: "٣७", formatted: "٣७", extracted: "٣७", status: .complete)
            .check(.akmask)
        try SyntaxExample(format: "{DD}", input: "½é", formatted: "½é", extracted: "½é", status: .complete)
            .check(.akmask)
        try SyntaxExample(format: "{DD}", input: "a5", formatted: "a", extracted: "a", status: .incomplete)
            .check(.akmask)
    }

    @Test("a rejects é; W rejects letters, digits and _, takes punctuation and spaces")
    func asciiLettersAndNonWordCharacters() throws {
        try SyntaxExample(format: "{aa}", input: "éa", formatted: "", extracted: "", status: .incomplete)
            .check(.akmask)
        try SyntaxExample(format: "{WW}", input: "! ", formatted: "! ", extracted: "! ", status: .complete)
            .check(.akmask)
        try SyntaxExample(format: "{W}", input: "_", formatted: "", extracted: "", status: .incomplete)
            .check(.akmask)
    }

    @Test("a literal typed where it stands, or a space, is taken for it; the rest goes to the next slot")
    func literals() throws {
        try SyntaxExample(
            format: "{dd}/{dd}", input: "12 34", formatted: "12/34", extracted: "1234", status: .complete
        ).check(.akmask)
        try SyntaxExample(
            format: "{dd}/{dd}", input: "12.34", formatted: "12/", extracted: "12", status: .incomplete
        ).check(.akmask)
    }

    @Test("without autocomplete the formatted value ends at the last filled slot")
    func noAutocomplete() throws {
        let mask = try AffineMask(syntax: .akmask, format: "{dd}-{dd}", autocomplete: false)
        #expect(mask.apply("12-").result.formatted == "12")
        #expect(mask.apply("12").result.formatted == "12")
        #expect(try AffineMask(syntax: .akmask, format: "{dd}-{dd}").apply("12").result.formatted == "12-")
    }
}

@Suite("Maskara's syntax (docs/mask-syntax.md)")
struct MaskaraTests {
    /// The `maskara` table of docs/mask-syntax.md, row by row.
    static let table: [SyntaxExample] = [
        .init(
            format: "+?7|8(DDD)DDD-DD-DD", input: "9211", formatted: "7(921)1", extracted: "9211",
            status: .incomplete),
        .init(
            format: "+7|8(DDD)DDD-DD-DD", input: "9211234567", formatted: "+7(921)123-45-67",
            extracted: "9211234567", status: .complete),
        .init(
            format: "+7|8(DDD)DDD-DD-DD", input: "7211234567", formatted: "+7(211)234-56-7",
            extracted: "211234567", status: .incomplete),
        .init(
            format: "+?7|8(DDD)DDD-| ?DD-| ?DD", input: "+7(123)456-78-90", formatted: "+7(123)456-78-90",
            extracted: "1234567890", status: .complete),
        .init(
            format: "+?7|8(DDD)DDD-| ?DD-| ?DD", input: "7(123)456 7890", formatted: "7(123)456 7890",
            extracted: "1234567890", status: .complete),
        .init(
            format: "+?7|8(DDD)DDD-| ?DD-| ?DD", input: "7(123)456", formatted: "7(123)456",
            extracted: "123456", status: .incomplete),
        .init(
            format: "+?7|8(DDD)DDD-| ?DD-| ?DD", input: "456-78-90", formatted: "7(456)", extracted: "456",
            status: .incomplete),
        .init(format: "XX-DD", input: "ab12", formatted: "AB-12", extracted: "ab12", status: .complete),
        .init(
            format: "+7|8(DDD)DDD-?D|XD|X-?D|XD|X", input: "921123MYAP", formatted: "+7(921)123MYAP",
            extracted: "921123MYAP", status: .complete),
        .init(
            format: "+7|8(DDD)DDD-?D|XD|X-?D|XD|X", input: "721123M", formatted: "+7(211)23",
            extracted: "21123", status: .incomplete),
        .init(
            format: "DD?D?.DD?D?.DD?D?.DD?D?", input: "0.0.0.0", formatted: "0.0.0.0", extracted: "0000",
            status: .complete, symbols: "."),
    ]

    @Test("every row of the maskara table", arguments: table)
    func tableRow(_ example: SyntaxExample) throws {
        try example.check(.maskara)
    }

    @Test(
        "spec errors carry their offset (the list in docs/mask-syntax.md)",
        arguments: [
            ("+??", "'?' after an optional expression at offset 2"),
            ("|7", "'|' without a left operand at offset 0"),
            ("7|", "'|' without a right operand at offset 1"),
            ("?|7", "'?' with nothing before it at offset 0"),
            ("a", "unexpected 'a' (maskara tokens are D X ? | digits and the symbols \" ()+-\") at offset 0"),
            ("7||8", "'|' without a right operand at offset 1"),
            ("D|?", "'|' without a right operand at offset 1"),
        ])
    func errors(_ format: String, _ message: String) {
        do {
            _ = try Mask(syntax: .maskara, format: format)
            Issue.record("\(format) compiled")
        } catch {
            #expect(error.description == message)
        }
    }

    /// Regression: `D?|7?` was refused as "'?' after an optional expression"; the maskara grammar of docs/mask-syntax.md
    /// makes that `?` redundant (the choice has an optional branch), and only `??` an error.
    @Test("a ? after a choice with an optional branch is redundant; D?? and +?? still fail")
    func redundantQuestionMark() throws {
        let redundant = try Mask(syntax: .maskara, format: "D?|7?(DD)")
        let plain = try Mask(syntax: .maskara, format: "D?|7(DD)")
        for value in ["5(12)", "7(12)", "(12)", "12", "x"] {
            #expect(redundant.apply(value) == plain.apply(value), "\(value)")
        }
        #expect(redundant.apply("(12)").status == .complete, "the choice may be left out")
        for format in ["D??", "D?|7??"] {
            #expect(throws: FormatError.self) { try Mask(syntax: .maskara, format: format) }
        }
    }

    /// Regression: `٣D` was refused as an unknown character; any Unicode decimal digit is a literal.
    @Test("a Unicode decimal digit in a maskara format is a literal")
    func unicodeDigitLiterals() throws {
        let arabic = try Mask(syntax: .maskara, format: "٣D")
        #expect(arabic.apply("5").formatted == "٣5")
        #expect(arabic.apply("5").extracted == "5")
        #expect(arabic.apply("٣5").formatted == "٣5")
        #expect(arabic.apply("٣5").status == .complete)
        let devanagari = try Mask(syntax: .maskara, format: "+७|८DD")
        #expect(devanagari.apply("८12").formatted == "+८12")
        // A number that is not a decimal digit is still no literal.
        #expect(throws: FormatError.self) { try Mask(syntax: .maskara, format: "½D") }
    }

    @Test("| is left-associative, and ? after a choice makes the whole choice optional")
    func choices() throws {
        let mask = try Mask(syntax: .maskara, format: "7|8|9D")
        #expect(mask.apply("81").formatted == "81")
        #expect(mask.apply("91").formatted == "91")
        // 5 matches no branch: the left one is inserted and 5 tried at D; the 1 is left over.
        #expect(mask.apply("51").formatted == "75")
        #expect(mask.apply("51").status == .lossy)
        let optional = try Mask(syntax: .maskara, format: "7|8?DD")
        #expect(optional.apply("12").formatted == "12")
        #expect(optional.apply("812").formatted == "812")
    }

    @Test("D takes Unicode numbers (½, ①, Arabic-Indic digits); X takes ASCII letters only")
    func unicode() throws {
        try SyntaxExample(format: "DDD", input: "½①٣", formatted: "½①٣", extracted: "½①٣", status: .complete)
            .check(.maskara)
        try SyntaxExample(format: "XX", input: "éa", formatted: "", extracted: "", status: .incomplete)
            .check(.maskara)
        try SyntaxExample(format: "XX", input: "aé", formatted: "A", extracted: "a", status: .incomplete)
            .check(.maskara)
    }

    @Test("symbols replace the default set: a default symbol is then an error")
    func symbols() throws {
        #expect(throws: FormatError.self) {
            try Mask(syntax: .maskara, format: "(DD)", options: SyntaxOptions(symbols: "."))
        }
        let dotted = try Mask(syntax: .maskara, format: "DD.DD", options: SyntaxOptions(symbols: "."))
        #expect(dotted.apply("1234").formatted == "12.34")
    }

    @Test("a literal class is written as its left branch when inserted, as typed when matched")
    func literalClasses() throws {
        let mask = try Mask(syntax: .maskara, format: "DD-| DD")
        #expect(mask.apply("1234").formatted == "12-34")
        #expect(mask.apply("12 34").formatted == "12 34")
    }

    @Test("the template shows unfilled mandatory slots and literals, not optional elements")
    func template() throws {
        let mask = try AffineMask(syntax: .maskara, format: "+?7|8(DDD)DDD-DD-DD")
        #expect(mask.template("9211", placeholder: "_") == "7(921)1__-__-__")
    }

    @Test("affine formats choose between maskara formats too")
    func affine() throws {
        let mask = try AffineMask(syntax: .maskara, format: "+7(DDD)DDD-DD-DD", affineFormats: ["DDD-DD-DD"])
        #expect(mask.masks[mask.apply("123-45-67").chosen].format == "DDD-DD-DD")
        #expect(mask.masks[mask.apply("+7(921)123-45-67").chosen].format == "+7(DDD)DDD-DD-DD")
    }
}
