import FoundationEssentials
import MaskEngine

/// Reads and checks a spec file, JSON or YAML (docs/spec.md). Every problem is reported before any
/// output is written, as `spec.json: columns[0] "phone": format: unexpected '[' inside [] at offset 9`
/// (a YAML spec's with its line: `spec.yaml:7: columns[0] "phone": format: …`).
public enum SpecLoader {
    /// The keys a spec may have at the top, in a column and in a notation (docs/spec.md); any other key is an error.
    public static let topKeys: [String] = [
        "notations", "columns", "maxRejected", "minRows", "samples", "key", "maxDrop", "maxRowsChange",
    ]
    public static let columnKeys: [String] = [
        "name", "format", "affineFormats", "affinityStrategy", "notations", "autocomplete", "rightToLeft",
        "required", "minComplete", "formattedColumn", "extractedColumn", "statusColumn", "syntax",
        "templateColumn", "placeholderCharacter", "template", "symbols", "trim", "replace",
        "replaceIncomplete", "warnComplete", "maxInvalid", "check", "dateOrder", "luhnPrefix",
        "normalizedColumn", "case", "ignore", "significant", "kind", "defaultRegion", "regionColumn",
        "countryColumn", "phoneFormat", "maxDrop",
    ]
    public static let notationKeys: [String] = ["character", "characterSet", "isOptional"]

    public static func load(path: String) throws(MaskCleanError) -> Spec {
        let bytes = try InputFile.readAll(path: path, limit: maximumBytes) { () throws(MaskCleanError) in
            throw .spec(path, nil, "larger than \(byteCount(maximumBytes)): not a spec file")
        }
        return try parse(bytes, file: path)
    }

    /// A spec is small: a larger file is not one (docs/spec.md). Reading stops there, so a path
    /// such as `/dev/zero` ends, and a compressed spec that inflates without end (a gzip bomb)
    /// costs no more than this. 10,000 columns as `describe` writes them, about 400 bytes each
    /// with their comment lines (a name, a format and three alternatives, a strategy and a
    /// threshold), take 3.8 MiB: 4 MiB leaves room for more alternatives, notations and added
    /// columns' names, where hand-written specs have tens of columns.
    public static let maximumBytes = 4 << 20

    /// Those 10,000 columns hold some 100,000 values (a column, its name, format, alternatives,
    /// strategy and threshold): a spec of more is not one. A JSON spec's tree takes some 40 times
    /// the text of its smallest values (`[1,1,…]`), and stops growing there: at most 20 MB.
    public static let maximumValues = 250_000

    public static func parse(_ bytes: [UInt8], file: String) throws(MaskCleanError) -> Spec {
        // A UTF-8 byte-order mark is accepted, as it is in data.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if isYAML(bytes, file: file) {
            let (root, places) = try YAMLSpec.parse(bytes, file: file)
            var reader = SpecReader(file: file, yaml: places)
            return try reader.spec(root)
        }
        let root: JSONNode
        do {
            root = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                try JSONNode.parse(buffer, maximumValues: maximumValues)
            }
        } catch {
            let position = bytes.withUnsafeBufferPointer { JSONScanner($0).lineAndColumn(of: error.offset) }
            throw .spec(file, nil, "line \(position.line), column \(position.column): \(error.message)")
        }
        var reader = SpecReader(file: file)
        return try reader.spec(root)
    }

    /// A spec is YAML when its name ends in `.yaml` or `.yml` (any case); on standard input (`-`),
    /// when its first character other than a blank is not `{` (docs/spec.md). Any other file is JSON.
    static func isYAML(_ bytes: [UInt8], file: String) -> Bool {
        if file == "-" {
            let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
            return bytes.first { !blanks.contains($0) } != UInt8(ascii: "{")
        }
        let name = file.lowercased()
        return name.hasSuffix(".yaml") || name.hasSuffix(".yml")
    }
}

/// Walks the parsed spec, checking each key's type as it goes.
struct SpecReader {
    let file: String
    /// For a YAML spec: the line of each node and key, and what its plain scalars were written as.
    /// Its messages then name the line (`spec.yaml:14: columns[1] "card": …`); a JSON spec's do not.
    var yaml: YAMLSpec?
    /// The spec-wide `notations`, for a message about them found while reading a column.
    var specNotationsNode: JSONNode?

    static let topKeys = SpecLoader.topKeys
    static let columnKeys = SpecLoader.columnKeys
    static let notationKeys = SpecLoader.notationKeys

    init(file: String, yaml: YAMLSpec? = nil) {
        self.file = file
        self.yaml = yaml
    }

    /// An error at `node` (at the line of `key` in it, when given), about `place`.
    func fail(_ node: JSONNode?, key: String? = nil, _ place: String?, _ what: String) -> MaskCleanError {
        .spec(located(node, key: key), place, UsageMessage(what))
    }

    /// The file, with the line of `node` (or of `key` in it) for a YAML spec: `spec.yaml:14`.
    func located(_ node: JSONNode?, key: String? = nil) -> String {
        guard let yaml, let node else { return file }
        let line = key.flatMap { yaml.keyLines[node.offset]?[$0] } ?? yaml.lines[node.offset]
        return "\(file):\(line)"
    }

    mutating func spec(_ root: JSONNode) throws(MaskCleanError) -> Spec {
        let members = try object(root, place: nil, allowed: Self.topKeys)
        specNotationsNode = members["notations"]
        let notations = try notationList(members["notations"], place: "notations")
        guard let columnsNode = members["columns"] else {
            throw fail(root, nil, "missing key \"columns\": a spec lists the columns to mask")
        }
        guard case .array(let columnNodes, _) = columnsNode else {
            throw fail(columnsNode, "columns", "expected an array of columns, got \(describe(columnsNode))")
        }
        guard !columnNodes.isEmpty else { throw fail(columnsNode, "columns", "expected at least one column") }
        var columns: [ColumnSpec] = []
        for (index, node) in columnNodes.enumerated() {
            columns.append(try column(node, index: index, specNotations: notations))
        }
        try checkOutputNames(columns, nodes: columnNodes)
        var spec = Spec(file: file, notations: notations, columns: columns)
        spec.maxRejected = try count(members["maxRejected"], place: "maxRejected") ?? spec.maxRejected
        spec.minRows = try count(members["minRows"], place: "minRows") ?? spec.minRows
        if let samples = try count(members["samples"], place: "samples") {
            guard samples <= Spec.maximumSamples else {
                throw fail(
                    members["samples"], "samples",
                    "expected a whole number from 0 to \(Spec.maximumSamples), got \(samples)")
            }
            spec.samples = samples
            for index in spec.columns.indices { spec.columns[index].samples = samples }
        }
        spec.key = try key(members["key"])
        // Against a baseline (`--baseline`, docs/spec.md#against-last-night): the spec's maxDrop
        // is every column's that gives none.
        spec.maxDrop = try ratio(members["maxDrop"], key: "maxDrop", of: nil)
        spec.maxRowsChange = try ratio(members["maxRowsChange"], key: "maxRowsChange", of: nil)
        for (index, node) in columnNodes.enumerated() {
            let place = spec.columns[index].place
            let members = try object(node, place: place, allowed: Self.columnKeys, nameKey: "name")
            spec.columns[index].maxDrop =
                try ratio(members["maxDrop"], key: "maxDrop", of: place) ?? spec.maxDrop
        }
        spec.fingerprint = SpecFingerprint.of(spec)
        return spec
    }

    /// `key`: the column (or columns, a list) whose values name a record in the reports'
    /// samples (docs/spec.md#key).
    func key(_ node: JSONNode?) throws(MaskCleanError) -> [String] {
        guard let node else { return [] }
        let names: [String]
        if case .array = node {
            names = try stringList(node, place: "key")
            guard !names.isEmpty else { throw fail(node, "key", "expected at least one column name") }
        } else if case .string = node {
            names = [try string(node, place: "key")]
        } else {
            throw fail(
                node, "key", "expected a column name or an array of column names, got \(describe(node))")
        }
        for (index, name) in names.enumerated() {
            guard !name.isEmpty else { throw fail(node, "key", "a key column needs a name") }
            guard !names[..<index].contains(name) else {
                throw fail(node, "key", "names column \"\(name)\" twice")
            }
        }
        return names
    }

    // MARK: Columns

    func column(_ node: JSONNode, index: Int, specNotations: [Notation]) throws(MaskCleanError) -> ColumnSpec
    {
        let members = try object(node, place: "columns[\(index)]", allowed: Self.columnKeys, nameKey: "name")
        guard let nameNode = members["name"] else {
            throw fail(node, "columns[\(index)]", "missing key \"name\": the input column to mask")
        }
        let name = try nonEmptyString(nameNode, place: "columns[\(index)]: name")
        let place = "columns[\(index)] \"\(name)\""
        func key(_ key: String) -> String { "\(place): \(key)" }

        if let kind = try enumValue(members["kind"], ColumnKind.self, place: key("kind")) {
            switch kind {
            case .phone: return try phoneColumn(members, node: node, index: index, name: name)
            }
        }
        for phoneKey in Self.phoneKeys where members[phoneKey] != nil {
            throw fail(node, key: phoneKey, key(phoneKey), "only with \"kind\": \"phone\"")
        }
        guard let formatNode = members["format"] else {
            throw fail(node, place, "missing key \"format\" (or \"kind\": \"phone\")")
        }
        let format = try string(formatNode, place: key("format"))
        let affineFormats = try stringList(members["affineFormats"], place: key("affineFormats"))
        let syntax = try enumValue(members["syntax"], Syntax.self, place: key("syntax")) ?? .inputMask
        let strategy =
            try enumValue(members["affinityStrategy"], AffinityStrategy.self, place: key("affinityStrategy"))
            ?? .bestStatus
        let autocomplete = try bool(members["autocomplete"], place: key("autocomplete")) ?? true
        let rightToLeft = try bool(members["rightToLeft"], place: key("rightToLeft")) ?? false
        let required = try bool(members["required"], place: key("required")) ?? false
        let minComplete = try ratio(members["minComplete"], key: "minComplete", of: place)
        let warnComplete = try ratio(members["warnComplete"], key: "warnComplete", of: place)
        if let warnComplete, let minComplete, warnComplete < minComplete {
            throw fail(
                members["warnComplete"], place,
                "warnComplete is a fraction from minComplete (\(Ratio.decimal(minComplete))) to 1, got \(Ratio.decimal(warnComplete))"
            )
        }
        let columnNotations = try notationList(members["notations"], place: key("notations"))
        let trim = try bool(members["trim"], place: key("trim")) ?? false
        let replace = try enumValue(members["replace"], Replacement.self, place: key("replace"))
        let replaceIncomplete =
            try bool(members["replaceIncomplete"], place: key("replaceIncomplete")) ?? false
        if members["replaceIncomplete"] != nil && replace == nil {
            throw fail(
                members["replaceIncomplete"], key("replaceIncomplete"),
                "only with \"replace\": it says which cells replace their input")
        }

        try checkSyntaxOptions(members, of: syntax, node: node, place: place)
        let placeholder =
            try character(members["placeholderCharacter"], place: key("placeholderCharacter")) ?? "_"
        let template = try optionalString(members["template"], place: key("template"))
        let symbols = try optionalString(members["symbols"], place: key("symbols"))

        let notations: [Notation]
        do {
            notations = try Notation.merged(specWide: specNotations, column: columnNotations)
        } catch {
            throw error.list == .column
                ? fail(members["notations"], key("notations"), error.description)
                : fail(specNotationsNode, "notations", error.description)
        }
        var ignore = ""
        if let node = members["ignore"] { ignore = try string(node, place: key("ignore")) }
        var significant = ""
        if let node = members["significant"] { significant = try string(node, place: key("significant")) }
        if let both = ignore.first(where: significant.contains) {
            throw fail(
                members["significant"], key("significant"),
                "\(JSONTextWriter.quoted(String(both))) is in \"ignore\" too: a character is either removed before masking or counted"
            )
        }
        let syntaxOptions = SyntaxOptions(
            notations: notations, rightToLeft: rightToLeft, template: template, symbols: symbols,
            significant: significant)
        let mask: AffineMask
        do {
            mask = try AffineMask(
                syntax: syntax, format: format, affineFormats: affineFormats, options: syntaxOptions,
                strategy: strategy, autocomplete: autocomplete)
        } catch {
            // The format that does not compile: the primary one, or an element of affineFormats.
            var formatNode = formatNode
            if let index = error.affineIndex, case .array(let elements, _) = members["affineFormats"],
                elements.indices.contains(index)
            {
                formatNode = elements[index]
            }
            throw fail(formatNode, place, error.description)
        }

        var column = ColumnSpec(
            name: name, index: index, syntax: syntax, format: format, affineFormats: affineFormats,
            affinityStrategy: strategy, autocomplete: autocomplete, required: required,
            minComplete: minComplete,
            formattedColumn: try outputName(
                members, "formattedColumn", default: "\(name)_formatted", place: place),
            extractedColumn: try outputName(
                members, "extractedColumn", default: "\(name)_extracted", place: place),
            statusColumn: try outputName(members, "statusColumn", default: "\(name)_status", place: place),
            templateColumn: try outputName(members, "templateColumn", default: nil, place: place),
            placeholderCharacter: placeholder, syntaxOptions: syntaxOptions, mask: mask)
        column.trim = trim
        column.warnComplete = warnComplete
        (column.replace, column.replaceIncomplete) = (replace, replaceIncomplete)
        column.ignore = ignore
        column.letterCase = try enumValue(members["case"], LetterCase.self, place: key("case")) ?? .keep
        try readCheck(members, node: node, formatNode: formatNode, into: &column)
        return column
    }

    /// Refuses a key of another syntax's options (`Syntax.optionKeys`): it would be ignored. A key
    /// of input-mask, the default syntax, also names the syntax the column chose instead.
    func checkSyntaxOptions(_ members: Members, of syntax: Syntax, node: JSONNode, place: String)
        throws(MaskCleanError)
    {
        for owner in Syntax.allCases where owner != syntax {
            for name in owner.optionKeys where members[name] != nil {
                let met = owner == .inputMask ? ", not \"\(syntax.rawValue)\"" : ""
                throw fail(
                    node, key: name, "\(place): \(name)", "only for syntax \"\(owner.rawValue)\"\(met)")
            }
        }
    }

    /// An added column's name: the default when the key is absent, none when it is null.
    func outputName(_ members: Members, _ key: String, default defaultName: String?, place: String)
        throws(MaskCleanError) -> String?
    {
        guard let node = members[key] else { return defaultName }
        if case .null = node { return nil }
        return try nonEmptyString(node, place: "\(place): \(key)")
    }

    /// `nodes`: the columns as written, for the line of a message.
    func checkOutputNames(_ columns: [ColumnSpec], nodes: [JSONNode]) throws(MaskCleanError) {
        // Where each name was given: the message is only made for a repeated one.
        var seen: [String: (column: Int, key: String)] = [:]
        for column in columns {
            for (key, name) in [
                ("formattedColumn", column.formattedColumn), ("extractedColumn", column.extractedColumn),
                ("statusColumn", column.statusColumn), ("templateColumn", column.templateColumn),
                ("normalizedColumn", column.normalizedColumn), ("countryColumn", column.countryColumn),
            ] {
                guard let name else { continue }
                if let other = seen[name] {
                    let first = "\(columns[other.column].place) \(other.key)"
                    throw fail(
                        nodes[column.index], key: key, "\(column.place): \(key)",
                        "\"\(name)\" is already the name of \(first)")
                }
                seen[name] = (column.index, key)
            }
        }
        // A phone column's region column is an input column other than its own.
        for column in columns {
            guard let region = column.regionColumn else { continue }
            if region == column.name {
                throw fail(
                    nodes[column.index], key: "regionColumn", "\(column.place): regionColumn",
                    "\"\(region)\" is the phone column itself: name the input column that holds each record's region"
                )
            }
            if let added = seen[region] {
                throw fail(
                    nodes[column.index], key: "regionColumn", "\(column.place): regionColumn",
                    "\"\(region)\" is the name of \(columns[added.column].place) \(added.key), a column the run adds; name an input column"
                )
            }
        }
        // Two columns that write into one input column would each overwrite the other's value.
        var replacing: [String: Int] = [:]
        for column in columns where column.replace != nil {
            if let other = replacing[column.name] {
                throw fail(
                    nodes[column.index], key: "replace", "\(column.place): replace",
                    "\(columns[other].place) already replaces the input column \"\(column.name)\"; one column may replace it"
                )
            }
            replacing[column.name] = column.index
        }
    }

    // MARK: Notations

    func notationList(_ node: JSONNode?, place: String) throws(MaskCleanError) -> [Notation] {
        try list(node, place: place, of: "notations") { (element, here) throws(MaskCleanError) in
            let members = try object(element, place: here, allowed: Self.notationKeys)
            guard let characterNode = members["character"] else {
                throw fail(element, here, "missing key \"character\"")
            }
            guard let setNode = members["characterSet"] else {
                throw fail(element, here, "missing key \"characterSet\"")
            }
            return Notation(
                character: try character(characterNode, place: "\(here): character")!,
                characterSet: try string(setNode, place: "\(here): characterSet"),
                isOptional: try bool(members["isOptional"], place: "\(here): isOptional") ?? false)
        }
    }
}
