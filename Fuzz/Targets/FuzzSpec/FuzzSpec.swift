@testable import MaskClean

/// Loads arbitrary bytes as a spec file: it must either give a spec or a spec error, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let spec = try SpecLoader.parse(bytes, file: "fuzz.json")
        precondition(!spec.columns.isEmpty, "a spec without columns was accepted")
        _ = spec.addedColumns
    } catch {
        precondition(error.status == .config, "a spec error with status \(error.status)")
        precondition(error.message.hasPrefix("fuzz.json"), "a spec error that does not name the file")
    }
    return 0
}
