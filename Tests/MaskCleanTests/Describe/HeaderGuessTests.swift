import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// `describe` of a CSV whose first line is a record, not column names (docs/command-line.md
/// #describe): it says so and how to describe a file without a header line.
@Suite("describe: a first line that looks like a record")
struct HeaderGuessTests {
    @Test(
        "names that are numbers, dates, phone numbers or e-mail addresses look like values; names do not",
        arguments: [
            ("5551234567", true), ("2024-01-05", true), ("+44 20 7946 0958", true), ("12.50", true),
            ("ann@example.com", true), ("٣٤٥٦", true), ("phone", false), ("address2", false),
            ("Q1 2024", false), ("FY2024", false), ("e-mail", false), ("@handle", false), ("12", false),
            ("customer_id", false), ("a@b", false),
        ])
    func value(name: String, looksLikeValue: Bool) {
        #expect(HeaderGuess.looksLikeValue(name) == looksLikeValue)
    }

    @Test("a line looks like a record when a third of its fields look like values")
    func line() {
        #expect(
            HeaderGuess.valuesAmong(["5551234567", "Ann", "ann@example.com"]) == [
                "5551234567", "ann@example.com",
            ])
        #expect(HeaderGuess.valuesAmong(["C-1001", "Ann", "Lee", "Boston", "1980-02-01"]).isEmpty, "1 of 5")
        #expect(HeaderGuess.valuesAmong(["id", "name", "phone"]).isEmpty)
    }

    /// A contact export written without its header: describe warns, and when no column can be
    /// proposed the error says the same.
    @Test("describe warns, and its no-column error says why and what to do")
    func describeWarns() throws {
        let folder = try TemporaryFolder()
        var rows = ""
        for index in 0..<50 {
            rows += "C-\(1000 + index),Ann Lee,(555) 555-\(1000 + index),ann\(index)@example.com\n"
        }
        var options = DescribeOptions(input: try folder.write("contacts.csv", rows))
        options.jobs = 1
        let proposal = try SpecProposer.describe(options)
        #expect(
            proposal.warnings.map(\.description) == [
                "the first line of \(folder.path("contacts.csv")) looks like a record, not column names (\"(555) 555-1000\", \"ann0@example.com\"): if the file has no header line, describe it with an input without a header line the column list given for a header-less input followed by its 4 column names, separated by commas"
            ])
        #expect(
            proposal.warnings.first?.rendered(
                naming: \.description, setting: { $0 == .headerless ? "--no-header" : "--columns" }
            )
            .contains("describe it with --no-header --columns followed by its 4 column names") == true)
        // Named, the same records give no warning.
        options.columnNames = ["id", "name", "phone", "email"]
        #expect(try SpecProposer.describe(options).warnings.isEmpty)
        // Free text only: the error carries the hint.
        var words = ""
        for index in 0..<30 { words += "\(1000 + index)-01-0\(index % 9 + 1),the quick brown fox \(index)\n" }
        var onlyText = DescribeOptions(input: try folder.write("notes.csv", words))
        onlyText.jobs = 1
        onlyText.only = ["the quick brown fox 0"]
        do {
            _ = try SpecProposer.describe(onlyText)
            Issue.record("a column was proposed")
        } catch {
            #expect(
                error.message.hasPrefix("\(folder.path("notes.csv")): no column to propose from 29 records"),
                "\(error.message)")
            #expect(
                error.message.contains("; the first line of \(folder.path("notes.csv")) looks like a record"),
                "\(error.message)")
        }
    }

    @Test("describe leaves a repeated name out: a spec could not name it")
    func repeatedName() throws {
        let folder = try TemporaryFolder()
        var rows = "id,phone,note,note\n"
        for index in 0..<40 { rows += "\(index),(555) 555-\(1000 + index),a,b\n" }
        var options = DescribeOptions(input: try folder.write("export.csv", rows))
        options.jobs = 1
        let proposal = try SpecProposer.describe(options)
        #expect(proposal.columns.map(\.name) == ["id", "phone", "note"])
        #expect(
            proposal.columns[2].leftOut
                == "the name is given to more than one column, and a spec names each column it masks once")
        #expect(proposal.proposed.map(\.name) == ["phone"])
    }
}
