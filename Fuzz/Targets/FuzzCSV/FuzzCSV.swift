import Foundation
import FuzzSupport

@testable import MaskClean

/// Runs arbitrary bytes through `maskclean run` as a CSV file, with a spec masking two columns,
/// in each error mode and with tiny chunks, so that records span chunk boundaries. Whatever the
/// bytes, the run must end with a report or a data error, and the report must balance.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzRun.shared.run(UnsafeBufferPointer(start: data, count: size), format: .csv)
    return 0
}
