import Foundation
import TestSupport
import Testing

/// Issue 12 (resources): three records whose masked cells are 30 MB each held 304 MB (CSV) and
/// 230 MB (NDJSON) with the default `--jobs`: the reader's buffer was copied into the chunk,
/// the chunk's output reserved twice the chunk, every such record was in flight at once, and the
/// report kept each 30 MB value as a sample. Peak memory must stay under 200 MB, with the
/// records written whole and the report small.
@Suite("Huge cells in bounded memory")
struct HugeCellMemoryTests {
    static let cellBytes = 30_000_000

    @Test("three 30 MB cells: under 200 MB, every record written", arguments: ["csv", "ndjson"])
    func threeHugeCells(format: String) throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            "spec.json", #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]"}]}"#)
        let cell = String(repeating: "5", count: Self.cellBytes)
        let input =
            format == "csv"
            ? "id,phone\n" + (1...3).map { "\($0),\(cell)\n" }.joined()
            : (1...3).map { "{\"id\":\($0),\"phone\":\"\(cell)\"}\n" }.joined()
        _ = try folder.write("huge.\(format)", input)
        let (status, bytes) = try peakMemory([
            "run", folder.path("spec.json"), folder.path("huge.\(format)"), "--samples", "raw", "-o",
            folder.path("clean.\(format)"),
            "--report", folder.path("report.json"),
        ])
        #expect(status == 0)
        if !isAddressSanitized {
            #expect(bytes < 200 << 20, "peak \(bytes >> 20) MiB")
        }
        let output = try Data(contentsOf: folder.url.appendingPathComponent("clean.\(format)"))
        #expect(output.count > 3 * Self.cellBytes, "each record written with its cell")
        let report = try String(contentsOf: folder.url.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("\"lossy\": 3"), "\(report.prefix(2000))")
        #expect(report.utf8.count < 8192, "samples cut: \(report.utf8.count) bytes")
        #expect(report.contains("\"value\": \"" + String(repeating: "5", count: 256) + "…\""))
    }
}
