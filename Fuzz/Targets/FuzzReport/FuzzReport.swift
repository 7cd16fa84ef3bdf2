@testable import MaskClean

/// The spec every fuzzed report is read against: two columns, one with affine formats, so that
/// the reader checks names, format counts and samples.
private let spec: Spec = {
    let text = #"""
        {"columns": [
          {"name": "phone", "format": "+1 ([000]) [000]-[0000]", "affineFormats": ["[000]-[0000]"],
           "minComplete": 0.9},
          {"name": "zip", "format": "[00000]"}
        ]}
        """#
    return try! SpecLoader.parse(Array(text.utf8), file: "spec.json")
}()

/// Reads arbitrary bytes as a partial report for `merge` (docs/report.md): it must either give a
/// report whose counts add up or a data (65) or spec (78) error naming the file, never crash;
/// and a report it reads must merge with itself into a report or an error, never a trap
/// (issue 24: counts near 2^63 overflowed).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let report: Report
    do {
        report = try ReportReader.parse(bytes, file: "fuzz.json", spec: spec)
    } catch {
        precondition(
            error.status == .dataError || error.status == .config,
            "a report error with status \(error.status)")
        precondition(error.message.hasPrefix("fuzz.json"), "a report error that does not name the file")
        return 0
    }
    for column in report.columns {
        precondition(column.rows == report.rows, "a column's counts do not add up to the report's rows")
    }
    let partials = [
        Report.Partial(file: "a.json", report: report), Report.Partial(file: "b.json", report: report),
    ]
    do {
        let merged = try Report.merging(partials, spec: spec)
        _ = merged.json
    } catch {
        precondition(
            error.status == .dataError || error.status == .config, "a merge error with status \(error.status)"
        )
    }
    return 0
}
