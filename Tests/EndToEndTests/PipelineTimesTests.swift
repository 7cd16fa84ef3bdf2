import Foundation
import TestSupport
import Testing

/// `--pipeline-times` (hidden): the one stderr line `make bench-sweep` reads the serial fraction
/// from (bench/run.py `note_serial`). Its shape is what the bench parses.
@Suite("--pipeline-times")
struct PipelineTimesTests {
    @Test("run and check print one line of the serial stages' CPU time, even with --quiet")
    func oneLine() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write("spec.json", Generated.phoneSpec)
        try Generated.customers(rows: 5_000, lossyEvery: 1000).write(
            to: scratch.url.appendingPathComponent("data.csv"))
        for command in [
            ["run", "spec.json", "data.csv", "-o", "out.csv"], ["check", "spec.json", "data.csv"],
        ] {
            let outcome = try Maskclean.run(
                command + ["--quiet", "--jobs", "2", "--pipeline-times"], in: scratch.url)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let lines = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("pipeline: ") }
            #expect(lines.count == 1, "\(outcome.stderr)")
            let line = String(lines.first ?? "")
            // pipeline: cpu C s, serial S s: reading R s, writing in order W s, outside the workers O s
            let numbers = line.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: [","])) }
            #expect(numbers.count == 5, "\(line)")
            if numbers.count == 5 {
                let (cpu, serial, reading, writing, outside) = (
                    numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]
                )
                #expect(cpu > 0 && serial <= cpu)
                #expect(abs(serial - (reading + writing + outside)) < 0.0003, "\(line)")
            }
            #expect(
                line.contains("serial ") && line.contains("reading ") && line.contains("writing in order "))
        }
        // Not asked for, not printed.
        let plain = try Maskclean.run(["check", "spec.json", "data.csv", "--quiet"], in: scratch.url)
        #expect(!plain.stderr.contains("pipeline: "))
    }
}
