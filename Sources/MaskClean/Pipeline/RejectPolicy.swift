import FoundationEssentials

/// Why a record cannot be read or written faithfully. Each case carries what its sentence names;
/// `description` is that sentence, the one the message, the report and the summary show.
indirect enum RecordProblem: Equatable, Sendable, CustomStringConvertible {
    // CSV
    case nulByte
    /// Longer than the limit. Only a record inside an open quoted field may be a runaway quote;
    /// a plain 100 MB cell is just too long.
    case tooLong(maximum: Int, insideQuotedField: Bool = false)
    /// What the CSV parser says of the record (libcsv's words, or the parser's own).
    case csvSyntax(String)
    case unterminatedQuotedField
    /// `given`: the columns were named by `--columns`, not by a header.
    case fieldCount(expected: Int, found: Int, given: Bool = false)
    /// The header ends with a delimiter (an empty last field, which names no column), and the
    /// record has a value in that last field (docs/record-formats.md#a-trailing-delimiter).
    case valueAfterTrailingDelimiter
    /// A field that is not UTF-8, which no JSON string holds.
    case invalidUTF8ForJSON(column: String)
    case invalidUTF8InColumn(String)
    // JSON
    case notAnObject(found: JSONKind)
    /// The scanner's account of where the JSON went wrong.
    case invalidJSON(String)
    case textAfterRecord
    case missingCommaBetweenRecords
    case arrayNotClosed
    /// Text that is not UTF-8, or a lone surrogate escape: what, and where in the record.
    case badText(String, place: String)
    case addedKeyPresent(String)
    case maskedKeyTwice(String)
    case maskedKeyHolds(String, JSONKind)
    /// A spec column's path (`contact.phone`) goes on through `at`, which holds `found` where
    /// the next step needs an object (a key) or an array (an index).
    case pathBlocked(path: String, at: String, needsArray: Bool, found: JSONKind)
    /// A spec column's path ends at an object, an array or a boolean.
    case pathHolds(String, JSONKind)
    /// The object a nested column's added members go into has one already.
    case addedMemberPresent(object: String, key: String)
    case keyNotAmongColumns(String)
    case columnKeyTwice(String)
    case invalidUTF8InKey(String)
    case numberTooLarge(key: String)
    case nulForCSV(key: String)

    /// The problem as an error's reason: what `description` says, but with the column names
    /// given for a header-less input named as a setting, which the executable shows by its flag.
    /// (A rejection's reason in a report keeps `description`.)
    var message: UsageMessage {
        guard case .fieldCount(let expected, let found, true) = self else { return UsageMessage(description) }
        return
            "expected \(expected) field\(expected == 1 ? "" : "s") as in \(Setting.columnNames), found \(found)"
    }

    /// Text that is not UTF-8, which another `--encoding` may read.
    var isInvalidUTF8: Bool {
        switch self {
        case .invalidUTF8ForJSON, .invalidUTF8InColumn, .invalidUTF8InKey: true
        case .badText(let what, _): what == "invalid UTF-8"
        default: false
        }
    }

    var description: String {
        switch self {
        case .nulByte: "NUL byte in the data"
        case .tooLong(let maximum, let insideQuotedField):
            "record longer than \(byteCount(maximum))"
                + (insideQuotedField ? " (a quoted field that never closes?)" : "")
        case .csvSyntax(let words): words
        case .unterminatedQuotedField: "unterminated quoted field"
        case .fieldCount(let expected, let found, let given):
            "expected \(expected) field\(expected == 1 ? "" : "s") as in \(given ? "--columns" : "the header"), found \(found)"
        case .valueAfterTrailingDelimiter:
            "a value after the last column: the header ends with a delimiter, so the records' last field is empty"
        case .invalidUTF8ForJSON(let column):
            "invalid UTF-8 in column \"\(column)\", which a JSON string cannot hold"
        case .invalidUTF8InColumn(let column): "invalid UTF-8 in column \"\(column)\""
        case .notAnObject(let kind): "the record is not an object (found \(kind.described))"
        case .invalidJSON(let words): "invalid JSON: \(words)"
        case .textAfterRecord: "unexpected text after the record"
        case .missingCommaBetweenRecords: "expected ',' between records"
        case .arrayNotClosed: "the array is not closed with ']' (truncated input?)"
        case .badText(let what, let place): "\(what) \(place)"
        case .addedKeyPresent(let key): "the record already has a key \"\(key)\", which maskclean adds"
        case .maskedKeyTwice(let key): "key \"\(key)\" appears twice"
        case .maskedKeyHolds(let key, let kind):
            "key \"\(key)\" holds \(kind.described); expected a string, a number or null"
        case .pathBlocked(let path, let at, let needsArray, let found):
            "key path \"\(path)\" goes through \"\(at)\", which holds \(found.described); expected \(needsArray ? "an array" : "an object")"
        case .pathHolds(let path, let kind):
            "key path \"\(path)\" ends at \(kind.described); expected a string, a number or null"
        case .addedMemberPresent(let object, let key):
            "the object \"\(object)\" already has a key \"\(key)\", which maskclean adds there"
        case .keyNotAmongColumns(let key):
            "key \"\(key)\" is not among the first record's keys, which are the CSV output's columns"
        case .columnKeyTwice(let key): "key \"\(key)\" appears twice; its CSV column can hold one value"
        case .invalidUTF8InKey(let key): "invalid UTF-8 in key \"\(key)\""
        case .numberTooLarge(let key): "key \"\(key)\" holds a number too large to write out"
        case .nulForCSV(let key): "key \"\(key)\" holds a NUL character (\\u0000), which CSV cannot carry"
        }
    }
}

extension JSONKind {
    /// The kind as a sentence names it: `an object`, `null`.
    var described: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// What becomes of a bad record under `--on-error`, the same for every record format: with
/// `fail` it ends the run; with `skip` it is counted and left out; with `quarantine` its bytes,
/// as read, also go to the quarantine file.
struct RejectPolicy: Sendable {
    enum Outcome {
        /// Counted and left out: go on with the next record.
        case rejected
        /// The run ends with this record (`--on-error fail`): stop reading the chunk.
        case stop
    }

    let policy: ErrorPolicy
    /// The input's name, for the message that ends the run.
    let file: String
    /// A quarantined record gets a line feed when its bytes as read lack one (a JSON array's
    /// element); CSV records are quarantined exactly as read.
    var endsLines = false

    /// Notes the bad record beginning on `line` in `result`; `record` is its bytes as read. With
    /// `endLine`, a record whose bytes do not end with a line feed gets one in the quarantine.
    @inline(never)  // the bad records' path, kept out of the good records' code
    func reject(
        _ problem: RecordProblem, line: Int, record: UnsafeBufferPointer<UInt8>, endLine: Bool = false,
        into result: inout ChunkResult
    ) -> Outcome {
        guard policy != .fail else {
            var message = problem.message
            if problem.isInvalidUTF8, let hint = InputText.encodingHint(record) {
                message = message + " (" + hint + ")"
            }
            result.fatal = .data(file, line: line, message)
            return .stop
        }
        result.rejections.append(Rejection(line: line, reason: problem.description))
        if policy == .quarantine {
            result.quarantine.append(contentsOf: record)
            if endLine && record.last != 0x0A { result.quarantine.append(0x0A) }
        }
        return .rejected
    }
}
