import Foundation
import MaskEngine
import Testing

@testable import MaskClean

/// Phone columns against libphonenumber (PyPI's `phonenumbers`, pinned in the Makefile to the
/// numbering plan's version) on Tests/Oracles/phone_oracle.py's corpus: over 200,000 values of
/// every region, written the ways people write them, with and without a default region. The
/// targets are issue 27's, over the values without a letter: the E.164 form agrees wherever both
/// call a number valid; valid or not agrees on 99.9%; the formatted value (international and
/// national) on 99.5% of the numbers both call valid; the region on 99.9% of those libphonenumber
/// parses. A value with a letter typed for a digit is never complete.
@Suite("Phone numbers against libphonenumber")
struct PhoneOracleTests {
    struct Tally: CustomStringConvertible {
        var total = 0
        var agreed = 0
        var samples: [String: (count: Int, first: [String])] = [:]

        mutating func record(_ agrees: Bool, kind: String, _ detail: @autoclosure () -> String) {
            total += 1
            if agrees {
                agreed += 1
                return
            }
            var entry = samples[kind, default: (0, [])]
            entry.count += 1
            if entry.first.count < 4 { entry.first.append(detail()) }
            samples[kind] = entry
        }

        var share: Double { total == 0 ? 1 : Double(agreed) / Double(total) }

        var description: String {
            let kinds = samples.sorted { $0.value.count > $1.value.count }.map { kind, entry in
                "  \(kind): \(entry.count)\n" + entry.first.map { "    \($0)" }.joined(separator: "\n")
            }
            return "\(agreed) of \(total) (\(String(format: "%.4f", share * 100))%)\n"
                + kinds.joined(separator: "\n")
        }
    }

    @Test("agrees with libphonenumber on the corpus")
    func corpus() throws {
        let lines = try OracleCorpus(script: "phone_oracle.py", arguments: []).lines
        #expect(lines.count >= 200_000)
        var readers: [String: (PhoneReader, PhoneReader)] = [:]
        var e164 = Tally()
        var validity = Tally()
        var international = Tally()
        var national = Tally()
        var region = Tally()
        var letters = Tally()
        for line in lines {
            let kind = String(decoding: line[0], as: UTF8.self)
            let value = Array(line[1])
            let defaultRegion = String(decoding: line[2], as: UTF8.self)
            let pair =
                try readers[defaultRegion]
                ?? {
                    let made = (
                        PhoneReader(
                            rules: try PhoneRules(defaultRegion: defaultRegion.isEmpty ? nil : defaultRegion)),
                        PhoneReader(
                            rules: try PhoneRules(
                                defaultRegion: defaultRegion.isEmpty ? nil : defaultRegion, format: .national)
                        )
                    )
                    readers[defaultRegion] = made
                    return made
                }()
            let (ours, ourE164, ourInternational, ourRegion) = value.withUnsafeBufferPointer { value in
                let reading = pair.0.read(value)
                return (
                    reading.status, String(decoding: reading.e164, as: UTF8.self),
                    String(decoding: reading.formatted, as: UTF8.self),
                    String(decoding: reading.region, as: UTF8.self)
                )
            }
            let ourNational = value.withUnsafeBufferPointer {
                String(decoding: pair.1.read($0).formatted, as: UTF8.self)
            }
            let text = String(decoding: value, as: UTF8.self)
            let parsed = line[3].elementsEqual("parsed".utf8)
            let valid = line[4].elementsEqual("valid".utf8)
            let context = "\(text) [\(defaultRegion.isEmpty ? "no region" : defaultRegion)]"
            if kind == "letter" {
                letters.record(ours != .complete, kind: "complete", "\(context): complete")
                continue
            }
            let weSayValid = ours == .complete || ours == .lossy
            validity.record(
                weSayValid == valid,
                kind:
                    "\(kind): ours \(weSayValid ? "valid" : "not"), theirs \(valid ? "valid" : parsed ? "invalid" : String(decoding: line[3], as: UTF8.self))",
                "\(context): ours \(ours) \(ourE164), theirs \(String(decoding: line[5], as: UTF8.self))")
            if parsed {
                let theirs = String(decoding: line[8], as: UTF8.self)
                region.record(
                    ourRegion == theirs, kind: kind, "\(context): ours \(ourRegion), theirs \(theirs)")
            }
            guard weSayValid && valid else { continue }
            let theirE164 = String(decoding: line[5], as: UTF8.self)
            e164.record(ourE164 == theirE164, kind: kind, "\(context): ours \(ourE164), theirs \(theirE164)")
            let theirInternational = String(decoding: line[6], as: UTF8.self)
            international.record(
                ourInternational == theirInternational, kind: kind,
                "\(context): ours \(ourInternational), theirs \(theirInternational)")
            let theirNational = String(decoding: line[7], as: UTF8.self)
            national.record(
                ourNational == theirNational, kind: kind,
                "\(context): ours \(ourNational), theirs \(theirNational)")
        }
        print("phonenumbers corpus: \(lines.count) values")
        print("E.164, where both call the number valid: \(e164)")
        print("valid or not: \(validity)")
        print("international format: \(international)")
        print("national format: \(national)")
        print("region: \(region)")
        print("letters never complete: \(letters)")
        #expect(e164.agreed == e164.total, "\(e164)")
        #expect(validity.share >= 0.999, "\(validity)")
        #expect(international.share >= 0.995, "\(international)")
        #expect(national.share >= 0.995, "\(national)")
        #expect(region.share >= 0.999, "\(region)")
        #expect(letters.agreed == letters.total, "\(letters)")
    }
}
