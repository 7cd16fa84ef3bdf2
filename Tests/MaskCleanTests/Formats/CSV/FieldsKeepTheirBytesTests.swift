import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// docs/record-formats.md, "Fields keep their bytes": CSV in and out with the same delimiter, every
/// field the run does not replace is written with its input bytes, quotes included, whatever the
/// chunks and the workers. (PostgreSQLCopyTests loads the same export into a database.)
@Suite("Fields keep their bytes")
struct FieldsKeepTheirBytesTests {
    static let export = repositoryRoot.appendingPathComponent("Fixtures/quoted-export")

    /// The records of CSV `bytes`, each without its line end, as the splitter cuts them.
    static func records(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.withUnsafeBufferPointer { buffer in
            var records: [[UInt8]] = []
            var splitter = CSVSplitter(delimiter: UInt8(ascii: ","))
            var start = 0
            while start < buffer.count {
                let rest = UnsafeBufferPointer(rebasing: buffer[start...])
                let end = splitter.scanToFirstBoundary(rest).boundary.map { start + $0 } ?? buffer.count
                records.append(Array(buffer[CSVRecordReader.content(of: buffer, start..<end)]))
                start = end
            }
            return records
        }
    }

    @Test(
        "an export that quotes every field keeps each record's bytes before its added cells, at any chunk size and job count",
        arguments: [1, 2, 7], [3, 64, 1 << 20])
    func quotedExport(jobs: Int, chunkSize: Int) throws {
        let folder = try TemporaryFolder()
        let input = try Data(contentsOf: Self.export.appendingPathComponent("contacts.csv"))
        try folder.write("contacts.csv", Array(input))
        let spec = try String(contentsOf: Self.export.appendingPathComponent("spec.json"), encoding: .utf8)
        let outcome = try runPipeline(
            spec: spec, input: "contacts.csv", in: folder, output: "clean.csv", jobs: jobs,
            chunkSize: chunkSize)
        #expect(outcome.report != nil, "\(outcome.error?.message ?? "")")
        let read = Self.records(Array(input))
        let written = Self.records(try folder.read("clean.csv"))
        #expect(read.count == written.count && read.count > 30)
        #expect(read.contains { $0.contains(UInt8(ascii: "\"")) }, "the export quotes its fields")
        for (index, (record, cleaned)) in zip(read, written).enumerated().dropFirst() {
            // The record as read, then a comma, then the added cells.
            let kept = cleaned.starts(with: record + [UInt8(ascii: ",")])
            #expect(
                kept,
                "record \(index): \(String(decoding: record, as: UTF8.self)) became \(String(decoding: cleaned, as: UTF8.self))"
            )
        }
    }
}
