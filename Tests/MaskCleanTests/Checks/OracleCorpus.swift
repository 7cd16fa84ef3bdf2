import Foundation
import Testing

@testable import MaskClean

/// The column checks' suites (Sources/MaskClean/Checks/), together: `swift test --filter Checks`.
@Suite("Column checks")
enum Checks {}

/// A corpus of values with an independent implementation's verdicts, written by a script of
/// Tests/Oracles (checks_oracle.py, phone_oracle.py) with the virtual environment `make test-deps`
/// makes (python-stdnum and phonenumbers in .build/oracle-venv): each line's tab-separated
/// fields, as bytes.
///
/// A missing environment fails the test, never skips it: a check that does not run proves
/// nothing.
struct OracleCorpus {
    static let python = repositoryRoot.appendingPathComponent(".build/oracle-venv/bin/python").path

    /// The lines, each split at its tabs.
    var lines: [[ArraySlice<UInt8>]]

    /// Runs the script for one corpus (`dates`, `luhn`, `gtin`, `isbn`, `iban`).
    init(_ name: String) throws {
        try self.init(script: "checks_oracle.py", arguments: [name])
    }

    /// Runs an oracle script of Tests/Oracles with `arguments`.
    init(script name: String, arguments: [String]) throws {
        let script = repositoryRoot.appendingPathComponent("Tests/Oracles/\(name)").path
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.python),
            "the oracles' Python is missing: `make test-deps` (or `make test`) installs python-stdnum into .build/oracle-venv"
        )
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(name) \(arguments) failed (its error is above)")
        let bytes = [UInt8](data)
        lines = bytes.split(separator: UInt8(ascii: "\n")).map {
            $0.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        }
    }
}

extension OracleCorpus {
    /// Runs each line's value (its first field) through `isValid` against the oracle's verdict
    /// (the second, `valid` or not) and, for a valid one, through `normalize` against the
    /// oracle's normal form (the third): the valid lines, and where the two disagree.
    func agreement(
        isValid: (UnsafeBufferPointer<UInt8>) -> Bool,
        normalize: (UnsafeBufferPointer<UInt8>, ByteBuffer) -> Void
    ) -> (valid: Int, disagreements: Disagreements) {
        var disagreements = Disagreements()
        var valid = 0
        for line in lines {
            let expected = line[1].elementsEqual("valid".utf8)
            if expected { valid += 1 }
            let value = Array(line[0])
            let actual = value.withUnsafeBufferPointer(isValid)
            if actual != expected {
                disagreements.record("\(line[0].text): ours \(actual), the oracle \(expected)")
            } else if actual {
                let out = ByteBuffer()
                value.withUnsafeBufferPointer { normalize($0, out) }
                if !out.bytes.elementsEqual(line[2]) {
                    disagreements.record(
                        "\(line[0].text): ours \(String(decoding: out.bytes, as: UTF8.self)), the oracle \(line[2].text)"
                    )
                }
            }
        }
        return (valid, disagreements)
    }
}

/// Counts the lines where our verdict differs from the oracle's and keeps the first few.
struct Disagreements {
    private(set) var count = 0
    private(set) var first: [String] = []

    mutating func record(_ description: @autoclosure () -> String) {
        count += 1
        if first.count < 10 { first.append(description()) }
    }

    /// Fails the test when there is any, with the first few.
    func expectNone(_ corpus: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            count == 0,
            "\(count) disagreements with the \(corpus) oracle, first:\n\(first.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }
}

extension ArraySlice<UInt8> {
    var text: String { String(decoding: self, as: UTF8.self) }
}
