import Testing

@testable import MaskClean

/// The keys of checks, case and separators (docs/spec.md#checks): what they default to, and
/// each mistake refused with a message that names the key and says what it needs.
@Suite("Spec: check, case, ignore and significant")
struct SpecCheckKeysTests {
    func column(_ keys: String) -> String {
        #"{"columns":[{"name":"d",\#(keys)}]}"#
    }

    @Test(
        "defaults: no check, case keep, nothing ignored or significant; a normalized column only for date, iban, isbn"
    )
    func defaults() throws {
        let plain = try loadSpec(column(#""format":"[0000]""#)).columns[0]
        #expect(plain.check == nil && plain.letterCase == .keep && plain.ignore.isEmpty)
        #expect(
            plain.syntaxOptions.significant.isEmpty && plain.normalizedColumn == nil
                && plain.maxInvalid == nil)
        #expect(plain.addedColumns == ["d_formatted", "d_extracted", "d_status"])
        for (check, normalized) in [
            ("date", true), ("iban", true), ("isbn", true), ("luhn", false), ("gtin", false),
        ] {
            let format = check == "date" ? "[0000]-[00]-[00]" : "[0000]"
            let spec = try loadSpec(column(#""format":"\#(format)","check":"\#(check)""#)).columns[0]
            #expect(spec.check?.name.rawValue == check)
            #expect(spec.normalizedColumn == (normalized ? "d_normalized" : nil), "\(check)")
        }
        let named = try loadSpec(
            column(
                #""format":"[0000]-[00]-[00]","check":"date","normalizedColumn":"iso","templateColumn":"t""#))
        #expect(named.columns[0].addedColumns == ["d_formatted", "d_extracted", "d_status", "t", "iso"])
        let none = try loadSpec(
            column(#""format":"[0000]-[00]-[00]","check":"date","normalizedColumn":null"#))
        #expect(none.columns[0].normalizedColumn == nil)
    }

    @Test(
        "each key without what it belongs to, or with a wrong value, is a spec error that says why",
        arguments: [
            (
                #""format":"[0000]","check":"luhm""#,
                #"check: expected one of "date", "luhn", "iban", "isbn", "gtin", got "luhm"; did you mean "luhn"?"#
            ),
            (#""format":"[0000]","dateOrder":"DMY""#, #"dateOrder: only with "check": "date""#),
            (
                #""format":"[00]/[00]/[0000]","check":"date","dateOrder":"dmy""#,
                #"dateOrder: expected one of "YMD", "MDY", "DMY", got "dmy"; did you mean "DMY"?"#
            ),
            (
                #""format":"[0000]","check":"gtin","luhnPrefix":"80840""#,
                #"luhnPrefix: only with "check": "luhn""#
            ),
            (
                #""format":"[0000]","check":"luhn","luhnPrefix":"8084-0""#,
                #"luhnPrefix: expected digits only (the NPI's is "80840"), got "8084-0""#
            ),
            (
                #""format":"[0000]","maxInvalid":0.1"#,
                #"maxInvalid: only with a "check": without one no cell is invalid"#
            ),
            (
                #""format":"[0000]","check":"luhn","maxInvalid":5"#,
                "maxInvalid is a fraction from 0 to 1, got 5; did you mean 0.05?"
            ),
            (
                #""format":"[0000]","check":"luhn","normalizedColumn":"n""#,
                #"normalizedColumn: check "luhn" has no normalized form (only date, iban and isbn do)"#
            ),
            (
                #""format":"[0000]","normalizedColumn":"n""#,
                #"normalizedColumn: only with a "check" that has a normalized form: date, iban or isbn"#
            ),
            (
                #""format":"[0000]","replace":"normalized""#,
                #"replace: "normalized" needs a "check" that has a normalized form: date, iban or isbn"#
            ),
            (
                #""format":"[0000]-[00]-[00]","check":"date","replace":"normalized","replaceIncomplete":true"#,
                #"replaceIncomplete: not with "replace": "normalized": only a complete cell has a normalized value"#
            ),
            (
                #""format":"[0000]","case":"Upper""#,
                #"case: expected one of "keep", "upper", "lower", got "Upper"; did you mean "upper"?"#
            ),
            (
                #""format":"[0000]","ignore":" -","significant":"-.""#,
                #"significant: "-" is in "ignore" too: a character is either removed before masking or counted"#
            ),
            (#""format":"[0000]","ignore":5"#, "ignore: expected a string, got the number 5"),
            (
                #""format":"[0000]-[00]-[00]","check":"date","normalizedColumn":"d_status""#,
                #"normalizedColumn: "d_status" is already the name of columns[0] "d" statusColumn"#
            ),
        ])
    func refused(keys: String, message: String) {
        let error = specError(column(keys))
        #expect(error?.contains(message) == true, "\(error ?? "loaded")")
        #expect(error?.hasPrefix(#"spec.json: columns[0] "d": "#) == true, "\(error ?? "loaded")")
    }

    @Test(
        "a date check needs formats that hold a date; the message names the format and why",
        arguments: [
            (
                "[00]/[00]/[0000]", nil,
                #"check: "date" cannot read format "[00]/[00]/[0000]": the year is last, so "dateOrder" must say "MDY" or "DMY" (month or day first)"#
            ),
            ("[00]/[00]", "DMY", "a date has 3 groups of digits (day, month, year), this format has 2"),
            ("[00]/[00]/[00]", nil, #"no group of 4 digits is the year, so "dateOrder" must say which is"#),
            ("[000000]", nil, #"6 digits without separators need "dateOrder" to say which is which"#),
            ("[0000000]", "DMY", "a date in one group of digits has 8 (or 6) of them, not 7"),
            ("[00]/[0000]/[00]", "DMY", "the year, the one group of 4 digits, must come first or last"),
            ("[000]/[00]/[0000]", "DMY", "a day or a month has at most 2 digits, not 3"),
            ("20[00]-[00]-[00]", "YMD", "a date's format must not write digits of its own"),
            ("[0000]-[00]-[00]", "MDY", nil),
            ("[00000000]", nil, nil),
            ("[00]/[00]/[00]", "YMD", nil),
            ("[09].[09].[0000]", "DMY", nil),
        ] as [(String, String?, String?)])
    func dateFormats(format: String, order: String?, message: String?) {
        let orderKey = order.map { #","dateOrder":"\#($0)""# } ?? ""
        let error = specError(column(#""format":"\#(format)","check":"date"\#(orderKey)"#))
        if let message {
            #expect(error?.contains(message) == true, "\(error ?? "loaded")")
        } else {
            #expect(error == nil, "\(error ?? "")")
        }
    }

    @Test("an affine format that cannot hold a date is named as affineFormats[i]")
    func affineDateFormat() {
        let error = specError(
            column(
                #""format":"[0000]-[00]-[00]","affineFormats":["[0000]/[00]/[00]","[00]-[00]"],"check":"date""#
            ))
        #expect(
            error?.contains(#"check: "date" cannot read affineFormats[1] "[00]-[00]""#) == true,
            "\(error ?? "")")
    }

    @Test("YAML specs take the same keys, and their messages name the line")
    func yaml() throws {
        let yaml = """
            columns:
              - name: "d"
                format: "[00]/[00]/[0000]"
                check: "date"
                dateOrder: "DMY"
                case: "upper"
                ignore: " "
                significant: "-"
                maxInvalid: 0.01
            """
        let spec = try loadSpec(yaml, file: "spec.yaml")
        #expect(spec.columns[0].check?.dateOrder == .dmy && spec.columns[0].maxInvalid == 0.01)
        let json = try loadSpec(
            column(
                #""format":"[00]/[00]/[0000]","check":"date","dateOrder":"DMY","case":"upper","ignore":" ","significant":"-","maxInvalid":0.01"#
            ))
        #expect(spec.fingerprint == json.fingerprint)
        let error = specError(yaml.replacingOccurrences(of: "\"DMY\"", with: "\"DM\""), file: "spec.yaml")
        #expect(error?.hasPrefix("spec.yaml:5: ") == true, "\(error ?? "")")
    }
}
