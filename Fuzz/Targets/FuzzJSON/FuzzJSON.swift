import Foundation
import FuzzSupport

@testable import MaskClean

/// Runs arbitrary bytes through `maskclean run` as NDJSON and as a JSON array, with a spec
/// masking two keys, in each error mode and with tiny chunks. Whatever the bytes, the run must
/// end with a report or a data error, and the report must balance.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzRun.shared.run(UnsafeBufferPointer(start: data, count: size), format: .ndjson)
    FuzzRun.shared.run(UnsafeBufferPointer(start: data, count: size), format: .json)
    return 0
}
