import Foundation
import MaskEngine
import TestSupport
import Testing

@testable import MaskClean

/// Issue 28, item 4 and item 5's last clause: what `describe` leaves out, with the reason its
/// comment gives, and the guard that no proposed format holds a character no one types
/// (docs/command-line.md, `describe`).
@Suite("describe: columns left out, and why")
struct DescribeLeftOutTests {
    static func proposal(_ cells: [String], name: String = "column") throws -> ColumnProposal {
        try SpecProposer.propose(name, cells: cells, unmaskable: 0)
    }

    static func repeated(_ values: [String], _ times: Int) -> [String] {
        Array(Array(repeating: values, count: times).joined())
    }

    /// A data frame written with its index (pandas' `to_csv`) has a header whose first field is
    /// empty, as the Canadian hospitals export of Fixtures/real has: describe proposed a column
    /// of no name, and its own spec then failed to load (exit 78).
    @Test("a column the header leaves unnamed is left out, and the others proposed")
    func unnamedColumn() throws {
        let folder = try TemporaryFolder()
        let rows = (0..<300).map { "\($0),T\($0 % 9 + 1)B \($0 % 10)K7,\(90_000 + $0)" }
        let input = try folder.write("frame.csv", ",postal_code,zip\n" + rows.joined(separator: "\n") + "\n")
        let proposal = try SpecProposer.describe(DescribeOptions(input: input))
        let unnamed = try #require(proposal.columns.first { $0.name.isEmpty })
        #expect(unnamed.leftOut == "the header gives it no name, and a spec names each column it masks")
        #expect(proposal.proposed.map(\.name).contains("zip"))
        #expect(proposal.yaml(schemaBeside: false).contains(#"# "" left out: the header gives it no name"#))
    }

    @Test("a constant column: every value is the same")
    func constant() throws {
        let column = try Self.proposal(Array(repeating: "EMBASSY", count: 12))
        #expect(column.leftOut == "every value is the same (12 values)")
    }

    @Test("flags and enumerations: few distinct values, each many times")
    func enumerations() throws {
        let flags = try Self.proposal(Self.repeated(["Y", "N", "N"], 10))
        #expect(flags.leftOut == "an enumeration of 2 values, which a mask does not check")
        let boroughs = ["Manhattan", "Brooklyn", "Queens", "Bronx", "Staten Island"]
        let borough = try Self.proposal(Self.repeated(boroughs, 6))
        #expect(borough.leftOut == "an enumeration of 5 values, which a mask does not check")
        // Ten codes over twelve records are not an enumeration yet: too few repeats to tell.
        let codes = try Self.proposal((0..<12).map { "A\($0 % 10)" })
        #expect(codes.leftOut == nil)
    }

    @Test("e-mail addresses and URLs are not a mask's job")
    func addresses() throws {
        let mails = try Self.proposal((0..<12).map { "consular.\($0)@embassy\($0).example.org" })
        #expect(mails.leftOut == "e-mail addresses or URLs in 12 of 12 values, which a mask does not check")
        let urls = try Self.proposal((0..<12).map { "https://www.gov.uk/world/embassy-\($0)" })
        #expect(urls.leftOut == "e-mail addresses or URLs in 12 of 12 values, which a mask does not check")
        #expect(LeftOutReasons.isAddress(ValueShape("a@b.c")))
        #expect(!LeftOutReasons.isAddress(ValueShape("@handle")))
        #expect(!LeftOutReasons.isAddress(ValueShape("10:30")))
    }

    @Test("names get no letter slots; codes in capitals still do")
    func names() throws {
        let given = [
            "Anna", "Emma", "Liam", "Noah", "Jack", "Ella", "Owen", "Ruby", "Theo", "Grace", "Oliver",
        ]
        let names = try Self.proposal(given)
        #expect(
            names.leftOut
                == "names or words: a word in lower case in 11 of 11 values, which a mask does not check")
        let currencies = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN"]
        let codes = try Self.proposal(currencies)
        #expect(codes.leftOut == nil)
        #expect(codes.formats == ["[AAA]"])
        #expect(LeftOutReasons.hasLowercaseWord("Zoë"))
        #expect(!LeftOutReasons.hasLowercaseWord("SW1A 1AA"))
        #expect(!LeftOutReasons.hasLowercaseWord("ab1"))
    }

    @Test("identifiers of one length are whole numbers too, unless a kind claims them")
    func identifiers() throws {
        let ids = try Self.proposal((0..<12).map { "\(100_234 + $0 * 7)" })
        #expect(
            ids.leftOut
                == "whole numbers of one length (an identifier or a count), which a mask does not check")
        // Five digits are ZIP codes only in a column named for them: the ids of a real export
        // (OurAirports' navaids) were taken for ZIP codes.
        let fiveDigits = (0..<12).map { "\(10_001 + $0 * 7)" }
        #expect(try Self.proposal(fiveDigits, name: "id").kind == nil)
        #expect(
            try Self.proposal(fiveDigits, name: "id").leftOut?.hasPrefix("whole numbers of one length")
                == true)
        #expect(try Self.proposal(fiveDigits, name: "Zip Code").kind == ValueKind.zip.name)
    }

    @Test(
        "a format no one would type is never proposed",
        arguments: [
            "[000]\u{1B}[00]", "[00]\u{200B}[00]", "\u{E000}[00]", "[00]\u{FFFD}", "[0]\u{2028}[0]",
            "\\q[000]",
        ])
    func untypeableFormat(_ format: String) throws {
        #expect(ProposedFormats.isUntypeable(format))
        var column = ColumnProposal(name: "code", values: 1)
        column.formats = ["[00000]", format]
        var measure = try Measure(column)
        measure.add("12345", count: 1)
        measure.finish(&column)
        #expect(column.leftOut?.hasPrefix("a format would hold a character no one types") == true)
    }

    @Test("what the shapes write is typeable: escapes only of the mask's own characters")
    func typeableFormats() throws {
        for format in [
            "\\[[A]\\]\\{[A]\\}\\\\", "[0000]{-}[00]{-}[00]", "+1 ([000]) [000]-[0000] ext. [0999]",
            "[AA]–[00]",
        ] {
            #expect(!ProposedFormats.isUntypeable(format), "\(format)")
        }
        // Whatever the values hold, a proposed column's formats are typeable.
        let hostile = [
            "\u{1B}[31mAB-12\u{1B}[0m", "AB\u{200D}-12", "AB-12\u{FEFF}", "\u{E001}AB-12", "AB-12\u{2029}",
            "AB-\u{FFFD}2",
            "AB-12", "CD-34", "EF-56", "[x]-\\7",
        ]
        let column = try Self.proposal(
            Self.repeated(hostile, 3).enumerated().map { "\($0.element)\($0.offset % 7)" })
        for format in column.formats { #expect(!ProposedFormats.isUntypeable(format), "\(format)") }
    }
}
