import Foundation

/// The options of `maskclean run` and `check` (DESIGN §4).
public struct RunOptions: Sendable {
    public var input: String
    /// Where records go: a path, `-` for stdout, or nil to write none (`check`).
    public var output: String?
    public var report: String?
    public var inputFormat: RecordFormat?
    public var outputFormat: RecordFormat?
    /// The CSV field delimiter; by default `,` (tab for TSV).
    public var delimiter: UInt8?
    public var jobs: Int
    public var policy: ErrorPolicy = .fail
    public var quarantine: String?
    public var escapeFormulas = false
    /// Called now and then with the input bytes read so far and the input's size, if known.
    public var progress: (@Sendable (Int, Int?) -> Void)?
    /// Bytes per chunk of work.
    public var chunkSize = 1 << 20
    /// A longer record is malformed input (a runaway quote, a 100 MB cell), not data.
    public var maximumRecordBytes = 32 << 20
    /// CSV records that lie whole on a line with simple quoting are split without libcsv. Off
    /// only in tests, which check that both ways give the same bytes.
    var splitsPlainLines = true

    public init(input: String, output: String?, report: String? = nil, jobs: Int) {
        self.input = input
        self.output = output
        self.report = report
        self.jobs = jobs
    }
}

/// One run: reads the input, masks it chunk by chunk, writes the records and the report. A
/// failed run leaves no output behind.
public enum Runner {
    public static func run(_ spec: Spec, _ options: RunOptions) throws(MaskCleanError) -> Report {
        let inputFormat: RecordFormat
        if let format = options.inputFormat {
            inputFormat = format
        } else {
            inputFormat = try format(of: options.input)
        }
        let outputFormat = options.outputFormat ?? inputFormat
        try checkPaths(options, spec: spec.file)
        let input = try InputFile(path: options.input)
        var run = try Run(
            spec: spec, options: options, input: input, inputFormat: inputFormat, outputFormat: outputFormat)
        return try run.execute()
    }

    /// The input format a path's extension says, or a usage error.
    static func format(of path: String) throws(MaskCleanError) -> RecordFormat {
        if let format = RecordFormat.fromExtension(of: path) { return format }
        let what = path == "-" ? "standard input" : "\(path) from its extension"
        throw .usage("cannot tell the format of \(what); use --input-format csv|tsv|json|ndjson")
    }

    /// Refuses outputs that would destroy the input or the spec, or each other: paths are
    /// compared by the file they name (a link, a hard link, `./out.csv` and `out.csv` alike).
    private static func checkPaths(_ options: RunOptions, spec: String) throws(MaskCleanError) {
        let named = [
            ("-o", options.output), ("--report", options.report), ("--quarantine", options.quarantine),
        ]
        .compactMap { flag, path in path.map { (flag, $0) } }
        var places: [(flag: String, path: String, place: FilePlace)] = []
        for (flag, path) in named {
            guard !path.isEmpty else { throw .usage("\(flag) needs a file name (or - for standard output)") }
            let place = FilePlace(path)
            for (protected, what) in [(options.input, "input"), (spec, "spec")] where protected != "-" {
                if path == protected || place.isRegularFile && place == FilePlace(protected) {
                    throw .usage("\(flag) \(path) is the \(what) file: writing it would destroy the \(what)")
                }
            }
            // Two outputs in one file or pipe would clobber or interleave each other; /dev/null
            // or a terminal takes any number (`--report /dev/null > /dev/null`), but `-` names
            // standard output for one.
            if let other = places.first(where: { $0.place == place }),
                path == "-" && other.path == "-" || !place.isCharacterDevice
            {
                if path == other.path { throw .usage("\(flag) and \(other.flag) both name \(path)") }
                throw .usage("\(flag) \(path) and \(other.flag) \(other.path) are the same file")
            }
            places.append((flag, path, place))
        }
    }
}

/// The file a path names, to tell two names for one file from two files.
struct FilePlace: Equatable {
    enum Identity: Equatable {
        case file(device: UInt64, inode: UInt64)
        /// A file that does not exist yet: its absolute path, links resolved.
        case path(String)
    }

    var identity: Identity
    var isRegularFile = false
    var isCharacterDevice = false

    /// `-` is standard output.
    init(_ path: String) {
        var info = stat()
        let found = path == "-" ? fstat(STDOUT_FILENO, &info) == 0 : stat(path, &info) == 0
        if found {
            identity = .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
            isCharacterDevice = (info.st_mode & S_IFMT) == S_IFCHR
            return
        }
        guard path != "-" else {
            identity = .path("-")
            return
        }
        let target = PathParts(OutputFile.resolvingLinks(path))
        let directory = target.directory
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let parent =
            realpath(directory.isEmpty ? "." : directory, &resolved) != nil
            ? String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : directory
        identity = .path(parent + "/" + target.name)
    }
}

/// The state of one run, from the opened input to the committed outputs.
private struct Run {
    let spec: Spec
    let options: RunOptions
    let input: InputFile
    let inputFormat: RecordFormat
    let outputFormat: RecordFormat
    var report: Report
    var output: OutputFile?
    var reportFile: OutputFile?
    var quarantine: OutputFile?
    /// For a JSON array output: no record written yet, so the next one drops its leading comma.
    var firstRecord = true
    /// JSON input: whether any record has each masked key, and the keys records were seen with.
    var maskedKeysSeen: [Bool]
    var keysSeen: [String] = []

    init(
        spec: Spec, options: RunOptions, input: InputFile, inputFormat: RecordFormat,
        outputFormat: RecordFormat
    )
        throws(MaskCleanError)
    {
        self.spec = spec
        self.options = options
        self.input = input
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.report = Report(spec: spec)
        self.maskedKeysSeen = Array(repeating: false, count: spec.columns.count)
    }

    var inputDelimiter: UInt8 {
        options.delimiter ?? (inputFormat == .tsv ? 0x09 : UInt8(ascii: ","))
    }

    var outputDelimiter: UInt8 {
        if outputFormat == inputFormat, let delimiter = options.delimiter { return delimiter }
        return outputFormat == .tsv ? 0x09 : UInt8(ascii: ",")
    }

    mutating func execute() throws(MaskCleanError) -> Report {
        do {
            try openOutputs()
            if inputFormat.isJSON {
                try runJSON()
            } else {
                try runCSV()
            }
            try reportFile?.write(Array(report.json.utf8))
            // Every output is complete on disk before any is renamed into place.
            try output?.flush()
            try quarantine?.flush()
            try reportFile?.flush()
            try TemporaryFiles.shared.committing { () throws(MaskCleanError) in
                try output?.commit()
                try quarantine?.commit()
                try reportFile?.commit()
            }
            return report
        } catch {
            output?.discard()
            quarantine?.discard()
            reportFile?.discard()
            throw error
        }
    }

    /// Creates every output before any work, so that one that cannot be created fails the run
    /// at once (exit 73).
    mutating func openOutputs() throws(MaskCleanError) {
        if let path = options.output { output = try OutputFile(path: path) }
        if let path = options.report { reportFile = try OutputFile(path: path) }
        if options.policy == .quarantine, let path = options.quarantine {
            quarantine = try OutputFile(path: path)
        }
    }

    // MARK: CSV

    mutating func runCSV() throws(MaskCleanError) {
        let header = try readCSVHeader()
        var fieldIndex: [String: [Int]] = [:]
        for (index, name) in header.names.enumerated() { fieldIndex[name, default: []].append(index) }
        var maskedFields: [Int] = []
        for column in spec.columns {
            guard let indices = fieldIndex[column.name] else {
                let known = header.names.map { "\"\($0)\"" }.joined(separator: ", ")
                throw .spec(
                    spec.file, column.place,
                    "no column \"\(column.name)\" in \(input.name) (its columns: \(known))"
                        + didYouMean(column.name, in: header.names))
            }
            guard indices.count == 1 else {
                throw .data(
                    input.name, line: 1,
                    "the header names column \"\(column.name)\" \(indices.count) times (fields \(indices.map { String($0 + 1) }.joined(separator: ", "))); the spec cannot tell which to mask"
                )
            }
            maskedFields.append(indices[0])
        }
        try checkAddedNames(against: header.names)
        if outputFormat.isJSON { try checkDistinctKeys(header.names) }

        let names = header.names + spec.addedColumns
        let encoder = makeEncoder(columnNames: names, terminator: header.terminator)
        if let output {
            var preamble: [UInt8] = []
            if outputFormat == .json { preamble += Array("[".utf8) }
            if !outputFormat.isJSON {
                if header.hadByteOrderMark { preamble += [0xEF, 0xBB, 0xBF] }
                encoder.record(names, to: &preamble)
            }
            try output.write(preamble)
        }
        let plan = CSVInputPlan(
            file: input.name, delimiter: inputDelimiter, headerCount: header.names.count,
            columnNames: header.names, maskedFields: maskedFields,
            policy: options.policy, maximumRecordBytes: options.maximumRecordBytes,
            splitsPlainLines: options.splitsPlainLines
                && encoder.writesFieldsAsRead(delimiter: inputDelimiter) && !spec.replaces)
        let columns = spec.columns
        let processors = {
            CSVChunkProcessor(plan: plan, encoder: encoder, columns: columns) as ChunkProcessor
        }
        let reader = ChunkReader(
            input: input, splitter: CSVSplitter(delimiter: inputDelimiter), chunkSize: options.chunkSize,
            maximumRecordBytes: options.maximumRecordBytes, leftover: header.leftover,
            firstLine: header.nextLine)
        try pump(reader, processors)
        if outputFormat == .json { try output?.write(Array("\n]\n".utf8)) }
    }

    struct CSVHeader {
        var names: [String]
        var terminator: [UInt8]
        var hadByteOrderMark: Bool
        /// Bytes read past the header, and the line they start on.
        var leftover: [UInt8]
        var nextLine: Int
    }

    /// Reads up to the end of the header record and parses it.
    func readCSVHeader() throws(MaskCleanError) -> CSVHeader {
        var bytes: [UInt8] = []
        var splitter = CSVSplitter(delimiter: inputDelimiter)
        var block = [UInt8](repeating: 0, count: 64 * 1024)
        var scanned = -1  // set past the byte-order mark, if any, once the first bytes are in
        var end: Int?
        // Up to the first record boundary (a line feed or a bare CR outside quotes), read block by
        // block: an old Mac export has no line feed at all.
        reading: while true {
            if scanned < 0 && bytes.count >= 3 {
                scanned = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            }
            if scanned >= 0 && scanned < bytes.count {
                let scan = bytes.withUnsafeBufferPointer {
                    splitter.scanToFirstBoundary(UnsafeBufferPointer(rebasing: $0[scanned...]))
                }
                if let boundary = scan.boundary {
                    end = scanned + boundary
                    break reading
                }
                scanned = bytes.count
            }
            if bytes.count > options.maximumRecordBytes {
                throw .data(
                    input.name, line: 1, "the header is longer than \(byteCount(options.maximumRecordBytes))")
            }
            let count = try block.withMutableBytes { buffer throws(MaskCleanError) in
                try input.read(into: buffer)
            }
            if count == 0 { break }
            bytes += block[..<count]
        }
        try refuseUTF16(bytes)
        let hadByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let skip = hadByteOrderMark ? 3 : 0
        let headerEnd = end ?? bytes.count
        guard headerEnd > skip else {
            throw .data(
                input.name, line: 1, "empty file: no header line (a CSV input starts with its column names)"
            )
        }
        var headerBytes = Array(bytes[skip..<headerEnd])
        let parser = CSVParser(delimiter: inputDelimiter)
        // libcsv also ends a record at a bare CR (an old Mac export): the header ends where its
        // record does, and the records after it on the line are data.
        var parsed = true
        var headerLength = 0
        while headerLength < headerBytes.count, parser.completedRecords.isEmpty, parsed {
            var pieceEnd = headerBytes.count
            if let cr = headerBytes[headerLength...].firstIndex(of: 0x0D), cr + 1 < headerBytes.count,
                headerBytes[cr + 1] != 0x0A
            {
                pieceEnd = cr + 1
            }
            parsed = headerBytes[headerLength..<pieceEnd].withUnsafeBytes { parser.feed($0) }
            headerLength = pieceEnd
        }
        if parsed && parser.completedRecords.isEmpty { parsed = parser.finish() }
        headerBytes.removeLast(headerBytes.count - headerLength)
        guard parsed, let fieldCount = parser.completedRecords.first else {
            throw .data(input.name, line: 1, parsed ? "no header line" : parser.errorDescription)
        }
        var names: [String] = []
        var start = 0
        for fieldEnd in parser.fieldEnds.prefix(fieldCount) {
            guard let name = String(validating: parser.arena[start..<fieldEnd], as: UTF8.self) else {
                throw .data(input.name, line: 1, "invalid UTF-8 in the header")
            }
            names.append(name)
            start = fieldEnd
        }
        let terminator: [UInt8] = headerBytes.suffix(2) == [0x0D, 0x0A] ? [0x0D, 0x0A] : [0x0A]
        return CSVHeader(
            names: names, terminator: terminator, hadByteOrderMark: hadByteOrderMark,
            leftover: Array(bytes[(skip + headerLength)...]), nextLine: 1 + headerBytes.count { $0 == 0x0A })
    }

    // MARK: JSON

    mutating func runJSON() throws(MaskCleanError) {
        let isArray = inputFormat == .json
        var leftover: [UInt8] = []
        var line = 1
        var csvColumns: [String]?
        if isArray {
            (leftover, line) = try readArrayOpening()
        } else {
            leftover = try readPastByteOrderMark()
        }
        if !outputFormat.isJSON {
            (csvColumns, leftover) = try firstRecordKeys(leftover, isArray: isArray)
        }
        try checkAddedNames(against: csvColumns ?? [])
        let names = (csvColumns ?? []) + spec.addedColumns
        let encoder = makeEncoder(
            columnNames: csvColumns == nil ? spec.addedColumns : names, terminator: [0x0A])
        if let output {
            var preamble: [UInt8] = []
            if outputFormat == .json { preamble += Array("[".utf8) }
            if let csvColumns {
                encoder.record(csvColumns + spec.addedColumns, to: &preamble)
            }
            try output.write(preamble)
        }
        let plan = JSONInputPlan(
            file: input.name, isArray: isArray, maskedKeys: spec.columns.map(\.name),
            addedKeys: spec.addedColumns,
            csvColumns: csvColumns, policy: options.policy)
        let columns = spec.columns
        let processors = {
            JSONChunkProcessor(plan: plan, encoder: encoder, columns: columns) as ChunkProcessor
        }
        if isArray {
            try pump(
                ChunkReader(
                    input: input, splitter: JSONArraySplitter(), chunkSize: options.chunkSize,
                    maximumRecordBytes: options.maximumRecordBytes, leftover: leftover, firstLine: line),
                processors)
        } else {
            try pump(
                ChunkReader(
                    input: input, splitter: LineSplitter(), chunkSize: options.chunkSize,
                    maximumRecordBytes: options.maximumRecordBytes, leftover: leftover, firstLine: line),
                processors)
        }
        try checkMaskedKeysSeen()
        if outputFormat == .json { try output?.write(Array("\n]\n".utf8)) }
    }

    /// A masked key that no record has is a misspelled spec, not a column of empty cells. Only
    /// known once every record is read: the outputs are still temporary then.
    func checkMaskedKeysSeen() throws(MaskCleanError) {
        guard report.rows > report.rejectedCount else { return }
        for (column, seen) in zip(spec.columns, maskedKeysSeen) where !seen {
            let known = keysSeen.map { "\"\($0)\"" }.joined(separator: ", ")
            throw .spec(
                spec.file, column.place,
                "no record of \(input.name) has the key \"\(column.name)\" (keys seen: \(known))"
                    + didYouMean(column.name, in: keysSeen))
        }
    }

    /// The first bytes of an NDJSON input, without a UTF-8 byte-order mark.
    func readPastByteOrderMark() throws(MaskCleanError) -> [UInt8] {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < 3 {
            let count = try block.withMutableBytes { buffer throws(MaskCleanError) in
                try input.read(into: buffer)
            }
            if count == 0 { break }
            bytes += block[..<count]
        }
        try refuseUTF16(bytes)
        return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// A UTF-16 file (a byte-order mark, or ASCII text with every other byte zero) read as
    /// UTF-8 would fail as a syntax error or a NUL byte: say what it is instead.
    func refuseUTF16(_ bytes: [UInt8]) throws(MaskCleanError) {
        let marked = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let unmarked =
            bytes.count >= 4
            && (bytes[0] != 0 && bytes[1] == 0 && bytes[2] != 0 && bytes[3] == 0
                || bytes[0] == 0 && bytes[1] != 0 && bytes[2] == 0 && bytes[3] != 0)
        guard marked || unmarked else { return }
        throw .data(
            input.name, line: nil, "UTF-16 is not supported; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)")
    }

    /// Reads past the `[` that opens a JSON array of records; returns the bytes after it and
    /// the line they start on.
    func readArrayOpening() throws(MaskCleanError) -> ([UInt8], Int) {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try block.withMutableBytes { buffer throws(MaskCleanError) in
                try input.read(into: buffer)
            }
            bytes += block[..<count]
            if bytes.count >= 4 || count == 0 { try refuseUTF16(bytes) }
            var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var line = 1
            while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) {
                if bytes[start] == 0x0A { line += 1 }
                start += 1
            }
            if start < bytes.count {
                guard bytes[start] == UInt8(ascii: "[") else {
                    throw .data(
                        input.name, line: line,
                        "expected a JSON array of records ('['); for one object a line, use --input-format ndjson"
                    )
                }
                return (Array(bytes[(start + 1)...]), line)
            }
            if count == 0 {
                throw .data(input.name, line: 1, "empty file: expected a JSON array of records")
            }
        }
    }

    /// For CSV output from JSON: the first record's keys are the columns. Reads ahead until the
    /// first record is whole; returns the keys and every byte read.
    func firstRecordKeys(_ start: [UInt8], isArray: Bool) throws(MaskCleanError) -> ([String], [UInt8]) {
        var bytes = start
        var block = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var keys: [String] = []
            let scanned: Bool? = bytes.withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer)
                let reader = JSONScanner(buffer)
                guard scanner.peek() != nil else { return nil }
                do {
                    _ = try scanner.scanObject { (key: JSONToken, _: JSONToken) throws(JSONSyntaxError) in
                        keys.append(reader.decodeString(key) ?? "")
                    }
                    return true
                } catch {
                    return scanner.isAtEnd ? nil : false
                }
            }
            // A key the first record repeats is one column (the record itself is rejected).
            if scanned == true {
                var distinct = Set<String>()
                return (keys.filter { distinct.insert($0).inserted }, bytes)
            }
            let count = try block.withMutableBytes { buffer throws(MaskCleanError) in
                try input.read(into: buffer)
            }
            if count == 0 || scanned == false || bytes.count > options.maximumRecordBytes {
                // No whole first record: the chunks will report what is wrong with it.
                return (keys, bytes + block[..<count])
            }
            bytes += block[..<count]
        }
    }

    // MARK: Shared

    /// An added column may not repeat an input column (DESIGN §3).
    func checkAddedNames(against inputNames: [String]) throws(MaskCleanError) {
        let names = Set(inputNames)
        for column in spec.columns {
            for added in column.addedColumns where names.contains(added) {
                throw .spec(
                    spec.file, column.place, "added column \"\(added)\" repeats a column of \(input.name)")
            }
        }
    }

    /// CSV to JSON: a header name written twice (two empty names too) would give every record
    /// a duplicate key, of which a consumer keeps one value.
    func checkDistinctKeys(_ names: [String]) throws(MaskCleanError) {
        var first: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            if let earlier = first[name] {
                throw .data(
                    input.name, line: 1,
                    "the header names column \"\(name)\" twice (fields \(earlier + 1) and \(index + 1)): JSON output would give each record two \"\(name)\" keys; rename one"
                )
            }
            first[name] = index
        }
    }

    func makeEncoder(columnNames: [String], terminator: [UInt8]) -> RecordEncoder {
        let layout: RecordEncoder.Layout =
            switch outputFormat {
            case .csv, .tsv: .csv(delimiter: outputDelimiter, terminator: terminator)
            case .json: .json(array: true)
            case .ndjson: .json(array: false)
            }
        return RecordEncoder(layout: layout, escapeFormulas: options.escapeFormulas, columnNames: columnNames)
    }

    /// The most records to a chunk when the spec's formats write much per record: each chunk's
    /// output then stays near 4 MiB, whatever the records' length. Nil for ordinary specs, whose
    /// chunks are cut by input size alone.
    var recordBudget: Int? {
        let perRecord = spec.columns.reduce(0) { total, column in
            let texts = [column.formattedColumn, column.extractedColumn, column.templateColumn].count {
                $0 != nil
            }
            return total + column.mask.formatCharacterBytes * (texts + (column.replace != nil ? 1 : 0))
        }
        guard perRecord > 256 else { return nil }
        return max(1, (4 << 20) / perRecord)
    }

    /// Moves every chunk through the processors and merges the results in input order.
    mutating func pump<Splitter: RecordSplitter>(
        _ reader: ChunkReader<Splitter>, _ makeProcessor: @escaping () -> ChunkProcessor
    )
        throws(MaskCleanError)
    {
        reader.recordBudget = recordBudget
        // Whatever a caller asks for, no more workers than this: each is a thread's worth of
        // buffers, and the cores are far fewer.
        let pipeline = ChunkPipeline(
            workers: min(max(1, options.jobs), 256), makeProcessor: makeProcessor, inputs: reader.pool,
            chunkSize: options.chunkSize)
        var oversizedLine: Int?
        var this = self
        defer { self = this }
        repeat {
            oversizedLine = nil
            try pipeline.run(
                nextChunk: { () throws(MaskCleanError) -> Chunk? in
                    guard oversizedLine == nil, let event = try reader.next() else { return nil }
                    switch event {
                    case .chunk(let chunk): return chunk
                    case .oversizedRecord(let line):
                        oversizedLine = line
                        return nil
                    case .brokenStructure(let line):
                        throw .data(
                            input.name, line: line,
                            "the array's structure is broken here (a bracket that closes the wrong one, or a string whose closing quote is missing), so where the records after it start cannot be told"
                        )
                    }
                },
                consume: { (result: ChunkResult) throws(MaskCleanError) in
                    try this.consume(result, bytesRead: reader.bytesRead)
                })
            if let line = oversizedLine {
                // The chunks before it are written; now pass the long record without holding it.
                // Only a record inside an open quoted field may be a runaway quote; a plain
                // 100 MB cell is just too long.
                let reason =
                    "record longer than \(byteCount(reader.maximumRecordBytes))"
                    + (reader.isInsideQuotedField ? " (a quoted field that never closes?)" : "")
                guard options.policy != .fail else { throw .data(input.name, line: line, reason) }
                let quarantine = this.quarantine
                try reader.skipOversizedRecord { (bytes: UnsafeBufferPointer<UInt8>) throws(MaskCleanError) in
                    try quarantine?.write(UnsafeRawBufferPointer(bytes))
                }
                this.report.rows += 1
                this.report.reject(line: line, reason: reason)
            }
        } while oversizedLine != nil
    }

    mutating func consume(_ result: ChunkResult, bytesRead: Int) throws(MaskCleanError) {
        let rowOffset = report.rows
        report.rows += result.rows
        for index in report.columns.indices {
            report.columns[index].stats.merge(result.stats[index], rowOffset: rowOffset)
        }
        for rejection in result.rejections {
            report.reject(line: rejection.line, reason: rejection.reason)
        }
        report.blankLines += result.blankLines
        for line in result.blankLineNumbers where report.blankLineNumbers.count < Report.blankLinesKept {
            report.blankLineNumbers.append(line)
        }
        for (index, seen) in result.maskedKeysSeen.enumerated() where seen { maskedKeysSeen[index] = true }
        for key in result.keysSeen where keysSeen.count < 200 && !keysSeen.contains(key) {
            keysSeen.append(key)
        }
        if let output, !result.output.isEmpty {
            var bytes = result.output.bytes
            if outputFormat == .json && firstRecord {
                // Every record starts with `,\n`: the first one of the array without the comma.
                bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst())
                firstRecord = false
            }
            try output.write(UnsafeRawBufferPointer(bytes))
        }
        if let quarantine, !result.quarantine.isEmpty {
            try quarantine.write(result.quarantine)
        }
        options.progress?(bytesRead, input.size)
        if let fatal = result.fatal { throw fatal }
    }
}
