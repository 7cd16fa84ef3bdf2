/// Partial reports combined into the report one run over the whole input would have written
/// (docs/report.md#merging partial reports): every count summed, the ratios and verdicts worked
/// out again from the sums and the spec's thresholds, and the samples, rejected records and blank
/// lines the first ones in (partition, row) order. Merging is associative, so that a merge of
/// merged reports equals one merge of them all.
extension Report {
    /// A partial report and the file it was read from, for messages.
    public struct Partial: Sendable {
        public var file: String
        public var report: Report

        public init(file: String, report: Report) {
            self.file = file
            self.report = report
        }
    }

    /// `firstRow` is the row the reports' rows start at, when every report knows its rows: 1
    /// for a whole input, later for some of its partitions (one node of a tree of merges).
    public static func merging(_ partials: [Partial], spec: Spec, firstRow: Int = 1) throws(MaskCleanError)
        -> Report
    {
        try checkPartitions(partials, firstRow: firstRow)
        var merged = Report(spec: spec)
        for index in merged.columns.indices { merged.columns[index].keyFound = false }
        for partial in partials {
            let report = partial.report
            // Every sum is checked: counts read near the limit must not overflow (docs/report.md).
            func add(_ total: inout Int, _ count: Int, _ place: String) throws(MaskCleanError) {
                guard let sum = Count.sum(total, count) else {
                    throw .data(
                        partial.file, line: nil,
                        "\(place): the sum with the reports before it passes \(Count.maximum), the most a report counts"
                    )
                }
                total = sum
            }
            try add(&merged.rows, report.rows, "rows")
            try add(&merged.rejectedCount, report.rejectedCount, "rejected: count")
            try add(&merged.blankLines, report.blankLines, "blankLines: count")
            merged.partitions += report.partitions
            for index in merged.columns.indices {
                let part = report.columns[index]
                let place = part.spec.place
                try add(&merged.columns[index].rejected, part.rejected, "\(place): rejected")
                merged.columns[index].keyFound = merged.columns[index].keyFound || part.keyFound
                var stats = merged.columns[index].stats
                try add(&stats.complete, part.stats.complete, "\(place): complete")
                try add(&stats.lossy, part.stats.lossy, "\(place): lossy")
                try add(&stats.incomplete, part.stats.incomplete, "\(place): incomplete")
                try add(&stats.invalid, part.stats.invalid, "\(place): invalid")
                try add(&stats.empty, part.stats.empty, "\(place): empty")
                try add(&stats.droppedCharacters, part.stats.droppedCharacters, "\(place): droppedCharacters")
                for format in stats.formatCounts.indices {
                    try add(
                        &stats.formatCounts[format], part.stats.formatCounts[format],
                        "\(place): formats: \"\(part.spec.formats[format])\"")
                }
                for region in stats.countryCounts.indices where part.stats.countryCounts[region] > 0 {
                    try add(
                        &stats.countryCounts[region], part.stats.countryCounts[region],
                        "\(place): countries: \"\(CountryCode.code(at: region))\"")
                }
                merged.columns[index].stats = stats
            }
        }
        merged.partitions.sort {
            PartOrder.precedes(($0.part, $0.firstRow ?? 0), ($1.part, $1.firstRow ?? 0))
        }
        for index in merged.columns.indices {
            let kept = merged.columns[index].stats.samplesKept
            merged.columns[index].stats.lossySamples = first(
                kept, of: partials.map { $0.report.columns[index].stats.lossySamples },
                by: { ($0.part, $0.row) })
            merged.columns[index].stats.incompleteSamples = first(
                kept, of: partials.map { $0.report.columns[index].stats.incompleteSamples },
                by: { ($0.part, $0.row) })
            merged.columns[index].stats.invalidSamples = first(
                kept, of: partials.map { $0.report.columns[index].stats.invalidSamples },
                by: { ($0.part, $0.row) })
            // Each partition's top shapes, summed: a shape outside a partition's top ten is not
            // counted there (docs/report.md#shapes).
            for partial in partials {
                let stats = partial.report.columns[index].stats
                merged.columns[index].stats.lossyShapes.merge(stats.lossyShapes)
                merged.columns[index].stats.incompleteShapes.merge(stats.incompleteShapes)
                merged.columns[index].stats.invalidShapes.merge(stats.invalidShapes)
            }
        }
        merged.rejected = first(
            rejectionSamplesKept, of: partials.map(\.report.rejected), by: { ($0.part, $0.line) })
        let blankLines = first(
            blankLinesKept,
            of: partials.map { report in
                zip(
                    report.report.blankLineNumbers,
                    report.report.blankLineParts.padded(to: report.report.blankLineNumbers.count)
                )
                .map { BlankLine(line: $0, part: $1) }
            }, by: { ($0.part, $0.line) })
        merged.blankLineNumbers = blankLines.map(\.line)
        merged.blankLineParts = blankLines.map(\.part)
        if partials.contains(where: \.report.samplesRedacted) { merged.redactSamples() }

        // As in one run: a masked JSON key that no record has is a misspelled spec (docs/spec.md).
        if merged.rows > merged.rejectedCount {
            for column in merged.columns where !column.keyFound {
                throw .spec(
                    spec.file, column.spec.place,
                    "no record of any of the \(partials.count) partial reports' partitions has the key \"\(column.spec.name)\""
                )
            }
        }
        return merged
    }

    private struct BlankLine {
        var line: Int
        var part: String?
    }

    /// The first `count` items of the lists, in (partition, row) order; items that tie keep the
    /// order of the lists they come from, so that merging in steps keeps the same ones.
    private static func first<Item>(
        _ count: Int, of lists: [[Item]], by key: (Item) -> (String?, Int)
    ) -> [Item] {
        var all: [(list: Int, position: Int, item: Item)] = []
        for (list, items) in lists.enumerated() {
            for (position, item) in items.enumerated() { all.append((list, position, item)) }
        }
        all.sort { left, right in
            let (leftKey, rightKey) = (key(left.item), key(right.item))
            if PartOrder.precedes(leftKey, rightKey) { return true }
            if PartOrder.precedes(rightKey, leftKey) { return false }
            return (left.list, left.position) < (right.list, right.position)
        }
        return all.prefix(count).map(\.item)
    }

    /// Refuses partial reports that would count records twice or leave some out: two reports of
    /// one partition, rows in two reports (where they know their rows, `--first-row`) and, where
    /// every report knows its rows, rows in none: before the first partition or between two.
    private static func checkPartitions(_ partials: [Partial], firstRow: Int) throws(MaskCleanError) {
        var seen: [String: String] = [:]
        var ranges: [(partition: Partition, file: String)] = []
        var everyRowKnown = true
        for partial in partials {
            if partial.report.partitions.isEmpty { everyRowKnown = false }
            for partition in partial.report.partitions {
                if let part = partition.part {
                    if let other = seen[part] {
                        throw .data(
                            partial.file, line: nil,
                            "part \(JSONTextWriter.quoted(part)) is also in \(other): merging it twice would count its records twice"
                        )
                    }
                    seen[part] = partial.file
                }
                if let problem = partition.rowsPastMaximum {
                    throw .data(partial.file, line: nil, UsageMessage(problem))
                }
                if partition.firstRow == nil {
                    everyRowKnown = false
                } else {
                    ranges.append((partition, partial.file))
                }
            }
        }
        // An empty partition before the one that starts at its row, so that it overlaps nothing.
        ranges.sort {
            ($0.partition.firstRow!, $0.partition.rows) < ($1.partition.firstRow!, $1.partition.rows)
        }
        // Rows are numbered from 1 (or from `firstRow`, for some of an input's partitions): rows
        // before the first partition are in none (the end cannot be checked, as no report knows
        // how many rows the whole input has).
        if everyRowKnown, let first = ranges.first, first.partition.firstRow! != firstRow {
            let start = first.partition.firstRow!
            let from: UsageMessage = firstRow == 1 ? "" : " (merge \(Setting.firstRow) \(firstRow))"
            throw .data(
                first.file, line: nil,
                start > firstRow
                    ? "rows \(firstRow)–\(start - 1) are in none of the partial reports (the first starts at row \(start)): a partition is missing; to merge some of an input's partitions, give the row they start at with \(Setting.firstRow)"
                    : "it starts at row \(start), before row \(firstRow) where the partial reports start"
                        + from
            )
        }
        for (earlier, later) in zip(ranges, ranges.dropFirst()) {
            // `rowsPastMaximum` bounds both, so the row after the partition is an Int.
            let end = earlier.partition.firstRow! + earlier.partition.rows
            let start = later.partition.firstRow!
            if start < end {
                throw .data(
                    later.file, line: nil,
                    "rows \(start)–\(min(end, start + later.partition.rows) - 1) are also in \(earlier.file): partitions may not overlap"
                )
            }
            if start > end && everyRowKnown {
                throw .data(
                    later.file, line: nil,
                    "rows \(end)–\(start - 1) are in none of the partial reports (after \(earlier.file)): a partition is missing"
                )
            }
        }
    }
}

/// The order of partitions: unnamed first, then names that are whole numbers by their value
/// (`2` before `10`, as Spark numbers its partitions), then other names by their bytes (`xaa`,
/// `xab`, as `split` names its pieces); within a partition, by row or line.
enum PartOrder {
    static func precedes(_ left: (part: String?, row: Int), _ right: (part: String?, row: Int)) -> Bool {
        if left.part != right.part {
            guard let leftPart = left.part else { return true }
            guard let rightPart = right.part else { return false }
            return namePrecedes(leftPart, rightPart)
        }
        return left.row < right.row
    }

    static func namePrecedes(_ left: String, _ right: String) -> Bool {
        let leftNumber = wholeNumber(left)
        let rightNumber = wholeNumber(right)
        switch (leftNumber, rightNumber) {
        case (let leftDigits?, let rightDigits?):
            if leftDigits.count != rightDigits.count { return leftDigits.count < rightDigits.count }
            if leftDigits != rightDigits { return leftDigits.lexicographicallyPrecedes(rightDigits) }
        case (.some, .none): return true
        case (.none, .some): return false
        case (.none, .none): break
        }
        return Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
    }

    /// A name's digits without leading zeros (`007` is 7), if it is only ASCII digits.
    private static func wholeNumber(_ name: String) -> [UInt8]? {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Array(bytes.drop { $0 == 0x30 })
    }
}

extension Array where Element == String? {
    fileprivate func padded(to count: Int) -> [String?] {
        self.count >= count ? self : self + Array(repeating: nil, count: count - self.count)
    }
}
