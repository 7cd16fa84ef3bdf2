import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// docs/spec.md: every spec problem stops the run (exit 78) with a message naming the file, the
/// place in it and what is wrong.
@Suite("Spec loader")
struct SpecLoaderTests {
    /// A spec with one column and the given extra members, `"name":"phone","format":"[000]"` first.
    func column(_ extra: String) -> String {
        #"{"columns":[{"name":"phone","format":"[000]-[0000]"\#(extra.isEmpty ? "" : ",")\#(extra)}]}"#
    }

    // MARK: JSON and shape

    @Test("bad JSON names the line and column")
    func badJSON() {
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"[000]",}]}"#)
                == "spec.json: line 1, column 46: unexpected '}', expected a key (a string)")
        #expect(
            specError(
                "{\"columns\":[\n  {\"name\":\"phone\" \"format\":\"[000]\"}]}", file: "specs/customers.json")
                == "specs/customers.json: line 2, column 19: unexpected '\"', expected ',' or '}'")
        #expect(specError("") == "spec.json: line 1, column 1: unexpected end of input, expected a value")
        #expect(
            specError("{\"columns\":[{\"name\":\"phone\",\"format\":\"[0]\"}]}\n x")
                == "spec.json: line 2, column 2: unexpected text after the JSON value")
        #expect(
            specError("{\n\"columns\": [\n{\"name\": \"phone\", \"format\": \"[0]\n\"}]}")
                == "spec.json: line 3, column 33: control character inside a string (escape it)")
    }

    @Test("the top level must be an object")
    func topLevelNotAnObject() {
        #expect(specError("[]") == "spec.json: expected an object, got an array")
        #expect(specError(#""columns""#) == #"spec.json: expected an object, got the string "columns""#)
        #expect(specError("null") == "spec.json: expected an object, got null")
    }

    @Test("columns is required, an array, and not empty")
    func columnsRequired() {
        #expect(specError("{}") == #"spec.json: missing key "columns": a spec lists the columns to mask"#)
        #expect(specError(#"{"columns":[]}"#) == "spec.json: columns: expected at least one column")
        #expect(
            specError(#"{"columns":{}}"#) == "spec.json: columns: expected an array of columns, got an object"
        )
        #expect(
            specError(#"{"columns":null}"#) == "spec.json: columns: expected an array of columns, got null")
        #expect(
            specError(#"{"columns":[1]}"#) == "spec.json: columns[0]: expected an object, got the number 1")
    }

    // MARK: Unknown and repeated keys

    @Test("an unknown key at the top level is named, with the likely intent")
    func unknownTopLevelKey() {
        #expect(specError(#"{"colums":[]}"#) == #"spec.json: unknown key "colums" (did you mean "columns"?)"#)
        #expect(
            specError(#"{"notation":[],"columns":[]}"#)
                == #"spec.json: unknown key "notation" (did you mean "notations"?)"#)
        // Nothing close enough: no suggestion.
        #expect(specError(#"{"version":2,"columns":[]}"#) == #"spec.json: unknown key "version""#)
    }

    @Test("an unknown key in a column names the column")
    func unknownColumnKey() {
        #expect(
            specError(column(#""formt":"x""#))
                == #"spec.json: columns[0] "phone": unknown key "formt" (did you mean "format"?)"#)
        #expect(
            specError(column(#""minimumComplete":0.5"#))
                == #"spec.json: columns[0] "phone": unknown key "minimumComplete" (did you mean "minComplete"?)"#
        )
        #expect(
            specError(column(#""Required":true"#))
                == #"spec.json: columns[0] "phone": unknown key "Required" (did you mean "required"?)"#)
        #expect(
            specError(column(#""comment":"x""#)) == #"spec.json: columns[0] "phone": unknown key "comment""#)
        // The second column is named by its index and its name.
        #expect(
            specError(
                #"{"columns":[{"name":"phone","format":"[0]"},{"name":"zip","format":"[00000]","afineFormats":[]}]}"#
            )
                == #"spec.json: columns[1] "zip": unknown key "afineFormats" (did you mean "affineFormats"?)"#
        )
        // A column without a usable name is named by its index alone.
        #expect(
            specError(#"{"columns":[{"format":"[0]","nme":"phone"}]}"#)
                == #"spec.json: columns[0]: unknown key "nme" (did you mean "name"?)"#)
    }

    @Test("an unknown key in a notation names the notation")
    func unknownNotationKey() {
        #expect(
            specError(
                #"{"notations":[{"character":"s","characterSet":"$","isOptinal":true}],"columns":[{"name":"a","format":"[0]"}]}"#
            )
                == #"spec.json: notations[0]: unknown key "isOptinal" (did you mean "isOptional"?)"#)
        #expect(
            specError(
                column(
                    #""notations":[{"character":"s","characterSet":"$"},{"charactr":"t","characterSet":"x"}]"#
                ))
                == #"spec.json: columns[0] "phone": notations[1]: unknown key "charactr" (did you mean "character"?)"#
        )
        #expect(
            specError(column(#""notations":[{"character":"s","set":"$"}]"#))
                == #"spec.json: columns[0] "phone": notations[0]: unknown key "set""#)
    }

    @Test("a key written twice is an error, not last-one-wins")
    func duplicateKeys() {
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"[0]","format":"[00]"}]}"#)
                == #"spec.json: columns[0] "phone": key "format" appears twice"#)
        #expect(
            specError(#"{"columns":[{"name":"a","format":"[0]"}],"columns":[{"name":"b","format":"[0]"}]}"#)
                == #"spec.json: key "columns" appears twice"#)
        #expect(
            specError(column(#""notations":[{"character":"s","characterSet":"$","character":"t"}]"#))
                == #"spec.json: columns[0] "phone": notations[0]: key "character" appears twice"#)
    }

    // MARK: Types

    @Test("required keys of a column")
    func requiredColumnKeys() {
        #expect(
            specError(#"{"columns":[{"format":"[0]"}]}"#)
                == #"spec.json: columns[0]: missing key "name": the input column to mask"#)
        #expect(
            specError(#"{"columns":[{"name":"phone"}]}"#)
                == #"spec.json: columns[0] "phone": missing key "format" (or "kind": "phone")"#)
        #expect(
            specError(#"{"columns":[{"name":"","format":"[0]"}]}"#)
                == "spec.json: columns[0]: name: expected a non-empty string")
        #expect(
            specError(#"{"columns":[{"name":5,"format":"[0]"}]}"#)
                == "spec.json: columns[0]: name: expected a string, got the number 5")
        #expect(
            specError(#"{"columns":[{"name":"phone","format":null}]}"#)
                == #"spec.json: columns[0] "phone": format: expected a string, got null"#)
    }

    @Test(
        "every column key rejects a value of the wrong type",
        arguments: [
            (
                #""affineFormats":"[0]""#,
                #"affineFormats: expected an array of strings, got the string "[0]""#
            ),
            (#""affineFormats":["[0]",3]"#, "affineFormats[1]: expected a string, got the number 3"),
            (#""affinityStrategy":1"#, "affinityStrategy: expected a string, got the number 1"),
            (#""notations":{}"#, "notations: expected an array of notations, got an object"),
            (#""notations":["s"]"#, #"notations[0]: expected an object, got the string "s""#),
            (#""autocomplete":"yes""#, #"autocomplete: expected true or false, got the string "yes""#),
            (#""rightToLeft":1"#, "rightToLeft: expected true or false, got the number 1"),
            (#""required":null"#, "required: expected true or false, got null"),
            (#""required":"true""#, #"required: expected true or false, got the string "true""#),
            (#""minComplete":"0.5""#, #"minComplete: expected a number from 0 to 1, got the string "0.5""#),
            (#""minComplete":true"#, "minComplete: expected a number from 0 to 1, got true"),
            (#""formattedColumn":3"#, "formattedColumn: expected a string, got the number 3"),
            (#""extractedColumn":false"#, "extractedColumn: expected a string, got false"),
            (#""statusColumn":[]"#, "statusColumn: expected a string, got an array"),
            (#""templateColumn":{}"#, "templateColumn: expected a string, got an object"),
            (#""formattedColumn":"""#, "formattedColumn: expected a non-empty string"),
            (#""placeholderCharacter":7"#, "placeholderCharacter: expected a string, got the number 7"),
            (#""syntax":1"#, "syntax: expected a string, got the number 1"),
            (
                #""notations":[{"character":1,"characterSet":"$"}]"#,
                "notations[0]: character: expected a string, got the number 1"
            ),
            (
                #""notations":[{"character":"s","characterSet":["$"]}]"#,
                "notations[0]: characterSet: expected a string, got an array"
            ),
            (
                #""notations":[{"character":"s","characterSet":"$","isOptional":"no"}]"#,
                #"notations[0]: isOptional: expected true or false, got the string "no""#
            ),
            (#""notations":[{"characterSet":"$"}]"#, #"notations[0]: missing key "character""#),
            (#""notations":[{"character":"s"}]"#, #"notations[0]: missing key "characterSet""#),
        ])
    func wrongTypes(member: String, message: String) {
        #expect(specError(column(member)) == #"spec.json: columns[0] "phone": "# + message)
    }

    @Test("template and symbols are type-checked in their own syntax")
    func syntaxKeyTypes() {
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"{dddd}","syntax":"akmask","template":1}]}"#)
                == #"spec.json: columns[0] "phone": template: expected a string, got the number 1"#)
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"DDD","syntax":"maskara","symbols":false}]}"#)
                == #"spec.json: columns[0] "phone": symbols: expected a string, got false"#)
    }

    @Test("spec-wide notations are type-checked too")
    func specWideNotationTypes() {
        #expect(
            specError(#"{"notations":{},"columns":[{"name":"a","format":"[0]"}]}"#)
                == "spec.json: notations: expected an array of notations, got an object")
        #expect(
            specError(#"{"notations":[1],"columns":[{"name":"a","format":"[0]"}]}"#)
                == "spec.json: notations[0]: expected an object, got the number 1")
        #expect(
            specError(
                #"{"notations":[{"character":"","characterSet":"$"}],"columns":[{"name":"a","format":"[0]"}]}"#
            )
                == #"spec.json: notations[0]: character: expected exactly one character, got """#)
    }

    // MARK: Values

    @Test("minComplete must lie in 0…1; the bounds and null are accepted")
    func minCompleteRange() throws {
        #expect(
            specError(column(#""minComplete":1.5"#))
                == #"spec.json: columns[0] "phone": minComplete is a fraction from 0 to 1, got 1.5; did you mean 0.015?"#
        )
        #expect(
            specError(column(#""minComplete":-0.1"#))
                == #"spec.json: columns[0] "phone": minComplete is a fraction from 0 to 1, got -0.1"#
        )
        #expect(
            specError(column(#""minComplete":1e1"#))
                == #"spec.json: columns[0] "phone": minComplete is a fraction from 0 to 1, got 1e1; did you mean 0.1?"#
        )
        #expect(
            specError(column(#""minComplete":"0.9""#))
                == #"spec.json: columns[0] "phone": minComplete: expected a number from 0 to 1, got the string "0.9""#
        )
        #expect(
            specError(column(#""minComplete":250"#))
                == #"spec.json: columns[0] "phone": minComplete is a fraction from 0 to 1, got 250"#)
        #expect(try loadSpec(column(#""minComplete":0"#)).columns[0].minComplete == 0)
        #expect(try loadSpec(column(#""minComplete":1"#)).columns[0].minComplete == 1)
    }

    /// Regression: a percentage where a fraction belongs (`95` for 0.95) was refused without a hint.
    @Test("a threshold in percent is refused with the fraction it likely means")
    func thresholdInPercent() {
        #expect(
            specError(column(#""minComplete":95"#))
                == #"spec.json: columns[0] "phone": minComplete is a fraction from 0 to 1, got 95; did you mean 0.95?"#
        )
        #expect(
            specError(column(#""minComplete":99.5"#))
                == #"spec.json: columns[0] "phone": minComplete is a fraction from 0 to 1, got 99.5; did you mean 0.995?"#
        )
    }

    @Test("a column that names no affinityStrategy gets bestStatus; a named one is kept")
    func strategyDefault() throws {
        #expect(try loadSpec(column("")).columns[0].affinityStrategy == .bestStatus)
        #expect(
            try loadSpec(column(#""affinityStrategy":"wholeString""#)).columns[0].affinityStrategy
                == .wholeString)
    }

    @Test("a JSON spec of more values than a spec holds is refused before its tree grows")
    func tooManyValues() {
        let values = Array(repeating: "1", count: SpecLoader.maximumValues).joined(separator: ",")
        let message = specError(#"{"columns": [\#(values)]}"#) ?? ""
        #expect(
            message.hasPrefix("spec.json: line 1, column ") && message.hasSuffix(": more than 250000 values"))
        #expect(
            specError(#"{"columns": [\#(values.dropFirst(4))]}"#)
                == "spec.json: columns[0]: expected an object, got the number 1")
    }

    @Test("maxRejected and minRows: whole numbers of records from 0 to 2^53 − 1, defaults 0 and 1")
    func recordCounts() throws {
        let defaults = try loadSpec(column(""))
        #expect(defaults.maxRejected == 0)
        #expect(defaults.minRows == 1)
        let set = try loadSpec(#"{"maxRejected":25,"minRows":0,"columns":[{"name":"a","format":"[0]"}]}"#)
        #expect(set.maxRejected == 25)
        #expect(set.minRows == 0)
        for (json, got) in [
            (#""maxRejected":-1"#, "the number -1"), (#""maxRejected":2.5"#, "the number 2.5"),
            (#""maxRejected":"5""#, #"the string "5""#), (#""maxRejected":null"#, "null"),
        ] {
            #expect(
                specError(#"{\#(json),"columns":[{"name":"a","format":"[0]"}]}"#)
                    == "spec.json: maxRejected: expected a whole number of records from 0 to 9007199254740991, got \(got)"
            )
        }
        #expect(
            specError(#"{"minRows":true,"columns":[{"name":"a","format":"[0]"}]}"#)
                == "spec.json: minRows: expected a whole number of records from 0 to 9007199254740991, got true"
        )
        #expect(
            specError(#"{"maxRejcted":1,"columns":[{"name":"a","format":"[0]"}]}"#)
                == #"spec.json: unknown key "maxRejcted" (did you mean "maxRejected"?)"#)
        #expect(try loadSpec(column(#""minComplete":0.98"#)).columns[0].minComplete == 0.98)
        #expect(try loadSpec(column(#""minComplete":null"#)).columns[0].minComplete == nil)
        #expect(try loadSpec(column("")).columns[0].minComplete == nil)
    }

    @Test("placeholderCharacter is exactly one character (a grapheme cluster)")
    func placeholderCharacter() throws {
        #expect(
            specError(column(#""placeholderCharacter":"ab""#))
                == #"spec.json: columns[0] "phone": placeholderCharacter: expected exactly one character, got "ab""#
        )
        #expect(
            specError(column(#""placeholderCharacter":"""#))
                == #"spec.json: columns[0] "phone": placeholderCharacter: expected exactly one character, got """#
        )
        #expect(try loadSpec(column("")).columns[0].placeholderCharacter == "_")
        #expect(try loadSpec(column(#""placeholderCharacter":"•""#)).columns[0].placeholderCharacter == "•")
        // e + combining acute accent: one character.
        #expect(
            try loadSpec(column(#""placeholderCharacter":"e\u0301""#)).columns[0].placeholderCharacter == "é")
    }

    @Test("affinityStrategy and syntax take only their listed values")
    func enumValues() throws {
        #expect(
            specError(column(#""affinityStrategy":"best""#))
                == #"spec.json: columns[0] "phone": affinityStrategy: expected one of "bestStatus", "wholeString", "prefix", "capacity", "extractedValueCapacity", got "best""#
        )
        #expect(
            specError(column(#""affinityStrategy":"WholeString""#))
                == #"spec.json: columns[0] "phone": affinityStrategy: expected one of "bestStatus", "wholeString", "prefix", "capacity", "extractedValueCapacity", got "WholeString"; did you mean "wholeString"?"#
        )
        #expect(
            specError(column(#""syntax":"regex""#))
                == #"spec.json: columns[0] "phone": syntax: expected one of "input-mask", "akmask", "maskara", got "regex""#
        )
        for strategy in AffinityStrategy.allCases {
            let spec = try loadSpec(column(#""affinityStrategy":"\#(strategy.rawValue)""#))
            #expect(spec.columns[0].affinityStrategy == strategy)
            #expect(spec.columns[0].mask.strategy == strategy)
        }
        let plain = try loadSpec(column(""))
        #expect(plain.columns[0].affinityStrategy == .bestStatus)
        #expect(plain.columns[0].syntax == .inputMask)
        #expect(try loadSpec(column(#""syntax":"input-mask""#)).columns[0].syntax == .inputMask)
    }

    // MARK: Formats

    @Test("a format that does not compile names the format and the offset")
    func formatErrors() {
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"+1 ([000[) [000]"}]}"#)
                == #"spec.json: columns[0] "phone": format: unexpected '[' inside [] at offset 8"#)
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"[0}"}]}"#)
                == #"spec.json: columns[0] "phone": format: unexpected '}' inside [] at offset 2"#)
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"{0"}]}"#)
                == #"spec.json: columns[0] "phone": format: '{' at offset 0 is never closed"#)
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"]"}]}"#)
                == #"spec.json: columns[0] "phone": format: unexpected ']' outside any block at offset 0"#)
        #expect(
            specError(#"{"columns":[{"name":"date","format":"[00]{/}[0x]"}]}"#)
                == #"spec.json: columns[0] "date": format: unexpected 'x' inside [] at offset 9"#)
        // Offsets count characters, not bytes.
        #expect(
            specError(#"{"columns":[{"name":"price","format":"€ [0q]"}]}"#)
                == #"spec.json: columns[0] "price": format: unexpected 'q' inside [] at offset 4"#)
    }

    @Test("a failing affine format is named by its index")
    func affineFormatErrors() {
        #expect(
            specError(column(#""affineFormats":["[000]-[0000]","[0x]"]"#))
                == #"spec.json: columns[0] "phone": affineFormats[1]: unexpected 'x' inside [] at offset 2"#)
        #expect(
            specError(column(#""affineFormats":["{1"]"#))
                == #"spec.json: columns[0] "phone": affineFormats[0]: '{' at offset 0 is never closed"#)
    }

    @Test("a format using an undeclared notation fails; declared, it compiles")
    func notationNeeded() throws {
        #expect(
            specError(#"{"columns":[{"name":"price","format":"[s][0…]"}]}"#)
                == #"spec.json: columns[0] "price": format: unexpected 's' inside [] at offset 1"#)
        _ = try loadSpec(
            #"{"columns":[{"name":"price","format":"[s][0…]","notations":[{"character":"s","characterSet":"$€"}]}]}"#
        )
    }

    // MARK: Notations

    @Test("a notation character declared twice in one list is an error")
    func duplicateNotation() {
        #expect(
            specError(
                #"{"notations":[{"character":"s","characterSet":"$"},{"character":"s","characterSet":"€"}],"columns":[{"name":"a","format":"[s]"}]}"#
            )
                == "spec.json: notations: notation 's' is declared twice (notations[0] and notations[1])")
        #expect(
            specError(
                #"{"columns":[{"name":"a","format":"[s]","notations":[{"character":"x","characterSet":"1"},{"character":"s","characterSet":"$"},{"character":"s","characterSet":"€"}]}]}"#
            )
                == #"spec.json: columns[0] "a": notations: notation 's' is declared twice (notations[1] and notations[2])"#
        )
        #expect(
            specError(column(#""notations":[{"character":"ss","characterSet":"$"}]"#))
                == #"spec.json: columns[0] "phone": notations[0]: character: expected exactly one character, got "ss""#
        )
    }

    @Test("a column notation replaces the spec-wide one of the same character; the others add")
    func columnNotationsReplaceSpecWide() throws {
        let spec = try loadSpec(
            #"""
            {
              "notations": [
                { "character": "s", "characterSet": "$", "isOptional": true },
                { "character": "h", "characterSet": "0123456789abcdef" }
              ],
              "columns": [
                { "name": "usd", "format": "[s][0…]" },
                { "name": "eur", "format": "[s][0…]",
                  "notations": [{ "character": "s", "characterSet": "€" }, { "character": "k", "characterSet": "K" }] }
              ]
            }
            """#)
        #expect(spec.notations.map(\.character) == ["s", "h"])
        let usd = spec.columns[0].mask
        let eur = spec.columns[1].mask
        #expect(usd.apply("$12").result.formatted == "$12")
        #expect(usd.apply("12").result.status == .complete, "spec-wide s is optional")
        #expect(eur.apply("€12").result.formatted == "€12")
        #expect(eur.apply("12").result.status == .incomplete, "the column's s is mandatory")
        // The column's list is the spec-wide one with `s` replaced in place and `k` added.
        let merged = try Notation.merged(
            specWide: spec.notations,
            column: [
                Notation(character: "s", characterSet: "€", isOptional: false),
                Notation(character: "k", characterSet: "K", isOptional: false),
            ])
        #expect(merged.map(\.character) == ["s", "h", "k"])
        #expect(merged[0].characterSet == "€")
    }

    @Test("a spec-wide notation reaches every column")
    func specWideNotationApplies() throws {
        let spec = try loadSpec(
            ##"{"notations":[{"character":"h","characterSet":"0123456789ABCDEF"}],"columns":[{"name":"mac","format":"[hh]:[hh]"},{"name":"id","format":"#[hhhh]"}]}"##
        )
        #expect(spec.columns[0].mask.apply("0A1B").result.formatted == "0A:1B")
        #expect(spec.columns[1].mask.apply("BEEF").result.formatted == "#BEEF")
        #expect(spec.columns[1].mask.apply("beef").result.status == .incomplete)
    }

    // MARK: Output columns

    @Test("added columns default to <name>_formatted, _extracted, _status, and no template")
    func defaults() throws {
        let spec = try loadSpec(column(""))
        let phone = spec.columns[0]
        #expect(phone.name == "phone")
        #expect(phone.index == 0)
        #expect(phone.format == "[000]-[0000]")
        #expect(phone.affineFormats == [])
        #expect(phone.formats == ["[000]-[0000]"])
        #expect(phone.autocomplete == true)
        #expect(phone.syntaxOptions.rightToLeft == false)
        #expect(phone.required == false)
        #expect(phone.formattedColumn == "phone_formatted")
        #expect(phone.extractedColumn == "phone_extracted")
        #expect(phone.statusColumn == "phone_status")
        #expect(phone.templateColumn == nil)
        #expect(spec.addedColumns == ["phone_formatted", "phone_extracted", "phone_status"])
        #expect(spec.file == "spec.json")
    }

    @Test("null leaves an added column out; names follow spec order, three per column")
    func nullAndOrder() throws {
        let spec = try loadSpec(
            #"""
            {"columns": [
              {"name": "phone", "format": "[000]-[0000]", "formattedColumn": null, "statusColumn": "phone_ok"},
              {"name": "zip", "format": "[00000]", "extractedColumn": null, "templateColumn": "zip_template"},
              {"name": "date", "format": "[00]{/}[00]", "formattedColumn": null, "extractedColumn": null,
               "statusColumn": null}
            ]}
            """#)
        #expect(spec.columns[0].formattedColumn == nil)
        #expect(spec.columns[2].addedColumns == [])
        #expect(
            spec.addedColumns == [
                "phone_extracted", "phone_ok", "zip_formatted", "zip_status", "zip_template",
            ])
        #expect(
            spec.columns.map(\.place) == [
                #"columns[0] "phone""#, #"columns[1] "zip""#, #"columns[2] "date""#,
            ])
    }

    @Test("explicit values of every column key are kept")
    func explicitValues() throws {
        let spec = try loadSpec(
            #"""
            {"columns": [{"name": "amount", "format": "[000]{,}[000]", "affineFormats": ["[000]", "[0]{,}[000]"],
              "affinityStrategy": "capacity", "autocomplete": false, "rightToLeft": true, "required": true,
              "minComplete": 0.5, "placeholderCharacter": "#"}]}
            """#)
        let amount = spec.columns[0]
        #expect(amount.formats == ["[000]{,}[000]", "[000]", "[0]{,}[000]"])
        #expect(amount.mask.masks.count == 3)
        #expect(amount.affinityStrategy == .capacity)
        #expect(amount.autocomplete == false)
        #expect(amount.mask.autocomplete == false)
        #expect(amount.syntaxOptions.rightToLeft == true)
        #expect(amount.mask.primary.rightToLeft == true)
        #expect(amount.required == true)
        #expect(amount.minComplete == 0.5)
        #expect(amount.placeholderCharacter == "#")
    }

    /// Found by a differential run: two columns replacing one JSON key crashed the run (a range
    /// copied backwards), leaving its temporary output behind; on CSV the first silently won.
    /// Which one should win is the spec's to say, so it is a spec error.
    @Test("two columns may not replace the same input column")
    func twoReplacements() {
        #expect(
            specError(
                #"{"columns":[{"name":"phone","format":"[000]","replace":"extracted","formattedColumn":"a","extractedColumn":"b","statusColumn":"c"},{"name":"phone","format":"[000]","replace":"extracted"}]}"#
            )
                == #"spec.json: columns[1] "phone": replace: columns[0] "phone" already replaces the input column "phone"; one column may replace it"#
        )
        // NFC and NFD spellings name one input column, as they do in a header.
        #expect(
            specError(
                #"{"columns":[{"name":"tél","format":"[0]","replace":"formatted","formattedColumn":null},{"name":"tél","format":"[00]","replace":"formatted","formattedColumn":"x","extractedColumn":"y","statusColumn":"z"}]}"#
            )?.hasSuffix("one column may replace it") == true)
        // One replacing column and another that only adds columns are fine.
        #expect(
            specError(
                #"{"columns":[{"name":"phone","format":"[000]","replace":"formatted","formattedColumn":null},{"name":"phone","format":"[0000]","formattedColumn":"p4","extractedColumn":"e4","statusColumn":"s4"}]}"#
            ) == nil)
    }

    @Test("output column names may not repeat each other")
    func repeatedOutputNames() {
        #expect(
            specError(
                #"{"columns":[{"name":"phone","format":"[0]"},{"name":"note","format":"[0]","formattedColumn":"phone_formatted"}]}"#
            )
                == #"spec.json: columns[1] "note": formattedColumn: "phone_formatted" is already the name of columns[0] "phone" formattedColumn"#
        )
        #expect(
            specError(column(#""extractedColumn":"phone_formatted""#))
                == #"spec.json: columns[0] "phone": extractedColumn: "phone_formatted" is already the name of columns[0] "phone" formattedColumn"#
        )
        #expect(
            specError(column(#""templateColumn":"phone_status""#))
                == #"spec.json: columns[0] "phone": templateColumn: "phone_status" is already the name of columns[0] "phone" statusColumn"#
        )
        // Two spec columns on one input column collide through their defaults.
        #expect(
            specError(#"{"columns":[{"name":"phone","format":"[0]"},{"name":"phone","format":"[00]"}]}"#)
                == #"spec.json: columns[1] "phone": formattedColumn: "phone_formatted" is already the name of columns[0] "phone" formattedColumn"#
        )
        // A name left out frees it.
        #expect(
            specError(
                #"{"columns":[{"name":"phone","format":"[0]","formattedColumn":null},{"name":"note","format":"[0]","formattedColumn":"phone_formatted"}]}"#
            )
                == nil)
    }

    // MARK: Syntax-specific keys

    @Test("notations and rightToLeft are for input-mask only")
    func inputMaskOnlyKeys() {
        #expect(
            specError(#"{"columns":[{"name":"card","format":"{dddd}","syntax":"akmask","notations":[]}]}"#)
                == #"spec.json: columns[0] "card": notations: only for syntax "input-mask", not "akmask""#)
        #expect(
            specError(
                #"{"columns":[{"name":"card","format":"{dddd}","syntax":"akmask","rightToLeft":true}]}"#)
                == #"spec.json: columns[0] "card": rightToLeft: only for syntax "input-mask", not "akmask""#)
        #expect(
            specError(#"{"columns":[{"name":"tel","format":"DDD","syntax":"maskara","rightToLeft":false}]}"#)
                == #"spec.json: columns[0] "tel": rightToLeft: only for syntax "input-mask", not "maskara""#)
        #expect(
            specError(
                #"{"columns":[{"name":"tel","format":"DDD","syntax":"maskara","notations":[{"character":"s","characterSet":"$"}]}]}"#
            )
                == #"spec.json: columns[0] "tel": notations: only for syntax "input-mask", not "maskara""#)
    }

    @Test("template is for akmask only, symbols for maskara only")
    func syntaxOnlyKeys() {
        #expect(
            specError(column(#""template":"X""#))
                == #"spec.json: columns[0] "phone": template: only for syntax "akmask""#)
        #expect(
            specError(column(#""syntax":"input-mask","template":"X""#))
                == #"spec.json: columns[0] "phone": template: only for syntax "akmask""#)
        #expect(
            specError(#"{"columns":[{"name":"tel","format":"DDD","syntax":"maskara","template":"X"}]}"#)
                == #"spec.json: columns[0] "tel": template: only for syntax "akmask""#)
        #expect(
            specError(column(#""symbols":"+-""#))
                == #"spec.json: columns[0] "phone": symbols: only for syntax "maskara""#)
        #expect(
            specError(#"{"columns":[{"name":"card","format":"{dddd}","syntax":"akmask","symbols":"."}]}"#)
                == #"spec.json: columns[0] "card": symbols: only for syntax "maskara""#)
    }

    @Test("load(path:) names the file as given, and a missing spec is reported")
    func loadFromPath() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.json", #"{"columns":[{"name":"phone","formt":"x"}]}"#)
        do {
            _ = try SpecLoader.load(path: path)
            Issue.record("a bad spec loaded")
        } catch {
            #expect(
                error.message
                    == #"\#(path): columns[0] "phone": unknown key "formt" (did you mean "format"?)"#)
            #expect(error.status == .config)
        }
        let good = try folder.write("good.json", column(""))
        #expect(try SpecLoader.load(path: good).columns.count == 1)
        do {
            _ = try SpecLoader.load(path: folder.path("missing.json"))
            Issue.record("a missing spec loaded")
        } catch {
            #expect(error.message == "\(folder.path("missing.json")): no such file or directory")
        }
    }
}
