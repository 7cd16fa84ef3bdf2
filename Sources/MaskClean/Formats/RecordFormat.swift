/// The shape of the records a run reads or writes.
public enum RecordFormat: String, Sendable, CaseIterable {
    case csv, tsv, json, ndjson

    /// The format a file name's extension says, if any; a compression's extension comes after
    /// it (`x.csv.gz`, `x.ndjson.zst`).
    public static func fromExtension(of path: String) -> RecordFormat? {
        let path = Compression.strippingSuffix(of: path)
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "json": return .json
        case "ndjson", "jsonl": return .ndjson
        default: return nil
        }
    }

    var isJSON: Bool { self == .json || self == .ndjson }

    /// The field delimiter of a CSV-like format: a tab for TSV, else a comma.
    var defaultDelimiter: UInt8 { self == .tsv ? 0x09 : UInt8(ascii: ",") }
}
