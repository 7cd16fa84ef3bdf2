@testable import MaskClean

/// Loads arbitrary bytes as a YAML spec file: it must either give a spec or a spec error, never
/// crash, whatever its anchors, aliases and nesting (issue 24: chained aliases once built a tree
/// so deep that freeing it overflowed the stack).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let spec = try SpecLoader.parse(bytes, file: "fuzz.yaml")
        precondition(!spec.columns.isEmpty, "a spec without columns was accepted")
        _ = spec.addedColumns
        _ = spec.fingerprint
    } catch {
        precondition(error.status == .config, "a spec error with status \(error.status)")
        precondition(error.message.hasPrefix("fuzz.yaml"), "a spec error that does not name the file")
    }
    return 0
}
