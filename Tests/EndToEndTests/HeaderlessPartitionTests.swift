import Foundation
import TestSupport
import Testing

/// The use `--no-header` is for (docs/command-line.md#inputs-without-a-header-line): a CSV export
/// cut into pieces without its header line, each cleaned by its own `maskclean` process, on a
/// file or piped in as `RDD.pipe` does. The cleaned pieces, put back together in order, are the
/// output of one run over the whole export; with `--header` on the first piece only, header
/// line included.
@Suite("Header-less partitions of a real export")
struct HeaderlessPartitionTests {
    /// The demo export's header line and its records, cut into `count` pieces at record
    /// boundaries: a line feed outside quotes (some of its notes hold line breaks).
    static func pieces(_ count: Int) throws -> (header: String, pieces: [Data]) {
        let bytes = Array(
            try Data(contentsOf: Maskclean.fixtures.appendingPathComponent("demo/customers.csv")))
        var boundaries: [Int] = []
        var quotes = 0
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { quotes += 1 }
            if byte == 0x0A && quotes % 2 == 0 { boundaries.append(index + 1) }
        }
        let header = String(decoding: bytes[..<(boundaries[0] - 1)], as: UTF8.self)
        let records = Array(boundaries.dropLast())
        var cuts = [records[0]]
        for piece in 1..<count { cuts.append(records[records.count * piece / count]) }
        cuts.append(bytes.count)
        return (header, (0..<count).map { Data(bytes[cuts[$0]..<cuts[$0 + 1]]) })
    }

    @Test("cleaned pieces, files or pipes, put together are the whole run's output", arguments: [3, 8])
    func piecesMakeTheWhole(count: Int) throws {
        let demo = Maskclean.fixtures.appendingPathComponent("demo")
        let scratch = try TemporaryFolder()
        let whole = try Maskclean.run(
            ["run", "spec.json", "customers.csv", "-o", scratch.path("whole.csv"), "--quiet"], in: demo)
        #expect(whole.status == 1, "the demo misses its card threshold: \(whole.stderr)")
        let wholeOutput = try scratch.read("whole.csv")
        let (header, pieces) = try Self.pieces(count)
        #expect(header == "id,name,phone,card,date,zip,note")
        var joined: [UInt8] = []
        var rows = 0
        for (index, piece) in pieces.enumerated() {
            let name = "piece-\(index).csv"
            _ = try scratch.write(name, Array(piece))
            var arguments = [
                "run", "spec.json", "--no-header", "--columns", header, "--jobs", "2", "--quiet",
                "--report", scratch.path("report-\(index).json"),
            ]
            if index == 0 { arguments.append("--header") }
            // Every other piece is piped in, as Spark's RDD.pipe and Hadoop Streaming hand it over.
            let piped = index % 2 == 1
            arguments +=
                piped ? ["-", "--input-format", "csv"] : [scratch.path(name), "-o", scratch.path("out.csv")]
            let outcome = try Maskclean.run(arguments, in: demo, stdin: piped ? piece : nil)
            #expect([0, 1].contains(outcome.status), "piece \(index): \(outcome.stderr)")
            joined += piped ? Array(outcome.stdout) : try scratch.read("out.csv")
            let report =
                try JSONSerialization.jsonObject(
                    with: Data(try scratch.read("report-\(index).json"))) as? [String: Any]
            rows += report?["rows"] as? Int ?? 0
        }
        #expect(rows == 1000, "every record counted once")
        // Compared without printing 200 KB of bytes when they differ.
        let difference = joined.indices.first { $0 >= wholeOutput.count || joined[$0] != wholeOutput[$0] }
        #expect(
            difference == nil,
            "the pieces' outputs, in order, differ from the whole run's at byte \(difference ?? 0)")
        #expect(joined.count == wholeOutput.count)
    }
}
