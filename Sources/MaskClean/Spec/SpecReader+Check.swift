import MaskEngine

extension SpecReader {
    static func isNull(_ node: JSONNode) -> Bool {
        if case .null = node { return true }
        return false
    }

    /// A column's `check` and the keys that go with it (`dateOrder`, `luhnPrefix`,
    /// `normalizedColumn`, `maxInvalid`, `replace: normalized`), docs/spec.md#checks. Each of those
    /// keys without the check it belongs to is an error: it would be ignored.
    func readCheck(_ members: Members, node: JSONNode, formatNode: JSONNode, into column: inout ColumnSpec)
        throws(MaskCleanError)
    {
        let place = column.place
        func key(_ key: String) -> String { "\(place): \(key)" }
        let name = try enumValue(members["check"], CheckName.self, place: key("check"))
        let dateOrder = try enumValue(members["dateOrder"], DateOrder.self, place: key("dateOrder"))
        if members["dateOrder"] != nil && name != .date {
            throw fail(members["dateOrder"], key("dateOrder"), "only with \"check\": \"date\"")
        }
        var luhnPrefix = ""
        if let prefixNode = members["luhnPrefix"] {
            guard name == .luhn else {
                throw fail(prefixNode, key("luhnPrefix"), "only with \"check\": \"luhn\"")
            }
            luhnPrefix = try string(prefixNode, place: key("luhnPrefix"))
            guard luhnPrefix.utf8.allSatisfy({ digitValue($0) != nil }) else {
                throw fail(
                    prefixNode, key("luhnPrefix"),
                    "expected digits only (the NPI's is \"80840\"), got \(JSONTextWriter.quoted(luhnPrefix))")
            }
        }
        let maxInvalid = try ratio(members["maxInvalid"], key: "maxInvalid", of: place)
        if maxInvalid != nil && name == nil {
            throw fail(
                members["maxInvalid"], key("maxInvalid"),
                "only with a \"check\": without one no cell is invalid")
        }
        column.maxInvalid = maxInvalid
        let normalizes = name?.hasNormalizedForm ?? false
        if let normalizedNode = members["normalizedColumn"], !normalizes, !Self.isNull(normalizedNode) {
            throw fail(
                normalizedNode, key("normalizedColumn"),
                name.map { "check \"\($0.rawValue)\" has no normalized form (only date, iban and isbn do)" }
                    ?? "only with a \"check\" that has a normalized form: date, iban or isbn")
        }
        column.normalizedColumn =
            normalizes
            ? try outputName(members, "normalizedColumn", default: "\(column.name)_normalized", place: place)
            : nil
        if column.replace == .normalized {
            guard normalizes else {
                throw fail(
                    members["replace"], key("replace"),
                    "\"normalized\" needs a \"check\" that has a normalized form: date, iban or isbn")
            }
            if column.replaceIncomplete {
                throw fail(
                    members["replaceIncomplete"], key("replaceIncomplete"),
                    "not with \"replace\": \"normalized\": only a complete cell has a normalized value")
            }
        }
        guard let name else { return }
        do {
            column.check = try ColumnCheck(
                name, dateOrder: dateOrder, luhnPrefix: luhnPrefix, mask: column.mask)
        } catch {
            var formatNode = formatNode
            if error.format > 0, case .array(let elements, _) = members["affineFormats"],
                elements.indices.contains(error.format - 1)
            {
                formatNode = elements[error.format - 1]
            }
            let which = error.format == 0 ? "format" : "affineFormats[\(error.format - 1)]"
            throw fail(
                formatNode, "\(place): check",
                "\"date\" cannot read \(which) \(JSONTextWriter.quoted(column.formats[error.format])): \(error.reason)"
            )
        }
    }
}
