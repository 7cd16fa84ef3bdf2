import Testing

@testable import MaskClean

/// What becomes of a bad record under `--on-error` (docs/command-line.md), and the sentence that
/// says why it is bad: the message, the report's `reason` and the summary all show it, and users
/// grep logs and reports for it, so each is checked word for word.
@Suite("Reject policy")
struct RejectPolicyTests {
    /// Rejects `record` under `policy`, into `result`.
    func reject(
        _ policy: ErrorPolicy, _ problem: RecordProblem, line: Int, record: [UInt8], endLine: Bool = false,
        into result: inout ChunkResult
    ) -> RejectPolicy.Outcome {
        record.withUnsafeBufferPointer {
            RejectPolicy(policy: policy, file: "data.csv").reject(
                problem, line: line, record: $0, endLine: endLine, into: &result)
        }
    }

    @Test("fail: the record ends the run with the file and line in the message, and nothing is noted")
    func fail() {
        var result = ChunkResult()
        let outcome = reject(.fail, .nulByte, line: 7, record: Array("7,555\u{0}1234\n".utf8), into: &result)
        #expect(outcome == .stop)
        #expect(result.fatal == .data("data.csv", line: 7, "NUL byte in the data"))
        #expect(result.fatal?.message == "data.csv:7: NUL byte in the data")
        #expect(result.fatal?.status == .dataError)
        #expect(result.rejections.isEmpty)
        #expect(result.quarantine.isEmpty)
    }

    @Test("skip: the record is listed with its line and reason, in order, and its bytes go nowhere")
    func skip() {
        var result = ChunkResult()
        #expect(
            reject(.skip, .unterminatedQuotedField, line: 3, record: Array("3,\"555\n".utf8), into: &result)
                == .rejected)
        #expect(
            reject(
                .skip, .fieldCount(expected: 3, found: 2), line: 9, record: Array("9,555\n".utf8),
                into: &result)
                == .rejected)
        #expect(
            result.rejections == [
                Rejection(line: 3, reason: "unterminated quoted field"),
                Rejection(line: 9, reason: "expected 3 fields as in the header, found 2"),
            ])
        #expect(result.quarantine.isEmpty)
        #expect(result.fatal == nil)
        #expect(result.rows == 0, "the chunk counts its rows itself")
    }

    @Test("quarantine: listed as with skip, and the bytes kept as read, one record after the other")
    func quarantine() {
        var result = ChunkResult()
        let first = Array("4,\"55\"5,x\r\n".utf8)
        let second: [UInt8] = Array("5,555".utf8) + [0xFF] + Array("1234,x\r".utf8)
        #expect(reject(.quarantine, .csvSyntax("bad"), line: 4, record: first, into: &result) == .rejected)
        #expect(
            reject(.quarantine, .invalidUTF8InColumn("phone"), line: 5, record: second, into: &result)
                == .rejected)
        #expect(result.quarantine == first + second, "CRLF, a bare CR and invalid UTF-8 kept byte for byte")
        #expect(result.rejections.map(\.line) == [4, 5])
        #expect(result.fatal == nil)
    }

    @Test("quarantine with endLine: a record without a final line feed gets one; others are left as read")
    func quarantineEndLine() {
        var result = ChunkResult()
        // The last line of an NDJSON file, and a JSON-array element, have no line feed of their own.
        let last = Array("{\"phone\": \"555\"".utf8)
        let whole = Array("{\"phone\": true}\n".utf8)
        let crlf = Array("{\"phone\": [1]}\r\n".utf8)
        _ = reject(.quarantine, .invalidJSON("x"), line: 1, record: last, endLine: true, into: &result)
        _ = reject(.quarantine, .invalidJSON("x"), line: 2, record: whole, endLine: true, into: &result)
        _ = reject(.quarantine, .invalidJSON("x"), line: 3, record: crlf, endLine: true, into: &result)
        #expect(result.quarantine == last + [0x0A] + whole + crlf)
        // Without endLine (CSV), the bytes are exactly what was read.
        var csv = ChunkResult()
        _ = reject(.quarantine, .nulByte, line: 9, record: Array("9,x".utf8), into: &csv)
        #expect(csv.quarantine == Array("9,x".utf8))
        // Under skip, endLine writes nothing either.
        var skipped = ChunkResult()
        _ = reject(.skip, .nulByte, line: 9, record: last, endLine: true, into: &skipped)
        #expect(skipped.quarantine.isEmpty)
    }

    /// Problems and their sentences: every case at least once.
    static func sentences() -> [(RecordProblem, String)] {
        let table: [(RecordProblem, String)] = [
            (.nulByte, "NUL byte in the data"),
            (.tooLong(maximum: 32 << 20), "record longer than 32 MiB"),
            (
                .tooLong(maximum: 4096, insideQuotedField: true),
                "record longer than 4 KiB (a quoted field that never closes?)"
            ),
            (.tooLong(maximum: 100), "record longer than 100 bytes"),
            (
                .csvSyntax(
                    "unexpected character after a closing quote (a quote inside a quoted field must be doubled)"
                ),
                "unexpected character after a closing quote (a quote inside a quoted field must be doubled)"
            ),
            (.unterminatedQuotedField, "unterminated quoted field"),
            (.fieldCount(expected: 3, found: 4), "expected 3 fields as in the header, found 4"),
            (.fieldCount(expected: 1, found: 2), "expected 1 field as in the header, found 2"),
            (
                .valueAfterTrailingDelimiter,
                "a value after the last column: the header ends with a delimiter, so the records' last field is empty"
            ),
            (
                .invalidUTF8ForJSON(column: "note"),
                "invalid UTF-8 in column \"note\", which a JSON string cannot hold"
            ),
            (.invalidUTF8InColumn("phone"), "invalid UTF-8 in column \"phone\""),
            (.notAnObject(found: .array), "the record is not an object (found an array)"),
            (.notAnObject(found: .string), "the record is not an object (found a string)"),
            (.notAnObject(found: .number), "the record is not an object (found a number)"),
            (.notAnObject(found: .null), "the record is not an object (found null)"),
            (
                .invalidJSON("unexpected end of input, expected ',' or '}'"),
                "invalid JSON: unexpected end of input, expected ',' or '}'"
            ),
            (.textAfterRecord, "unexpected text after the record"),
            (.missingCommaBetweenRecords, "expected ',' between records"),
            (.arrayNotClosed, "the array is not closed with ']' (truncated input?)"),
            (
                .badText("invalid UTF-8", place: "in the value of key \"note\""),
                "invalid UTF-8 in the value of key \"note\""
            ),
            (
                .badText("a lone surrogate escape (\\uD800–\\uDBFF)", place: "in key \"x\""),
                "a lone surrogate escape (\\uD800–\\uDBFF) in key \"x\""
            ),
            (
                .addedKeyPresent("phone_status"),
                "the record already has a key \"phone_status\", which maskclean adds"
            ),
            (.maskedKeyTwice("phone"), "key \"phone\" appears twice"),
            (
                .maskedKeyHolds("phone", .object),
                "key \"phone\" holds an object; expected a string, a number or null"
            ),
            (
                .maskedKeyHolds("phone", .array),
                "key \"phone\" holds an array; expected a string, a number or null"
            ),
            (
                .maskedKeyHolds("phone", .bool),
                "key \"phone\" holds a boolean; expected a string, a number or null"
            ),
            (
                .keyNotAmongColumns("email"),
                "key \"email\" is not among the first record's keys, which are the CSV output's columns"
            ),
            (
                .pathBlocked(path: "contact.phone", at: "contact", needsArray: false, found: .string),
                "key path \"contact.phone\" goes through \"contact\", which holds a string; expected an object"
            ),
            (
                .pathBlocked(path: "phones[0]", at: "phones", needsArray: true, found: .object),
                "key path \"phones[0]\" goes through \"phones\", which holds an object; expected an array"
            ),
            (
                .pathHolds("contact.phone", .object),
                "key path \"contact.phone\" ends at an object; expected a string, a number or null"
            ),
            (
                .addedMemberPresent(object: "contact", key: "phone_status"),
                "the object \"contact\" already has a key \"phone_status\", which maskclean adds there"
            ),
            (.columnKeyTwice("id"), "key \"id\" appears twice; its CSV column can hold one value"),
            (.invalidUTF8InKey("ph\u{FFFD}ne"), "invalid UTF-8 in key \"ph\u{FFFD}ne\""),
            (.numberTooLarge(key: "amount"), "key \"amount\" holds a number too large to write out"),
            (.nulForCSV(key: "note"), "key \"note\" holds a NUL character (\\u0000), which CSV cannot carry"),
        ]
        return table
    }

    @Test("every bad record's sentence, word for word")
    func everySentence() {
        for (problem, sentence) in Self.sentences() {
            #expect(problem.description == sentence)
        }
    }

    /// A problem's case. No default: a new case does not compile until it is named here; name it
    /// in `everyProblemListed` too, and give it its sentence in the table.
    static func caseName(_ problem: RecordProblem) -> String {
        switch problem {
        case .nulByte: "nulByte"
        case .tooLong: "tooLong"
        case .csvSyntax: "csvSyntax"
        case .unterminatedQuotedField: "unterminatedQuotedField"
        case .fieldCount: "fieldCount"
        case .valueAfterTrailingDelimiter: "valueAfterTrailingDelimiter"
        case .invalidUTF8ForJSON: "invalidUTF8ForJSON"
        case .invalidUTF8InColumn: "invalidUTF8InColumn"
        case .notAnObject: "notAnObject"
        case .invalidJSON: "invalidJSON"
        case .textAfterRecord: "textAfterRecord"
        case .missingCommaBetweenRecords: "missingCommaBetweenRecords"
        case .arrayNotClosed: "arrayNotClosed"
        case .badText: "badText"
        case .addedKeyPresent: "addedKeyPresent"
        case .maskedKeyTwice: "maskedKeyTwice"
        case .maskedKeyHolds: "maskedKeyHolds"
        case .pathBlocked: "pathBlocked"
        case .pathHolds: "pathHolds"
        case .addedMemberPresent: "addedMemberPresent"
        case .keyNotAmongColumns: "keyNotAmongColumns"
        case .columnKeyTwice: "columnKeyTwice"
        case .invalidUTF8InKey: "invalidUTF8InKey"
        case .numberTooLarge: "numberTooLarge"
        case .nulForCSV: "nulForCSV"
        }
    }

    @Test("every problem has its sentence checked")
    func everyProblemListed() {
        let named = Set(Self.sentences().map { Self.caseName($0.0) })
        let cases: Set = [
            "nulByte", "tooLong", "csvSyntax", "unterminatedQuotedField", "fieldCount",
            "valueAfterTrailingDelimiter",
            "invalidUTF8ForJSON",
            "invalidUTF8InColumn", "notAnObject", "invalidJSON", "textAfterRecord",
            "missingCommaBetweenRecords",
            "arrayNotClosed", "badText", "addedKeyPresent", "maskedKeyTwice", "maskedKeyHolds",
            "pathBlocked", "pathHolds", "addedMemberPresent", "keyNotAmongColumns", "columnKeyTwice",
            "invalidUTF8InKey", "numberTooLarge",
            "nulForCSV",
        ]
        #expect(named == cases)
    }

    @Test("every kind of JSON value, as a sentence names it")
    func kindsDescribed() {
        #expect(JSONKind.object.described == "an object")
        #expect(JSONKind.array.described == "an array")
        #expect(JSONKind.string.described == "a string")
        #expect(JSONKind.number.described == "a number")
        #expect(JSONKind.bool.described == "a boolean")
        #expect(JSONKind.null.described == "null")
    }
}
