import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Several inputs in one `run` or `check` (docs/command-line.md#many-inputs): a nightly drop of
/// forty files is one command, not forty runs and a merge. Each input is read as its own input,
/// with its own format, compression, delimiter and header, into an output of its own named after
/// it; each gets a report of its own, a partition named by the input, and the total is what
/// `maskclean merge` of those reports gives.
public struct ManyInputs: Sendable {
    /// The inputs, in the order they are reported: directories already expanded (`expand`).
    public var inputs: [String]
    /// `run -o DIR/`: each input's records go to DIR, to a file named after it; nil for `check`.
    public var outputDirectory: String?
    /// `--report DIR/`: each input's JSON report goes to DIR, named after it, and the total to
    /// `total.json` there; nil when `--report` names the total's file (or there is none).
    public var reportDirectory: String?
    /// What the total's report calls the inputs: the one directory given, or nil for `N inputs`.
    public var name: String?

    public init(
        inputs: [String], outputDirectory: String? = nil, reportDirectory: String? = nil, name: String? = nil
    ) {
        self.inputs = inputs
        self.outputDirectory = outputDirectory
        self.reportDirectory = reportDirectory
        self.name = name
    }

    /// The total's `input`.
    var totalName: String { name ?? (inputs.count == 1 ? inputs[0] : "\(inputs.count) inputs") }

    /// Whether a path names a directory: it ends with `/`, or is one.
    public static func namesDirectory(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The files `arguments` name, in order: a directory stands for the files in it whose name
    /// has a record format's extension (compressed or not), sorted by name; a file stands for
    /// itself. A directory with no such file is a usage error. The files of `leavingOut` (the
    /// spec, kept beside the exports) are not inputs of a directory.
    public static func expand(_ arguments: [String], leavingOut: [String] = []) throws(MaskCleanError)
        -> [String]
    {
        let left = leavingOut.filter { $0 != "-" }.map { FilePlace(reading: $0) }
        var inputs: [String] = []
        for argument in arguments {
            // A name ending in / that is no directory is read as a file, and fails as a missing input.
            guard argument != "-", isDirectory(argument) else {
                inputs.append(argument)
                continue
            }
            guard let directory = opendir(argument) else {
                throw .noInput(argument, "cannot list it: \(String(cString: strerror(errno)))")
            }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard !name.hasPrefix("."), RecordFormat.fromExtension(of: name) != nil else { continue }
                let path = (argument.hasSuffix("/") ? argument : argument + "/") + name
                guard !namesDirectory(path), !left.contains(FilePlace(reading: path)) else { continue }
                names.append(path)
            }
            closedir(directory)
            guard !names.isEmpty else {
                throw .usage(
                    "\(argument) holds no file with a record format's extension (.csv, .tsv, .tab, .json, .ndjson, .jsonl, compressed or not)"
                )
            }
            // By name, byte for byte: the same order on every machine.
            inputs += names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        return inputs
    }

    /// The file name an input's records or report take in a directory: the input's own name,
    /// without a compression's extension; for records in another format, with that format's
    /// extension; then the output's compression's.
    static func outputName(
        of input: String, format: RecordFormat?, compression: Compression?
    ) -> String {
        var name = Compression.strippingSuffix(
            of: String(input.split(separator: "/").last ?? Substring(input)))
        if let format, RecordFormat.fromExtension(of: name) != format, let dot = name.lastIndex(of: ".") {
            name = String(name[..<dot]) + "." + format.rawValue
        }
        return name + (compression.map { $0.suffix } ?? "")
    }

    /// Creates `directory` (and the directories above it) when it is missing.
    static func create(_ directory: String, role: OutputRole) throws(MaskCleanError) {
        var path = directory.hasPrefix("/") ? "/" : ""
        for part in directory.split(separator: "/") {
            path += (path.isEmpty || path.hasSuffix("/") ? "" : "/") + part
            if part == "." || part == ".." { continue }
            if mkdir(path, 0o777) != 0 && errno != EEXIST {
                throw .cannotCreate(
                    directory, "cannot create the directory for \(role): \(String(cString: strerror(errno)))")
            }
        }
        guard isDirectory(directory) else {
            throw .cannotCreate(directory, "is not a directory, so it cannot hold \(role)")
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    static func joined(_ directory: String, _ name: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + name
    }
}

/// What a run over several inputs made: the total, and each input's report (nil for one that
/// stopped before its spec was checked against it).
public struct ManyInputsOutcome: Sendable {
    public var total: Report
    public var files: [(input: String, report: Report)]
}

/// How each file of a run over several went, in their order, filled in by the threads that run
/// them.
private final class FileOutcomes: @unchecked Sendable {
    enum Outcome {
        /// Its report, and that report as `merge` reads it back.
        case finished(Report, Report)
        /// What stopped it, and the report it wrote saying so, if it got that far.
        case failed(MaskCleanError, Report?)
    }

    private let lock = Lock()
    private var outcomes: [Outcome?]
    private var taken = 0

    init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    /// The next file to run, if any is left.
    func next() -> Int? {
        lock.withLock {
            guard taken < outcomes.count else { return nil }
            defer { taken += 1 }
            return taken
        }
    }

    func set(_ index: Int, _ outcome: Outcome) { lock.withLock { outcomes[index] = outcome } }

    var all: [Outcome?] { lock.withLock { outcomes } }
}

/// Values handed to the threads of `concurrentPerform`, which only read them.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Runner {
    /// Runs every input of `many` as `run(_:_:stopped:)` runs one, with `options` but for the
    /// input, the records' output and the reports, each input a partition named by its path. An
    /// input that fails (malformed, unreadable) fails the run as it
    /// would alone, naming the file, once every other input has run and its outputs and report
    /// are written; the total's report then says what stopped it.
    public static func run(
        _ spec: Spec, _ options: RunOptions, each many: ManyInputs, stopped: (Report) -> Void = { _ in }
    ) throws(MaskCleanError) -> ManyInputsOutcome {
        let timer = ReportTimer()
        var totalPaths = options.reportPaths
        if let directory = many.reportDirectory {
            totalPaths[.json] = ManyInputs.joined(directory, "total.json")
        }
        if let directory = many.outputDirectory { try ManyInputs.create(directory, role: .records) }
        if let directory = many.reportDirectory { try ManyInputs.create(directory, role: .report(.json)) }
        let plans = try plan(spec, options, many)
        // Files run side by side, `options.jobs` shared among them: a small file has too few
        // chunks to keep every worker busy to its end, and forty such ends cost more than the
        // work. Each file's outcome lands in its own slot: the reports keep the inputs' order.
        let side = max(1, min(plans.count, options.jobs))
        let shares = (0..<side).map { options.jobs / side + ($0 < options.jobs % side ? 1 : 0) }
        let outcomes = FileOutcomes(count: plans.count)
        let box = UncheckedBox((spec, plans))
        DispatchQueue.concurrentPerform(iterations: side) { worker in
            let (spec, plans) = box.value
            while let index = outcomes.next() {
                var plan = plans[index]
                plan.jobs = shares[worker]
                var stoppedReport: Report?
                do throws(MaskCleanError) {
                    let report = try run(spec, plan) { stoppedReport = $0 }
                    // As `merge` reads it: the total is exactly the merge of the reports written.
                    let read = try ReportReader.parse(Array(report.json.utf8), file: plan.input, spec: spec)
                    outcomes.set(index, .finished(report, read))
                } catch {
                    outcomes.set(index, .failed(error, stoppedReport))
                }
            }
        }
        var files: [(input: String, report: Report)] = []
        var partials: [Report.Partial] = []
        var failure: MaskCleanError?
        for (plan, outcome) in zip(plans, outcomes.all) {
            switch outcome {
            case .finished(let report, let read)?:
                files.append((plan.input, report))
                partials.append(Report.Partial(file: plan.input, report: read))
            case .failed(let error, let report)?:
                // Usage errors and outputs that cannot be created are the whole run's.
                guard error.status == .dataError || error.status == .noInput else { throw error }
                if let report { files.append((plan.input, report)) }
                if failure == nil { failure = error }
            case nil:
                preconditionFailure("every file runs")
            }
        }
        var merge = MergeOptions(reports: [])
        merge.reportPaths = totalPaths
        merge.redactSamples = options.redactSamples
        merge.baseline = options.baseline
        merge.input = many.totalName
        if let failure {
            var report = Report(spec: spec).stopped(by: RunError(failure, spec: spec.file))
            report.input = merge.input
            report.origin = timer.origin(inputBytes: nil, spec: spec.file)
            try? Outputs(merge.outputOptions).commit(report)
            stopped(report)
            throw failure
        }
        let total = try ReportMerger.merge(spec, merge, partials: partials, timer: timer, stopped: stopped)
        return ManyInputsOutcome(total: total, files: files)
    }

    /// Each input's options, checked together before any is read: outputs named after two
    /// inputs may not be the same file, nor one of the inputs or the spec.
    private static func plan(_ spec: Spec, _ options: RunOptions, _ many: ManyInputs) throws(MaskCleanError)
        -> [RunOptions]
    {
        var plans: [RunOptions] = []
        var named: [(role: OutputRole, path: String)] = []
        try FilePlace.refuseRepeats(among: many.inputs)
        for input in many.inputs {
            var plan = options
            plan.input = input
            plan.part = input
            plan.firstRow = nil
            plan.baseline = nil
            plan.progress = nil
            plan.reportPaths = [:]
            if let directory = many.outputDirectory {
                // Compressed only when asked (`--compress`): the directory has no extension to say.
                let compression: Compression? =
                    if case .with(let asked) = options.compression { asked } else { nil }
                plan.output = ManyInputs.joined(
                    directory,
                    ManyInputs.outputName(of: input, format: options.outputFormat, compression: compression))
                named.append((.records, plan.output!))
            } else {
                plan.output = nil
            }
            if let directory = many.reportDirectory {
                let name = ManyInputs.outputName(of: input, format: nil, compression: nil) + ".json"
                plan.reportPaths[.json] = ManyInputs.joined(directory, name)
                named.append((.report(.json), plan.reportPaths[.json]!))
            }
            plans.append(plan)
        }
        try OutputPaths.check(
            named, protecting: many.inputs.map { ($0, "input") } + [(spec.file, "spec")])
        return plans
    }
}
