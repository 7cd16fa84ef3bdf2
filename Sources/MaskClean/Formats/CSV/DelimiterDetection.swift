/// `--delimiter auto` (the default for CSV; docs/record-formats.md#choosing-the-delimiter): which
/// of `,` `;` tab `|` splits the header and the first records of an input alike, as Python's
/// `csv.Sniffer` and DuckDB's sniffer tell it. Each candidate reads the first lines with the
/// reader's own quoting rules. The one candidate that splits the header is the delimiter; when
/// several do, the one that gives the most records as many fields wins, more fields breaking a
/// tie, and a tie of both is an error naming them.
struct DelimiterDetection: Equatable {
    /// The candidates, in the order a message names them.
    static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]
    /// The most of the input looked at: the header and up to `sampleRecords` records, in at most
    /// `sampleBytes` (a record cut off there is left out).
    static let sampleBytes = 256 << 10
    static let sampleRecords = 100

    /// The delimiter `input` (CSV or TSV) is read with: the one `given`, the one detected from
    /// its first lines when `detects` (by default for CSV), or the format's own. `columns`: the
    /// number of names given for an input without a header line.
    /// At most `records` records are looked at (`describe --head`).
    static func settle(
        _ input: InputFile, format: RecordFormat, given: UInt8?, detects: Bool?, columns: Int?,
        records: Int = sampleRecords
    ) throws(MaskCleanError) -> (byte: UInt8, detected: Bool) {
        if let given { return (given, false) }
        guard detects ?? (format == .csv) else { return (format.defaultDelimiter, false) }
        // The header's line and the records': a record over more lines only stops it sooner.
        let sample = try input.peek(sampleBytes, lines: min(records, sampleRecords) + 1)
        let detection = try detect(sample.bytes, isWhole: sample.isWhole, columns: columns, file: input.name)
        return (detection.delimiter, true)
    }

    /// What one candidate makes of the first lines.
    struct Reading: Equatable {
        var delimiter: UInt8
        /// The header's fields (or the number of names given for an input without one).
        var columns: Int
        /// Records after the header read, and how many of them had `columns` fields.
        var records: Int
        var matching: Int

        /// Above half of the records as wide as the header: a few bad records do not hide the
        /// delimiter; most of them mean it is another.
        var fits: Bool { columns > 1 && (records == 0 || matching * 2 > records) }
    }

    /// The delimiter chosen.
    var delimiter: UInt8
    /// Every candidate's reading, for messages.
    var readings: [Reading]

    /// Reads `sample`, the input's first bytes (`isWhole`: the whole input), past a byte-order
    /// mark. `columns` is the number of names given for an input without a header line.
    static func detect(_ sample: [UInt8], isWhole: Bool, columns given: Int?, file: String)
        throws(MaskCleanError) -> DelimiterDetection
    {
        var bytes = sample.dropFirst(InputText.byteOrderMarkLength(sample))
        // Only whole lines, unless the input ends in the sample.
        if !isWhole, let lastFeed = bytes.lastIndex(of: 0x0A) { bytes = bytes[..<(lastFeed + 1)] }
        let text = Array(bytes)
        // With a header, a candidate that alone splits it is the delimiter: records that do not
        // fit it are bad records, as with the delimiter given. No candidate in it: one column,
        // whose delimiter does not matter. The records are read only when several split it (or
        // there is no header), which costs a run of 50,000 records 1% more instructions.
        var readings: [Reading]
        if given == nil {
            readings = candidates.map {
                reading(text, isWhole: isWhole, delimiter: $0, columns: nil, records: 0)
            }
            let splitting = readings.filter { $0.columns > 1 }
            if splitting.count <= 1 {
                return DelimiterDetection(
                    delimiter: splitting.first?.delimiter ?? UInt8(ascii: ","), readings: readings)
            }
        }
        readings = candidates.map { reading(text, isWhole: isWhole, delimiter: $0, columns: given) }
        // Several split it, or there is no header: the records decide.
        let contenders = readings.filter { $0.columns > 1 }
        let fitting = contenders.filter { $0.fits && (given == nil || $0.records > 0) }.sorted {
            better($0, $1)
        }
        // Without a header, records that fit no candidate (or none at all) are read with a comma,
        // and are bad records if they do not fit it.
        if given != nil && fitting.isEmpty {
            return DelimiterDetection(delimiter: UInt8(ascii: ","), readings: readings)
        }
        guard let best = fitting.first else {
            throw .data(
                file, line: nil,
                "cannot tell the delimiter: \(describe(contenders, given: given)); give it with \(Setting.delimiter)"
            )
        }
        if fitting.count > 1, !better(best, fitting[1]) {
            throw .data(
                file, line: nil,
                "cannot tell the delimiter: \(describe(fitting.filter { !better(best, $0) }, given: given)); give it with \(Setting.delimiter)"
            )
        }
        return DelimiterDetection(delimiter: best.delimiter, readings: readings)
    }

    /// Whether `first` is a better reading than `second`: more of the records fit, then more
    /// columns.
    static func better(_ first: Reading, _ second: Reading) -> Bool {
        let firstShare = first.records == 0 ? 1.0 : Double(first.matching) / Double(first.records)
        let secondShare = second.records == 0 ? 1.0 : Double(second.matching) / Double(second.records)
        if firstShare != secondShare { return firstShare > secondShare }
        return first.columns > second.columns
    }

    /// The readings in a message: `',' gives the header 3 fields and 18 of 20 records as many`.
    static func describe(_ readings: [Reading], given: Int?) -> UsageMessage {
        var message = UsageMessage("")
        for (index, reading) in readings.enumerated() {
            let name = shown(reading.delimiter)
            let separator = index == 0 ? "" : ", "
            guard let given else {
                let records =
                    reading.records == 0
                    ? "no record after it" : "\(reading.matching) of \(reading.records) records as many"
                let fields = "\(reading.columns) field\(reading.columns == 1 ? "" : "s")"
                message =
                    message + UsageMessage("\(separator)\(name) gives the header \(fields) and \(records)")
                continue
            }
            message =
                message
                + "\(separator)\(name) gives \(reading.matching) of \(reading.records) records the \(given) fields of \(Setting.columnNames)"
        }
        return message
    }

    /// A delimiter as messages and reports write it: `','`, `tab`.
    static func shown(_ delimiter: UInt8) -> String {
        delimiter == 0x09 ? "tab" : "'\(String(UnicodeScalar(delimiter)))'"
    }

    /// How `delimiter` reads the lines: the header's fields (or `given`), and how many records
    /// after it, of the first `sampleRecords`, have as many.
    private static func reading(
        _ bytes: [UInt8], isWhole: Bool, delimiter: UInt8, columns given: Int?, records: Int = sampleRecords
    )
        -> Reading
    {
        let counter = FieldCounter()
        let parser = CSVParser(delimiter: delimiter, sink: counter)
        var start = 0
        let limit = records + (given == nil ? 1 : 0)
        bytes.withUnsafeBytes { all in
            while start < all.count, counter.counts.count < limit {
                let end = (all[start...].firstIndex(of: 0x0A) ?? (all.count - 1)) + 1
                let line = UnsafeRawBufferPointer(rebasing: all[start..<end])
                start = end
                if parser.isBetweenRecords && CSVRecordReader.isBlank(line) { continue }
                if !parser.feed(line) {
                    counter.fail()
                    parser.reset()
                }
            }
            // A record the sample cuts off is left out; the input's last is read to its end.
            if isWhole, counter.counts.count < limit, !parser.isBetweenRecords || counter.fields > 0 {
                if !parser.finish() { counter.fail() }
            }
        }
        var counts = counter.counts
        let columns = given ?? (counts.isEmpty ? 0 : counts.removeFirst())
        return Reading(
            delimiter: delimiter, columns: columns, records: counts.count,
            matching: counts.count { $0 == columns })
    }
}

/// Counts each record's fields; a record the parser refused counts as none.
private final class FieldCounter: CSVFieldSink {
    var counts: [Int] = []
    var fields = 0

    func field(_ bytes: UnsafeRawBufferPointer) { fields += 1 }

    func endRecord() {
        counts.append(fields)
        fields = 0
    }

    func fail() {
        counts.append(0)
        fields = 0
    }
}
