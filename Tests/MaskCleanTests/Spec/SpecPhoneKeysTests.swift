import Testing

@testable import MaskClean

/// Phone columns' keys (docs/spec.md#phone-columns): their defaults, what they refuse, YAML and
/// the fingerprint.
@Suite("Spec: phone columns")
struct SpecPhoneKeysTests {
    func column(_ keys: String) -> String {
        #"{"columns":[{"name":"tel",\#(keys)}]}"#
    }

    @Test("defaults: no default region, international, added columns formatted, extracted, status, country")
    func defaults() throws {
        let phone = try loadSpec(column(#""kind":"phone""#)).columns[0]
        #expect(phone.phone == (try PhoneRules(defaultRegion: nil)))
        #expect(phone.phone?.format == .international)
        #expect(phone.regionColumn == nil)
        #expect(phone.addedColumns == ["tel_formatted", "tel_extracted", "tel_status", "tel_country"])
        #expect(phone.formats == ["phone"])
        #expect(phone.judgesValidity)
        #expect(phone.check == nil && phone.templateColumn == nil && phone.normalizedColumn == nil)
        // A column of formats has no phone rules and no country column.
        let plain = try loadSpec(column(#""format":"[000]""#)).columns[0]
        #expect(plain.phone == nil && plain.countryColumn == nil && !plain.judgesValidity)
    }

    @Test("every phone key read: region in any case, format, region column, added names and thresholds")
    func keys() throws {
        let spec = try loadSpec(
            column(
                #""kind":"phone","defaultRegion":"gb","phoneFormat":"national","regionColumn":"cc","countryColumn":"where","extractedColumn":null,"minComplete":0.9,"warnComplete":0.95,"maxInvalid":0.01,"trim":true,"required":true,"replace":"extracted","replaceIncomplete":true"#
            ))
        let phone = spec.columns[0]
        #expect(phone.phone?.defaultRegion == "GB")
        #expect(phone.phone?.format == .national)
        #expect(phone.regionColumn == "cc")
        #expect(phone.addedColumns == ["tel_formatted", "tel_status", "where"])
        #expect(phone.minComplete == 0.9 && phone.warnComplete == 0.95 && phone.maxInvalid == 0.01)
        #expect(phone.trim && phone.required && phone.replace == .extracted && phone.replaceIncomplete)
        #expect(spec.columnsRead == ["tel", "cc"])
        #expect(spec.regionIndexOfColumn == [1])
        let none = try loadSpec(column(#""kind":"phone","countryColumn":null,"defaultRegion":null"#))
        #expect(none.columns[0].addedColumns == ["tel_formatted", "tel_extracted", "tel_status"])
        #expect(none.columns[0].phone?.defaultRegion == nil)
        let e164 = try loadSpec(column(#""kind":"phone","phoneFormat":"e164","replace":"formatted""#))
        #expect(e164.columns[0].phone?.format == .e164 && e164.columns[0].replace == .formatted)
    }

    @Test("a region column read once, after the masked columns, even when two phone columns share it")
    func columnsRead() throws {
        let spec = try loadSpec(
            #"{"columns":[{"name":"a","kind":"phone","regionColumn":"cc"},{"name":"b","format":"[0]"},{"name":"c","kind":"phone","regionColumn":"cc"},{"name":"d","kind":"phone","regionColumn":"b"}]}"#
        )
        #expect(spec.columnsRead == ["a", "b", "c", "d", "cc"])
        #expect(spec.regionIndexOfColumn == [4, -1, 4, 1])
        #expect(
            spec.addedColumns == [
                "a_formatted", "a_extracted", "a_status", "a_country", "b_formatted", "b_extracted",
                "b_status",
                "c_formatted", "c_extracted", "c_status", "c_country", "d_formatted", "d_extracted",
                "d_status",
                "d_country",
            ])
    }

    @Test(
        "each key that a phone column would ignore is an error naming it and why",
        arguments: SpecReader.keysNotForPhone.map(\.key))
    func refusedOnPhone(key: String) {
        let values = [
            "format": #""[0]""#, "affineFormats": #"["[0]"]"#, "affinityStrategy": #""prefix""#,
            "syntax": #""akmask""#, "autocomplete": "false", "notations": "[]", "rightToLeft": "true",
            "template": "\"*\"", "symbols": #""+""#, "templateColumn": #""t""#,
            "placeholderCharacter": "\"*\"",
            "check": #""luhn""#, "dateOrder": #""DMY""#, "luhnPrefix": #""1""#, "normalizedColumn": #""n""#,
            "case": #""upper""#, "ignore": #"" ""#, "significant": #""-""#,
        ]
        let value = values[key] ?? "null"
        let error = specError(column(#""kind":"phone","\#(key)":\#(value)"#))
        let why = SpecReader.keysNotForPhone.first { $0.key == key }!.why
        #expect(
            error == #"spec.json: columns[0] "tel": \#(key): not with "kind": "phone": \#(why)"#,
            "\(error ?? "loaded")")
    }

    @Test("the reasons given for refused keys")
    func reasons() {
        #expect(
            specError(column(#""kind":"phone","format":"[000]""#))
                == #"spec.json: columns[0] "tel": format: not with "kind": "phone": a phone column has no formats: each number is formatted by its country's numbering plan"#
        )
        #expect(
            specError(column(#""kind":"phone","check":"luhn""#))
                == #"spec.json: columns[0] "tel": check: not with "kind": "phone": a phone column is judged by its numbering plan: an impossible number is invalid"#
        )
        #expect(
            specError(column(#""kind":"phone","case":"upper""#))
                == #"spec.json: columns[0] "tel": case: not with "kind": "phone": a phone number has no letters to put in a case"#
        )
    }

    @Test(
        "phone keys and values that are wrong are spec errors that say why",
        arguments: [
            (#""format":"[0]","defaultRegion":"GB""#, #"defaultRegion: only with "kind": "phone""#),
            (#""format":"[0]","regionColumn":"cc""#, #"regionColumn: only with "kind": "phone""#),
            (#""format":"[0]","countryColumn":"c""#, #"countryColumn: only with "kind": "phone""#),
            (#""format":"[0]","phoneFormat":"national""#, #"phoneFormat: only with "kind": "phone""#),
            (#""kind":"fone""#, #"kind: expected one of "phone", got "fone"; did you mean "phone"?"#),
            (#""kind":"Phone""#, #"kind: expected one of "phone", got "Phone""#),
            (#""minComplete":0.9"#, #"missing key "format" (or "kind": "phone")"#),
            (
                #""kind":"phone","defaultRegion":"GBR""#,
                #"defaultRegion: unknown region "GBR": expected an ISO 3166-1 alpha-2 code that has telephone numbers, as "GB" or "us""#
            ),
            (#""kind":"phone","defaultRegion":44"#, "defaultRegion: expected a string, got the number 44"),
            (
                #""kind":"phone","phoneFormat":"E164""#,
                #"phoneFormat: expected one of "international", "national", "e164", got "E164"; did you mean "e164"?"#
            ),
            (#""kind":"phone","regionColumn":"""#, "regionColumn: expected a non-empty string"),
            (
                #""kind":"phone","replace":"normalized""#,
                #"replace: "normalized" is not for a phone column: its normal form is the E.164 value, "extracted""#
            ),
            (
                #""kind":"phone","replaceIncomplete":true"#,
                #"replaceIncomplete: only with "replace": it says which cells replace their input"#
            ),
            (
                #""kind":"phone","maxInvalid":5"#,
                "maxInvalid is a fraction from 0 to 1, got 5; did you mean 0.05?"
            ),
            (
                #""kind":"phone","minComplete":0.9,"warnComplete":0.8"#,
                "warnComplete is a fraction from minComplete (0.9) to 1, got 0.8"
            ),
            (
                #""kind":"phone","countryColumn":"tel_status""#,
                #"countryColumn: "tel_status" is already the name of columns[0] "tel" statusColumn"#
            ),
            (#""kind":"phone","countryColumn":"""#, "countryColumn: expected a non-empty string"),
            (
                #""kind":"phone","regionColumn":"tel""#,
                #"regionColumn: "tel" is the phone column itself: name the input column that holds each record's region"#
            ),
            (
                #""kind":"phone","regionColumn":"tel_country""#,
                #"regionColumn: "tel_country" is the name of columns[0] "tel" countryColumn, a column the run adds; name an input column"#
            ),
        ])
    func refused(keys: String, message: String) {
        let error = specError(column(keys))
        #expect(error?.contains(message) == true, "\(error ?? "loaded")")
        #expect(error?.hasPrefix(#"spec.json: columns[0] "tel""#) == true, "\(error ?? "loaded")")
    }

    @Test("a country column's name must differ from every other added name")
    func countryNameRepeated() {
        let error = specError(
            #"{"columns":[{"name":"a","format":"[0]","formattedColumn":"where"},{"name":"b","kind":"phone","countryColumn":"where"}]}"#
        )
        #expect(
            error
                == #"spec.json: columns[1] "b": countryColumn: "where" is already the name of columns[0] "a" formattedColumn"#,
            "\(error ?? "loaded")")
    }

    @Test("YAML specs take the same keys, and their messages name the line")
    func yaml() throws {
        let yaml = """
            columns:
              - name: tel
                kind: phone
                defaultRegion: GB
                regionColumn: cc
                phoneFormat: national
                countryColumn: null
                maxInvalid: 0.01
            """
        let spec = try loadSpec(yaml, file: "spec.yaml")
        let json = try loadSpec(
            column(
                #""kind":"phone","defaultRegion":"GB","regionColumn":"cc","phoneFormat":"national","countryColumn":null,"maxInvalid":0.01"#
            ))
        #expect(spec.fingerprint == json.fingerprint)
        #expect(spec.columns[0].phone?.format == .national && spec.columns[0].countryColumn == nil)
        let withFormat = yaml + "\n    format: \"[0]\"\n"
        #expect(
            specError(withFormat, file: "spec.yaml")?.hasPrefix(#"spec.yaml:9: columns[0] "tel": format: "#)
                == true, "\(specError(withFormat, file: "spec.yaml") ?? "loaded")")
        let badRegion = yaml.replacingOccurrences(of: "defaultRegion: GB", with: "defaultRegion: GBR")
        #expect(
            specError(badRegion, file: "spec.yaml")?.hasPrefix(
                #"spec.yaml:4: columns[0] "tel": defaultRegion: "#)
                == true, "\(specError(badRegion, file: "spec.yaml") ?? "loaded")")
        // `NO` (Norway) is a boolean to YAML 1.1: the loader asks for quotes.
        let norway = yaml.replacingOccurrences(of: "defaultRegion: GB", with: "defaultRegion: NO")
        #expect(specError(norway, file: "spec.yaml")?.contains("quote it") == true)
    }

    @Test("the fingerprint: defaults spelled out change nothing, every phone key changes it")
    func fingerprint() throws {
        let base = try loadSpec(column(#""kind":"phone""#))
        let spelled = try loadSpec(
            column(
                #""kind":"phone","defaultRegion":null,"regionColumn":null,"phoneFormat":"international","countryColumn":"tel_country","formattedColumn":"tel_formatted","trim":false,"required":false,"maxInvalid":null"#
            ))
        #expect(spelled.fingerprint == base.fingerprint)
        #expect(SpecFingerprint.canonicalText(base).contains("  kind phone\n"))
        let changed = [
            #""kind":"phone","defaultRegion":"GB""#, #""kind":"phone","defaultRegion":"US""#,
            #""kind":"phone","regionColumn":"cc""#, #""kind":"phone","phoneFormat":"national""#,
            #""kind":"phone","phoneFormat":"e164""#, #""kind":"phone","countryColumn":null"#,
            #""kind":"phone","countryColumn":"c""#, #""kind":"phone","maxInvalid":0.1"#,
            #""kind":"phone","replace":"extracted""#, #""kind":"phone","replace":"formatted""#,
            #""kind":"phone","trim":true"#, #""kind":"phone","extractedColumn":null"#,
        ]
        var seen: Set = [base.fingerprint]
        for keys in changed {
            let fingerprint = try loadSpec(column(keys)).fingerprint
            #expect(seen.insert(fingerprint).inserted, "\(keys)")
        }
        // A region in any case is one region.
        #expect(
            try loadSpec(column(#""kind":"phone","defaultRegion":"gb""#)).fingerprint
                == loadSpec(column(#""kind":"phone","defaultRegion":"GB""#)).fingerprint)
        // A column of formats keeps the text it had before phone columns.
        let plain = try loadSpec(column(#""format":"[000]""#))
        #expect(!SpecFingerprint.canonicalText(plain).contains("kind"))
        #expect(!SpecFingerprint.canonicalText(plain).contains("country"))
    }
}
