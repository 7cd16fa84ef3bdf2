import MaskEngine

/// Phone columns (`kind: phone`, docs/spec.md#phone-columns): read by the numbering plan of each
/// number's country instead of formats.
extension SpecReader {
    /// The keys only a phone column has: on another column each is an error.
    static let phoneKeys = ["defaultRegion", "regionColumn", "countryColumn", "phoneFormat"]

    /// The column keys a phone column refuses, each with why: it would be ignored.
    static let keysNotForPhone: [(key: String, why: String)] = {
        let formats =
            "a phone column has no formats: each number is formatted by its country's numbering plan"
        let template = "a phone column has no template column"
        let check = "a phone column is judged by its numbering plan: an impossible number is invalid"
        let characters =
            "a phone column keeps separators and an extension, and drops letters and other characters (lossy)"
        return [
            ("format", formats), ("affineFormats", formats), ("affinityStrategy", formats),
            ("syntax", formats), ("autocomplete", formats), ("notations", formats), ("rightToLeft", formats),
            ("template", formats), ("symbols", formats), ("templateColumn", template),
            ("placeholderCharacter", template), ("check", check), ("dateOrder", check), ("luhnPrefix", check),
            (
                "normalizedColumn",
                "a phone number's normal form is its E.164 value, in the extracted column"
            ),
            ("case", "a phone number has no letters to put in a case"), ("ignore", characters),
            ("significant", characters),
        ]
    }()

    /// The mask a phone column carries in place of its formats: never applied, it gives the
    /// column's one `formats` entry (`ColumnSpec.phoneFormatKey`) its place.
    static let phoneMask: AffineMask = {
        do {
            return try AffineMask(format: "")
        } catch {
            fatalError("the empty format compiles: \(error)")
        }
    }()

    func phoneColumn(_ members: Members, node: JSONNode, index: Int, name: String) throws(MaskCleanError)
        -> ColumnSpec
    {
        let place = "columns[\(index)] \"\(name)\""
        func key(_ key: String) -> String { "\(place): \(key)" }
        for (refused, why) in Self.keysNotForPhone where members[refused] != nil {
            throw fail(node, key: refused, key(refused), "not with \"kind\": \"phone\": \(why)")
        }
        let regionNode = members["defaultRegion"]
        let defaultRegion = try optionalString(regionNode, place: key("defaultRegion"))
        let format =
            try enumValue(members["phoneFormat"], PhoneFormat.self, place: key("phoneFormat"))
            ?? .international
        let rules: PhoneRules
        do {
            rules = try PhoneRules(defaultRegion: defaultRegion, format: format)
        } catch {
            switch error {
            case .unknownRegion(let region):
                throw fail(
                    regionNode, key("defaultRegion"),
                    "unknown region \(JSONTextWriter.quoted(region)): expected an ISO 3166-1 alpha-2 code that has telephone numbers, as \"GB\" or \"us\""
                )
            }
        }
        var regionColumn: String?
        if let node = members["regionColumn"], !Self.isNull(node) {
            regionColumn = try nonEmptyString(node, place: key("regionColumn"))
        }
        let replace = try enumValue(members["replace"], Replacement.self, place: key("replace"))
        if replace == .normalized {
            throw fail(
                members["replace"], key("replace"),
                "\"normalized\" is not for a phone column: its normal form is the E.164 value, \"extracted\"")
        }
        let replaceIncomplete =
            try bool(members["replaceIncomplete"], place: key("replaceIncomplete")) ?? false
        if members["replaceIncomplete"] != nil && replace == nil {
            throw fail(
                members["replaceIncomplete"], key("replaceIncomplete"),
                "only with \"replace\": it says which cells replace their input")
        }
        let minComplete = try ratio(members["minComplete"], key: "minComplete", of: place)
        let warnComplete = try ratio(members["warnComplete"], key: "warnComplete", of: place)
        if let warnComplete, let minComplete, warnComplete < minComplete {
            throw fail(
                members["warnComplete"], place,
                "warnComplete is a fraction from minComplete (\(Ratio.decimal(minComplete))) to 1, got \(Ratio.decimal(warnComplete))"
            )
        }
        var column = ColumnSpec(
            name: name, index: index, syntax: .inputMask, format: "", affineFormats: [],
            affinityStrategy: .bestStatus, autocomplete: true,
            required: try bool(members["required"], place: key("required")) ?? false,
            minComplete: minComplete,
            formattedColumn: try outputName(
                members, "formattedColumn", default: "\(name)_formatted", place: place),
            extractedColumn: try outputName(
                members, "extractedColumn", default: "\(name)_extracted", place: place),
            statusColumn: try outputName(members, "statusColumn", default: "\(name)_status", place: place),
            templateColumn: nil, placeholderCharacter: "_", mask: Self.phoneMask)
        column.warnComplete = warnComplete
        column.maxInvalid = try ratio(members["maxInvalid"], key: "maxInvalid", of: place)
        column.trim = try bool(members["trim"], place: key("trim")) ?? false
        (column.replace, column.replaceIncomplete) = (replace, replaceIncomplete)
        column.phone = rules
        column.regionColumn = regionColumn
        column.countryColumn = try outputName(
            members, "countryColumn", default: "\(name)_country", place: place)
        return column
    }
}
