import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// `describe`'s fast paths against their slow twins: the shapes `Measure` remembers
/// (`ShapeMemo`) and the second reading in several threads (`RecordPass.read(_:workers:...)`).
@Suite("describe: the fast paths give what the slow ones give")
struct DescribeFastPathTests {
    /// Values of a messy export: North American phones in several shapes, coordinates with and
    /// without a sign, codes in two cases, card numbers, values outside ASCII, and values no
    /// format takes; each column's formats as describe would propose them.
    static let columns: [(formats: [String], significant: String, values: [String])] = [
        (
            ["+1 ([000]) [000]-[0000]", "+1 ([000]) [000]-[0000] x[0999]"], "",
            (0..<400).map { index in
                let number = "\(200 + index % 700) \(100 + index * 7 % 900)-\(1000 + index * 37 % 9000)"
                switch index % 6 {
                case 0: return "(" + number.prefix(3) + ") " + number.dropFirst(4)
                case 1: return number.replacingOccurrences(of: " ", with: "-")
                case 2: return number + " x\(index % 90)"
                case 3: return String(number.filter(\.isNumber))
                case 4: return "555-\(1000 + index)"
                default: return "+1 " + number
                }
            }
        ),
        (
            ["[00].[0000]", "-[00].[0000]", "[000].[000]"], "-.",
            (0..<400).map { index in
                let whole = index % 3 == 0 ? "\(100 + index % 80)" : "\(10 + index % 89)"
                return (index % 2 == 0 ? "-" : "") + whole + "."
                    + String(1000 + index * 13 % 9000).prefix(whole.count == 3 ? 3 : 4)
            }
        ),
        (
            ["[AA][00] [0][AA]"], "",
            (0..<300).map { index in
                let letters = ["SW", "ec", "Nw", "é", "B"][index % 5]
                return "\(letters)\(10 + index % 89) \(index % 10)\(["AB", "xy", "ÀB"][index % 3])"
            }
        ),
        // A format's own letters take only themselves: a timestamp's T, and an X where it stands
        // (lossy: the T is put in, the X dropped), first.
        (
            ["[0000]{-}[00]{-}[00]{T}[00]{:}[00]{Z}"], "",
            (0..<300).map { index in
                "2024-0\(1 + index % 9)-1\(index % 10)\(["X", "T", "t"][index % 3])1\(index % 10):2\(index % 10)Z"
            }
        ),
        // And its own digits: ten digits after a 1 are a number after its `+1`, after a 2 one
        // digit too many.
        (
            ["+1 ([000]) [000]-[0000]"], "",
            (0..<300).map { index in "\([2, 1, 3][index % 3])\(555_201_000 + index)" }
        ),
    ]

    @Test("a Measure that remembers shapes counts what one that judges each value counts")
    func memoEqualsSlowTwin() throws {
        for (formats, significant, values) in Self.columns {
            var column = ColumnProposal(name: "c", values: values.count)
            column.formats = formats
            column.significant = significant
            var fast = try Measure(column)
            var slow = try Measure(column, remembering: false)
            // Every value twice: the second time, the memo answers.
            for value in values + values {
                fast.add(value, count: 1)
                slow.add(value, count: 1)
            }
            var fastColumn = column
            var slowColumn = column
            let fastAgain = fast.finish(&fastColumn)
            let slowAgain = slow.finish(&slowColumn)
            #expect(fastColumn == slowColumn, "\(formats)")
            #expect(fastAgain == slowAgain)
            #expect(fast.complete == slow.complete)
            #expect(fast.uncovered == slow.uncovered)
            #expect(fast.faultyFormats == slow.faultyFormats)
            #expect(
                fast.changed.mapValues { [$0.count] + $0.value.map(Int.init) }
                    == slow.changed.mapValues { [$0.count] + $0.value.map(Int.init) })
        }
    }

    /// A check judges the digits, not their shape: 02/30/2024 is not complete where 02/28/2024,
    /// of the same shape, is. The memo leaves such a column to the masker, value by value.
    @Test("with a check, each value is judged, not its shape")
    func memoLeavesChecksToTheMasker() throws {
        var column = ColumnProposal(name: "d", values: 0)
        column.formats = ["[00]{/}[00]{/}[0000]"]
        column.check = .date
        column.dateOrder = .mdy
        let values = ["02/28/2024", "02/30/2024", "02/29/2024", "02/29/2023", "12/31/1999", "13/01/2024"]
        var fast = try Measure(column)
        var slow = try Measure(column, remembering: false)
        for value in values + values {
            fast.add(value, count: 1)
            slow.add(value, count: 1)
        }
        #expect(fast.complete == 6)
        #expect(fast.complete == slow.complete)
        #expect(fast.uncovered == slow.uncovered)
    }

    /// `ValueShape.asciiFormat`, the tally's fast path, writes what the shape's steps write, for
    /// every printable ASCII character and random values of them; any other value is the
    /// steps' to write.
    @Test("a value's ASCII format is its shape's format")
    func asciiFormatEqualsShape() {
        var random = SplitMix64(seed: 28)
        var values = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        let pieces = ["(", ")", "[", "]", "{", "}", "\\", "-", " ", "+", ".", "7", "42", "ab", "XY", "#"]
        for _ in 0..<5_000 {
            let count = Int(random.next() % 12) + 1
            values.append((0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        for value in values {
            #expect(ValueShape.asciiFormat(value) == ValueShape(value).format, "\(value)")
        }
        for value in ["12\t34", "a\r\nb", "café", "1\u{301}2", "\u{7F}", "٣٤"] {
            #expect(ValueShape.asciiFormat(value) == nil, "\(value)")
        }
    }

    /// An export larger than the sample, so that its second reading runs in chunks: one worker
    /// and four give the same proposal, figures and comments, in each record format.
    @Test(
        "the second reading in four threads proposes what one thread proposes",
        arguments: ["csv", "ndjson", "json"])
    func parallelEqualsSerial(_ format: String) throws {
        let folder = try TemporaryFolder()
        var records: [(phone: String, lat: String, zip: String)] = []
        for index in 0..<60_000 {
            records.append(
                (
                    Self.columns[0].values[index % 400], Self.columns[1].values[(index * 7) % 400],
                    index % 11 == 0 ? "1234" : String(10_000 + index % 89_999)
                ))
        }
        let text: String
        switch format {
        case "csv":
            text = "phone,lat,zip\n" + records.map { "\($0.phone),\($0.lat),\($0.zip)\n" }.joined()
        case "ndjson":
            text = records.map { #"{"phone":"\#($0.phone)","lat":\#($0.lat),"zip":"\#($0.zip)"}"# + "\n" }
                .joined()
        default:
            text =
                "[\n"
                + records.map { #"{"phone":"\#($0.phone)","lat":\#($0.lat),"zip":"\#($0.zip)"}"# }
                .joined(separator: ",\n") + "\n]\n"
        }
        let path = folder.path("export.\(format)")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var options = DescribeOptions(input: path)
        options.sample = 1_000
        options.jobs = 1
        let serial = try SpecProposer.describe(options)
        options.jobs = 4
        let parallel = try SpecProposer.describe(options)
        #expect(serial.records == 60_000)
        #expect(serial.columns == parallel.columns)
        #expect(serial.yaml(schemaBeside: false) == parallel.yaml(schemaBeside: false))
        #expect(serial.proposed.map(\.name) == ["phone", "lat", "zip"])
        // Every record was measured, not only the sample's.
        #expect(serial.proposed.allSatisfy { $0.values + $0.empty == 60_000 })
    }

    /// The first reading in threads too: keys first met far into the input, in records of
    /// different key orders, are columns in the order the input first has them, with the
    /// values no run masks counted; a JSON array on one line (its records share a line) is
    /// sampled as one thread samples it.
    @Test(
        "the first reading in four threads finds the columns and the sample one thread finds",
        arguments: ["ndjson", "json", "json-one-line"])
    func parallelFirstReading(_ format: String) throws {
        let folder = try TemporaryFolder()
        var objects: [String] = []
        for index in 0..<40_000 {
            let zip = #""zip":"\#(10_000 + index % 89_999)""#
            let phone = #""phone":"555-\#(1000 + index % 9000)""#
            switch index {
            // Met first here, past the first chunks, and again later in another place.
            case 25_000, 33_000: objects.append("{\(phone),\"late\":{\"a\":1},\(zip),\"later\":\"x\"}")
            case 30_000: objects.append("{\"latest\":true,\(zip),\(phone)}")
            default: objects.append(index % 2 == 0 ? "{\(zip),\(phone)}" : "{\(phone),\(zip)}")
            }
        }
        let text: String
        switch format {
        case "ndjson": text = objects.joined(separator: "\n") + "\n"
        case "json": text = "[\n" + objects.joined(separator: ",\n") + "\n]\n"
        default: text = "[" + objects.joined(separator: ",") + "]\n"
        }
        let path = folder.path("export.\(format == "ndjson" ? "ndjson" : "json")")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var options = DescribeOptions(input: path)
        options.sample = 500
        options.jobs = 1
        let serial = try SpecProposer.describe(options)
        options.jobs = 4
        let parallel = try SpecProposer.describe(options)
        #expect(serial.records == 40_000)
        // An object's members are columns of their own, named by path, in the order first met.
        #expect(serial.columns.map(\.name) == ["zip", "phone", "late", "late.a", "later", "latest"])
        #expect(serial.columns == parallel.columns)
        #expect(serial.yaml(schemaBeside: false) == parallel.yaml(schemaBeside: false))
    }

    /// An export that quotes every field (as many database exports do) is read by the quoted
    /// path of the CSV reader in both readings: its proposal and every figure are the unquoted
    /// export's, in one thread or four.
    @Test("a CSV that quotes every field is described as the same CSV unquoted")
    func quotedEveryField() throws {
        let folder = try TemporaryFolder()
        var plain = "zip,phone,note\n"
        var quoted = "\"zip\",\"phone\",\"note\"\n"
        for index in 0..<5_000 {
            let zip = index % 13 == 0 ? "1234" : String(10_000 + index)
            let phone = "(\(200 + index % 700)) \(200 + index * 7 % 700)-\(1000 + index * 37 % 9000)"
            plain += "\(zip),\(phone),say \(index)\n"
            // A doubled quote in one field of ten, as a quoting writer escapes it.
            let note = index % 10 == 0 ? "say \"\"\(index)\"\"" : "say \(index)"
            quoted += "\"\(zip)\",\"\(phone)\",\"\(note)\"\n"
        }
        let proposals = try [plain, quoted].enumerated().flatMap { (index, text) in
            try [1, 4].map { jobs in
                var options = DescribeOptions(input: try folder.write("export-\(index).csv", text))
                options.sample = 500
                options.jobs = jobs
                return try SpecProposer.describe(options)
            }
        }
        let zip = try #require(proposals[0].proposed.first { $0.name == "zip" })
        #expect(zip.values == 5_000 && zip.complete < 5_000)
        // One thread or four: the same, sample and all.
        #expect(proposals[1].proposed == proposals[0].proposed)
        #expect(proposals[3].proposed == proposals[2].proposed)
        // Quoted or not: the same formats and whole-file figures. The sample is chosen by the
        // records' places, which the quotes move, so its shares may differ.
        let figures = { (proposal: SpecProposal) in
            proposal.proposed.map {
                [$0.name, "\($0.formats)", "\($0.values)", "\($0.complete)", "\($0.uncovered)"]
            }
        }
        #expect(figures(proposals[2]) == figures(proposals[0]))
        #expect(proposals[2].proposed.map(\.name) == ["zip", "phone"])
    }

    /// A JSON record whose proposed column a run rejects (its key written twice, a number too
    /// large to write out) fails describe with the run's error, the first in the input, whether
    /// the input is all sample or read again, in one thread or four: the second reading, which
    /// reads as a run reads, had failed where the first had not, so that a larger input failed
    /// where a smaller one passed. A column left out is no run's business.
    @Test(
        "a JSON record a run rejects fails describe on a proposed column, however large the input",
        arguments: [100, 12_000])
    func runRejectedRecords(_ records: Int) throws {
        let folder = try TemporaryFolder()
        for (bad, expected) in [
            (#"{"zip":"12345","zip":"12346","note":"x"}"#, #"key "zip" appears twice"#),
            (#"{"zip":1e5000,"note":"x"}"#, #"key "zip""#),
            (#"{"zip":"12345","note":"a","note":"b"}"#, nil),
        ] {
            var lines = (0..<records).map {
                #"{"zip":"\#(10_000 + $0 % 89_999)","note":"say \#($0) things"}"#
            }
            lines[records / 2] = bad
            lines[records * 3 / 4] = bad
            let input = try folder.write("export.ndjson", lines.joined(separator: "\n") + "\n")
            for jobs in [1, 4] {
                var options = DescribeOptions(input: input)
                options.jobs = jobs
                do {
                    let proposal = try SpecProposer.describe(options)
                    #expect(expected == nil, "\(bad): proposed \(proposal.proposed.map(\.name))")
                } catch {
                    let expected = try #require(expected, "\(bad): \(error.message)")
                    #expect(error.message.contains("export.ndjson:\(records / 2 + 1):"), "\(error.message)")
                    #expect(error.message.contains(expected), "\(error.message)")
                }
            }
        }
    }

    /// Two bad records far apart: however the chunks fall to the threads, the first in the
    /// input is the one named, as a serial reading names it.
    @Test("in four threads, the first bad record in the input is the error")
    func parallelFirstError() throws {
        let folder = try TemporaryFolder()
        var text = "zip,phone\n"
        for index in 0..<50_000 {
            text +=
                index == 31_000 || index == 45_000
                ? "1,2,3\n" : "\(10_000 + index),555-\(1000 + index % 9000)\n"
        }
        let path = folder.path("export.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for jobs in [1, 4] {
            var options = DescribeOptions(input: path)
            options.jobs = jobs
            #expect(throws: MaskCleanError.self) { try SpecProposer.describe(options) }
            do {
                _ = try SpecProposer.describe(options)
            } catch {
                #expect(error.message.contains("export.csv:31002:"), "\(jobs) jobs: \(error.message)")
            }
        }
    }

    /// A cell that is not UTF-8 in two records past the sample (the second reading is the one
    /// that reads their cells): the first in the input is named, in one thread or four.
    @Test("in four threads, the first cell that is not UTF-8 is the error")
    func parallelFirstInvalidCell() throws {
        let folder = try TemporaryFolder()
        var bytes = Array("zip,phone\n".utf8)
        for index in 0..<50_000 {
            bytes += Array("\(10_000 + index),555-\(1000 + index % 9000)".utf8)
            if index == 31_000 || index == 45_000 { bytes += [0xFF] }
            bytes += [0x0A]
        }
        let path = folder.path("export.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for jobs in [1, 4] {
            var options = DescribeOptions(input: path)
            options.jobs = jobs
            options.sample = 100
            do {
                _ = try SpecProposer.describe(options)
                Issue.record("\(jobs) jobs: no error")
            } catch {
                #expect(error.message.contains("export.csv:31002:"), "\(jobs) jobs: \(error.message)")
            }
        }
    }
}
