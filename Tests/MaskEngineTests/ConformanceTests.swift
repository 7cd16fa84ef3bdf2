import Foundation
import MaskEngine
import Testing

/// One line of `Conformance/visible.jsonl`: the reference engine's exact result on a case.
struct ConformanceCase: Decodable, CustomTestStringConvertible, Sendable {
    struct NotationSpec: Decodable, Sendable {
        var character: String
        var characterSet: String
        var isOptional: Bool
    }

    var line: Int = 0
    var format: String
    var affineFormats: [String]
    var notations: [NotationSpec]
    var strategy: String?
    var input: String?
    var autocomplete: Bool?
    var rtl: Bool?
    var formatted: String?
    var extracted: String?
    var complete: Bool?
    var affinity: Int?
    var chosenFormat: String?
    var error: String?

    enum CodingKeys: String, CodingKey {
        case format, affineFormats, notations, strategy, input, autocomplete, rtl, formatted, extracted
        case complete, affinity, chosenFormat, error
    }

    var testDescription: String {
        "line \(line): \(format.debugDescription) ← \((input ?? "").debugDescription)"
    }

    static let all: [ConformanceCase] = {
        let url = Bundle.module.url(
            forResource: "visible", withExtension: "jsonl", subdirectory: "Conformance")!
        let text = try! String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").enumerated().map { index, line in
            var decoded = try! JSONDecoder().decode(ConformanceCase.self, from: Data(line.utf8))
            decoded.line = index + 1
            return decoded
        }
    }()

    func makeMask() throws -> AffineMask {
        let notations = notations.map {
            Notation(
                character: Character($0.character), characterSet: $0.characterSet, isOptional: $0.isOptional)
        }
        try Notation.checkDistinct(notations)
        return try AffineMask(
            format: format, affineFormats: affineFormats,
            options: SyntaxOptions(notations: notations, rightToLeft: rtl ?? false),
            strategy: AffinityStrategy(rawValue: strategy ?? "wholeString")!,
            autocomplete: autocomplete ?? true)
    }
}

@Suite("Conformance with the reference engine")
struct ConformanceTests {
    @Test("visible.jsonl holds the 970 cases")
    func allCasesLoad() {
        #expect(ConformanceCase.all.count == 970)
    }

    @Test(arguments: ConformanceCase.all)
    func reference(_ testCase: ConformanceCase) throws {
        if testCase.error != nil {
            #expect(throws: (any Error).self) { try testCase.makeMask() }
            return
        }
        let mask = try testCase.makeMask()
        let outcome = mask.apply(testCase.input!)
        #expect(outcome.result.formatted == testCase.formatted)
        #expect(outcome.result.extracted == testCase.extracted)
        #expect(outcome.result.complete == testCase.complete)
        #expect(outcome.result.affinity == testCase.affinity)
        #expect(mask.masks[outcome.chosen].format == testCase.chosenFormat)
    }
}
