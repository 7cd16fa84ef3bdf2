import MaskEngine

// Helpers shared by the engine's unit and property tests.

/// `s`: an optional currency symbol, as in input-mask's README (`[s][9999]`).
let currencySymbol = Notation(character: "s", characterSet: "$€", isOptional: true)

/// `.`: an optional decimal point, as in input-mask's README (`[999999999][.][99]`).
let optionalPoint = Notation(character: ".", characterSet: ".", isOptional: true)

/// `h`: a mandatory hexadecimal digit.
let hexDigit = Notation(character: "h", characterSet: "0123456789abcdefABCDEF", isOptional: false)

/// `D`: a mandatory date separator.
let dateSeparator = Notation(character: "D", characterSet: "-/", isOptional: false)

/// Everything a cell's outcome shows, whichever API produced it, so that the String API and the
/// byte API can be compared in one expectation.
struct CellSnapshot: Equatable, CustomStringConvertible {
    var chosen: Int
    var formattedBytes: [UInt8]
    var extractedBytes: [UInt8]
    var complete: Bool
    var affinity: Int
    var status: CellStatus

    var formatted: String { String(decoding: formattedBytes, as: UTF8.self) }
    var extracted: String { String(decoding: extractedBytes, as: UTF8.self) }

    var description: String {
        "chosen \(chosen), formatted \(formatted.debugDescription), extracted "
            + "\(extracted.debugDescription), complete \(complete), affinity \(affinity), \(status)"
    }
}

/// Applies `mask` through the String API.
func snapshotOfStringAPI(_ mask: AffineMask, _ value: String) -> CellSnapshot {
    let outcome = mask.apply(value)
    return CellSnapshot(
        chosen: outcome.chosen, formattedBytes: Array(outcome.result.formatted.utf8),
        extractedBytes: Array(outcome.result.extracted.utf8), complete: outcome.result.complete,
        affinity: outcome.result.affinity, status: outcome.result.status)
}

/// Applies `mask` through the byte API, into `buffer`, and copies the bytes out.
func snapshotOfByteAPI(_ mask: AffineMask, _ value: String, buffer: ApplyBuffer) -> CellSnapshot {
    var value = value
    return value.withUTF8 { bytes in
        let outcome = mask.apply(utf8: bytes, into: buffer)
        return CellSnapshot(
            chosen: outcome.chosen, formattedBytes: Array(buffer.formatted),
            extractedBytes: Array(buffer.extracted), complete: outcome.counts.complete,
            affinity: outcome.counts.affinity, status: outcome.status)
    }
}

/// The Unicode scalar values of a string, in hexadecimal: a readable way to compare text whose
/// characters merge.
func scalarCodes(_ text: String) -> [String] {
    text.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }
}
