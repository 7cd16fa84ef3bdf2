import MaskEngine
import Testing

@testable import MaskClean

/// The numbering plan's table (Sources/MaskClean/Phone/NumberingPlanData.swift) and what is
/// compiled from it.
@Suite("Numbering plan")
struct NumberingPlanTests {
    @Test("the table holds every region of libphonenumber 9.0.35, and every pattern reads")
    func table() {
        let regions = NumberingPlan.regions
        for code in regions.byCallingCode.keys { _ = NumberingPlan.automaton(callingCode: code) }
        #expect(NumberingPlan.source.contains("libphonenumber 9.0.35"))
        #expect(regions.all.count == 254)
        #expect(Set(regions.all.map(\.id)).count == 246)  // 245 regions and 001 for 9 codes
        #expect(regions.byCallingCode[1]?.first.map { regions.all[$0].id } == "US")
        #expect(regions.byCallingCode[44]?.map { regions.all[$0].id } == ["GB", "GG", "IM", "JE"])
        for region in regions.all {
            #expect(region.general != nil, "\(region.id)")
            for format in region.formats {
                #expect(!format.groups.isEmpty, "\(region.id) \(format.pattern.text)")
            }
        }
    }

    @Test("every country code compiles into an automaton")
    func automata() {
        var states = 0
        for code in NumberingPlan.regions.byCallingCode.keys {
            let automaton = NumberingPlan.automaton(callingCode: code)
            #expect(automaton != nil)
            states += automaton?.stateCount ?? 0
        }
        print("numbering plan: \(NumberingPlan.regions.byCallingCode.count) country codes, \(states) states")
    }

    @Test("every format's mask writes what the format says, for every length it takes")
    func masksMatchTheirFormats() {
        var masked = [false: 0, true: 0]
        var unmasked = [false: 0, true: 0]
        for code in NumberingPlan.regions.byCallingCode.keys {
            let automaton = NumberingPlan.automaton(callingCode: code)!
            let main = automaton.main
            let masks = FormatMasks(region: main, lengths: automaton.lengths)
            for (index, format) in main.formats.enumerated() {
                for length in 1...NumberAutomaton.maximumLength
                where masks.lengths & (1 << UInt32(length)) != 0 {
                    guard let split = format.split(length) else { continue }
                    let digits = (0..<length).map { UInt8(0x30 + ($0 * 7 + 3) % 10) }
                    for national in [false, true] {
                        guard let text = format.text(national: national, in: main) else { continue }
                        let written = ByteBuffer()
                        digits.withUnsafeBufferPointer {
                            NumberFormatRule.write($0, text: Array(text.utf8), split: split, into: written)
                        }
                        let expected = Array(written.bytes)
                        guard
                            let mask = masks.mask(format: index, length: length, national: national)
                        else {
                            unmasked[national]! += 1
                            // Only a format that leaves a group out or adds digits of its own.
                            #expect(FormatMasks.maskFormat(text, split) == nil, "\(main.id) \(text)")
                            continue
                        }
                        masked[national]! += 1
                        let result = mask.apply(String(decoding: digits, as: UTF8.self), autocomplete: false)
                        #expect(
                            result.formatted == String(decoding: expected, as: UTF8.self),
                            "\(main.id) \(format.format) national \(national) length \(length)")
                        #expect(result.status == .complete)
                    }
                }
            }
        }
        print("formats and lengths written by masks: \(masked), without: \(unmasked) (false: international)")
        #expect(masked[false]! > 50 * unmasked[false]!)
    }

    @Test("a format's groups split a length greedily, as its regular expression does")
    func split() throws {
        let format = NumberFormatRule(["format", #"(\d{3,4})(\d{4})"#, "", "$1 $2", "-", ""])
        #expect(format.split(7) == [3, 4])
        #expect(format.split(8) == [4, 4])
        #expect(format.split(9) == nil)
        #expect(format.split(6) == nil)
        #expect(FormatMasks.maskFormat("$1 $2", [3, 4]) == "[000] [0000]")
        #expect(FormatMasks.maskFormat("$2 15-$3-$4", [1, 2, 4, 4]) == nil)
        #expect(FormatMasks.maskFormat("0$1 $2", [3, 4]) == nil)
    }
}

/// The patterns' language and Java's matching order, which the national prefixes rely on.
@Suite("Numbering-plan patterns")
struct PlanPatternTests {
    func prefix(_ pattern: String, _ digits: String) throws -> (end: Int, captures: [String?])? {
        let pattern = try PlanPattern(pattern)
        let bytes = Array(digits.utf8)
        guard let match = bytes.withUnsafeBufferPointer({ pattern.prefixMatch($0) }) else { return nil }
        return (match.end, match.captures.map { $0.map { String(decoding: bytes[$0], as: UTF8.self) } })
    }

    @Test("alternatives in order, counts greedy, groups captured, $ at the end")
    func matching() throws {
        // Antigua's national prefix: 7 digits alone are a local number, else a leading 1 goes.
        #expect(try prefix(#"([457]\d{6})$|1"#, "4621234")?.captures == ["4621234"])
        #expect(try prefix(#"([457]\d{6})$|1"#, "12684621234")?.end == 1)
        #expect(try prefix(#"([457]\d{6})$|1"#, "12684621234")?.captures == [nil])
        #expect(try prefix(#"0(8(?:[1-46-8]|5\d\d))?"#, "0851234")?.captures == ["8512"])
        #expect(try prefix(#"\d{2,4}"#, "123456")?.end == 4)
        #expect(
            try prefix(#"(?:0|90)(?:(1[245]|2[1-35])(\d{10,11}))?"#, "0211234567890")?.captures == [
                "21", "1234567890",
            ])
        #expect(try prefix("00|011", "0114420") != nil)
        #expect(try prefix("810", "8100") != nil)
        #expect(try prefix("810", "8200") == nil)
        // Hong Kong's international prefix: an alternative, then an optional digit taken if it is there.
        #expect(try prefix("00(?:30|5[09]|[126-9]?)", "00592")?.end == 4)
        #expect(try prefix("00(?:30|5[09]|[126-9]?)", "00512")?.end == 2)
        #expect(try prefix("00(?:30|5[09]|[126-9]?)", "0061")?.end == 3)
        #expect(try prefix("1(2)*(3)", "122234")?.captures == ["2", "3"])
        // A pattern that can match nothing (Argentina's `0?(…15)?`) matches any number, by nothing.
        #expect(try prefix("0?(?:(11)15)?", "2345")?.end == 0)
        #expect(try prefix("(?:0|90)(?:(1[245])(\\d{10,11}))?", "2345") == nil)
    }

    @Test("a construct outside the language is refused, with where it is")
    func refused() {
        #expect(throws: PlanPatternError(pattern: #"\w"#, offset: 0)) { try PlanPattern(#"\w"#) }
        #expect(throws: PlanPatternError(pattern: "[^0]", offset: 1)) { try PlanPattern("[^0]") }
        #expect(throws: PlanPatternError(pattern: "1{3", offset: 1)) { try PlanPattern("1{3") }
        #expect(throws: PlanPatternError(pattern: "(12", offset: 0)) { try PlanPattern("(12") }
        #expect(throws: PlanPatternError(pattern: "(?:1?)*2", offset: 0)) { try PlanPattern("(?:1?)*2") }
    }
}
