import MaskClean
import MaskEngine

/// Reads arbitrary bytes as a phone cell (the first byte picks the default region and the form):
/// a status and values, never a crash; a valid number always has an E.164 form and a region.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhone(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let regions: [String?] = [nil, "GB", "US", "AR", "BR", "RU", "JP", "AU", "DE", "FR", "IN", "001"]
    let choice = Int(data[0])
    let reader = readers[choice % regions.count][choice / regions.count % PhoneFormat.allCases.count]
    let value = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let reading = reader.read(
        value, region: size > 8 && data[1] == 0x40 ? UnsafeBufferPointer(start: data + 2, count: 2) : nil)
    switch reading.status {
    case .complete, .lossy:
        precondition(
            reading.e164.first == UInt8(ascii: "+") && reading.e164.count <= 21, "a valid number's E.164")
        precondition(!reading.region.isEmpty, "a valid number without a region")
        precondition(!reading.formatted.isEmpty, "a valid number unformatted")
    case .empty:
        precondition(reading.formatted.isEmpty && reading.e164.isEmpty, "an empty cell with values")
    case .incomplete, .invalid:
        break
    }
    return 0
}

/// One reader per region and form, made once: a reader keeps its buffers and automata.
nonisolated(unsafe) let readers: [[PhoneReader]] = [
    nil, "GB", "US", "AR", "BR", "RU", "JP", "AU", "DE", "FR", "IN", "001",
].map {
    region in
    PhoneFormat.allCases.map { PhoneReader(rules: try! PhoneRules(defaultRegion: region, format: $0)) }
}
