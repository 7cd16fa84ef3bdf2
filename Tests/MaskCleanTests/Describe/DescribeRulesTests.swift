import Foundation
import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// Issue 26: `describe` proposes `check: luhn` for card numbers that pass it, `check: date` with
/// the order the values show, and `significant` for numbers, so that a spec from the data already
/// tells a mistyped card, an impossible date or a lost sign from a clean value.
@Suite("describe: checks and significant characters")
struct DescribeRulesTests {
    /// `count` card numbers of 16 digits with their Luhn check digit, from a fixed seed.
    static func cards(_ count: Int, seed: UInt64 = 7) -> [String] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let body = [4] + (0..<14).map { _ in Int.random(in: 0...9, using: &generator) }
            var sum = 0
            for (position, digit) in body.reversed().enumerated() {
                let doubled = position % 2 == 0 ? digit * 2 : digit
                sum += doubled > 9 ? doubled - 9 : doubled
            }
            let digits = (body + [(10 - sum % 10) % 10]).map(String.init).joined()
            return stride(from: 0, to: 16, by: 4).map {
                String(digits.dropFirst($0).prefix(4))
            }.joined(separator: " ")
        }
    }

    @Test("a column of Luhn-valid cards gets check: luhn, written in YAML and JSON")
    func luhnCards() throws {
        let column = try SpecProposer.propose("card", cells: Self.cards(200), unmaskable: 0)
        #expect(column.kind == "card numbers")
        #expect(column.check == .luhn)
        #expect(column.complete == 200)
        let proposal = SpecProposal(file: "cards.csv", records: 200, columns: [column])
        #expect(proposal.yaml(schemaBeside: false).contains("\n    check: \"luhn\"\n"))
        #expect(proposal.json.contains(#""check": "luhn""#))
    }

    @Test("random 16-digit numbers, and cards of which too many fail Luhn, get no check")
    func noLuhnCheck() throws {
        var generator = SplitMix64(seed: 11)
        let accounts = (0..<200).map { _ in
            (0..<16).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        }
        let random = try SpecProposer.propose("account", cells: accounts, unmaskable: 0)
        #expect(random.check == nil)
        #expect(random.kind == nil, "about one in ten passes Luhn: not card numbers")
        // 150 good cards and 50 mistyped: about 22% fail, more than 1 in 10.
        let mistyped = Self.cards(150) + Self.cards(50, seed: 3).map { String($0.dropLast()) + "0" }
        let failing = mistyped.filter { ValueKind.failsLuhn($0) }.count
        #expect(failing >= 40, "the mistyped cards fail: \(failing)")
        let dirty = try SpecProposer.propose("card", cells: mistyped, unmaskable: 0)
        #expect(dirty.kind == "card numbers")
        #expect(dirty.check == nil)
        #expect(dirty.notes.contains { $0.hasPrefix("no Luhn check: \(failing) of 200") }, "\(dirty.notes)")
        // One mistyped card in 200 keeps the check, and is not counted complete; so do 10 in 200.
        let one = try SpecProposer.propose(
            "card", cells: Self.cards(199) + ["4111 1111 1111 1112"], unmaskable: 0)
        #expect(one.check == .luhn)
        #expect(one.complete == 199)
        let ten = Self.cards(190) + Self.cards(10, seed: 3).map { String($0.dropLast()) + "0" }
        let tenFailing = ten.filter { ValueKind.failsLuhn($0) }.count
        let typos = try SpecProposer.propose("card", cells: ten, unmaskable: 0)
        #expect(typos.check == .luhn)
        #expect(typos.complete == 200 - tenFailing)
    }

    @Test(
        "dates get check: date with the order their values show",
        arguments: [
            (["13/07/1948", "01/02/2003", "25/12/1999"], DateOrder.dmy),
            (["7/13/1948", "1/2/2003", "12/25/1999"], DateOrder.mdy),
        ])
    func dateOrders(_ cells: [String], _ order: DateOrder) throws {
        let column = try SpecProposer.propose("born", cells: cells, unmaskable: 0)
        #expect(column.check == .date)
        #expect(column.dateOrder == order)
        #expect(column.complete == 3)
        let proposal = SpecProposal(file: "dates.csv", records: 3, columns: [column])
        #expect(proposal.yaml(schemaBeside: false).contains("\n    dateOrder: \"\(order.rawValue)\"\n"))
    }

    @Test("ISO dates need no order; an impossible one is not complete")
    func isoDates() throws {
        let column = try SpecProposer.propose(
            "placed", cells: ["2024-02-29", "2023-11-30", "2024-02-30"], unmaskable: 0)
        #expect(column.check == .date)
        #expect(column.dateOrder == nil)
        #expect(column.complete == 2, "30 February fails the check")
    }

    @Test("dates that cannot tell their order, or mix both, get no check, and the comment says why")
    func undecidedDates() throws {
        let ambiguous = try SpecProposer.propose(
            "birthday", cells: ["3/4/1970", "12/1/1985", "1/11/2001"], unmaskable: 0)
        #expect(ambiguous.check == nil)
        #expect(ambiguous.notes.contains { $0.contains("no date check: add check: \"date\" with dateOrder") })
        let mixed = try SpecProposer.propose(
            "birthday", cells: ["13/4/1970", "4/13/1970", "1/1/2001"], unmaskable: 0)
        #expect(mixed.check == nil)
        #expect(mixed.notes.contains("no date check: the data mixes both orders"))
    }

    @Test("years of 2 and 4 digits share one format: the check reads a 2-digit year as 1969-2068")
    func twoAndFourDigitYears() throws {
        let column = try SpecProposer.propose(
            "born", cells: ["7/13/1948", "7/13/48", "12/25/1999"], unmaskable: 0)
        #expect(column.formats == ["[09]{/}[00]{/}[0099]"])
        #expect(column.check == .date && column.dateOrder == .mdy)
        #expect(column.complete == 3)
    }

    @Test(
        "numbers get significant: the sign and decimal point they hold",
        arguments: [
            (["3.20", "-3.20", "12.50", "-0.99"], "-."),
            (["3.20", "12.50", "1,204.00"], "."),
            (["-3", "12", "-7"], "-"),
        ])
    func significant(_ values: [String], _ expected: String) throws {
        // Each value a few times: a shape that one value in twenty has makes a format.
        let cells = values + values + values
        let column = try SpecProposer.propose("amount", cells: cells, unmaskable: 0)
        #expect(column.significant == expected)
        #expect(column.complete == cells.count, "clean numbers are complete: \(column.formats)")
        let proposal = SpecProposal(file: "amounts.csv", records: cells.count, columns: [column])
        #expect(proposal.yaml(schemaBeside: false).contains("\n    significant: \"\(expected)\"\n"))
    }

    @Test("a negative amount has its own format; a sign or point a format drops is not complete")
    func signedFormats() throws {
        let column = try SpecProposer.propose(
            "amount", cells: ["3.20", "-3.20", "12.50", "-12.50", "32.0"], unmaskable: 0)
        #expect(column.formats == ["[00].[00]", "-[00].[00]", "[0].[00]", "-[0].[00]"])
        // `32.0` is a shape of its own (a number's shapes are grouped by their sign only), of one
        // value: no format, so it is not complete, as it would be written 3.20 in `[0].[00]`.
        #expect(column.complete == 4)
    }

    @Test("codes with hyphens and whole numbers of one length are not numbers to mark")
    func notNumbers() throws {
        let codes = try SpecProposer.propose(
            "ext", cells: ["555-1234", "555-9876", "201-0001"], unmaskable: 0)
        #expect(codes.significant.isEmpty)
        let zips = try SpecProposer.propose("code", cells: ["AB-1234", "AB-1235"], unmaskable: 0)
        #expect(zips.significant.isEmpty)
    }

    @Test("the proposed spec loads, in YAML and JSON, and a run over the clean data passes it")
    func proposedSpecPasses() throws {
        let folder = try TemporaryFolder()
        var lines = ["card,born,placed,amount"]
        for (index, card) in Self.cards(120).enumerated() {
            let day = index % 28 + 1
            let month = index % 12 + 1
            lines.append(
                "\(card),\(day)/\(month)/19\(50 + index % 40),2024-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day),\(index % 3 == 0 ? "-" : "")\(index).\(index % 10)5"
            )
        }
        _ = try folder.write("data.csv", lines.joined(separator: "\n") + "\n")
        let proposal = try SpecProposer.describe(DescribeOptions(input: folder.path("data.csv")))
        let yaml = try SpecLoader.parse(Array(proposal.yaml(schemaBeside: false).utf8), file: "spec.yaml")
        let json = try SpecLoader.parse(Array(proposal.json.utf8), file: "spec.json")
        #expect(yaml.fingerprint == json.fingerprint)
        #expect(yaml.columns.map { $0.check?.name } == [.luhn, .date, .date, nil])
        #expect(yaml.columns[1].check?.dateOrder == .dmy)
        #expect(yaml.columns[3].syntaxOptions.significant == "-.")
        let outcome = try runPipeline(spec: proposal.json, input: "data.csv", in: folder)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        #expect(report.passed)
        #expect(report.columns.allSatisfy { $0.stats.invalid == 0 })
        #expect(report.columns.map(\.stats.complete) == [120, 120, 120, 120])
    }

    @Test("a date column whose normalized column's default name the input has writes it as null")
    func normalizedNameTaken() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "data.csv", "born,born_normalized\n13/07/1948,1948-07-13\n25/12/1999,1999-12-25\n")
        let proposal = try SpecProposer.describe(DescribeOptions(input: folder.path("data.csv")))
        #expect(proposal.proposed.first?.omittedOutputs == ["normalizedColumn"])
        #expect(proposal.yaml(schemaBeside: false).contains("\n    normalizedColumn: null\n"))
        // Without the null, run would refuse to write born_normalized twice.
        let spec = try SpecLoader.parse(Array(proposal.yaml(schemaBeside: false).utf8), file: "spec.yaml")
        #expect(spec.columns[0].normalizedColumn == nil)
        #expect(spec.columns[1].normalizedColumn == "born_normalized_normalized")
    }
}
