import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// `PipelineClock`: the CPU time of the pipeline's serial stages, which `make bench --jobs-sweep`
/// turns into the serial fraction (issue 32).
@Suite("Pipeline clock")
struct PipelineClockTests {
    static let spec = #"{"columns": [{"name": "phone", "format": "+1 ([000]) [000]-[0000]"}]}"#

    /// A CSV export of `rows` records, phones in several shapes.
    static func export(rows: Int) -> String {
        var text = "id,phone,note\n"
        for row in 0..<rows {
            let phone = [
                "(555) 201-\(1000 + row % 9000)", "555.201.\(1000 + row % 9000)", "+1 555 201 0001", "",
            ]
            text += "\(row),\(phone[row % 4]),\"left a message, row \(row)\"\n"
        }
        return text
    }

    @Test(
        "reading, writing in order and the workers are counted, and counting changes no byte",
        arguments: [1, 3])
    func counts(jobs: Int) throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("data.csv", Self.export(rows: 40_000))
        let clock = PipelineClock()
        let timed = try runPipeline(
            spec: Self.spec, input: "data.csv", in: folder, output: "timed.csv", jobs: jobs,
            chunkSize: 64 << 10,
            pipelineClock: clock)
        let plain = try runPipeline(
            spec: Self.spec, input: "data.csv", in: folder, output: "plain.csv", jobs: jobs,
            chunkSize: 64 << 10)
        #expect(timed.report?.rows == 40_000 && plain.report?.rows == 40_000)
        #expect(try folder.text("timed.csv") == folder.text("plain.csv"))
        // Some 30 chunks were read, masked and written: each stage took some CPU time, and the
        // workers, who do all three, the most.
        #expect(clock.reading > 0)
        #expect(clock.writing > 0)
        #expect(clock.workers > clock.reading + clock.writing)
        // The masking is most of the work.
        #expect(clock.reading + clock.writing < clock.workers / 2)
    }

    @Test("a run not asked to count counts nothing")
    func notAsked() throws {
        let clock = PipelineClock()
        let folder = try TemporaryFolder()
        _ = try folder.write("data.csv", Self.export(rows: 100))
        _ = try runPipeline(spec: Self.spec, input: "data.csv", in: folder, output: "out.csv")
        #expect(clock.reading == 0 && clock.writing == 0 && clock.workers == 0)
    }
}
