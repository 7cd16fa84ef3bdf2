extension SpecProposer {
    /// Masks every value read of the proposed columns with their formats, as a run would, and
    /// notes how many there are, how many came out complete and the shapes of the others. A
    /// column whose every value read is among its tally's distinct ones is measured from them,
    /// each once with its count; the others in a second reading of the input (a copy of it for
    /// standard input), all at once. A column whose formats `Measure` changed (a kind's format at
    /// fault taken out) is measured again, with the input read again if need be.
    static func measure(_ columns: inout [ColumnProposal], _ sample: RecordSample, _ chosen: [Int])
        throws(MaskCleanError)
    {
        var pending = Set(chosen.indices.filter { columns[$0].leftOut == nil })
        // A JSON record a run masking a proposed column rejects (its key twice, a number too
        // large) is a bad record, on which describe fails as a run's reading does: the first in
        // the input, however large the input and whether or not it is read again.
        let rejections = pending.compactMap { sample.rejected[chosen[$0]] }
        if let first = rejections.min(by: { $0.offset < $1.offset }) {
            throw .data(sample.file, line: first.line, first.problem.message)
        }
        if !sample.isWhole {
            for position in pending {
                try takeOutFaultyFormats(&columns[position], sample.tallies[chosen[position]])
            }
        }
        while !pending.isEmpty {
            pending = try measure(&columns, sample, chosen, pending)
        }
    }

    /// A kind's alternative formats that change what the sample's values say, taken out before
    /// every record is read: each reading of the input with a format still at fault would be
    /// followed by another without it (an extension format hides another one behind it, so a
    /// North American column took four readings). The sample's values are the input's, so a
    /// format at fault in them is at fault in the input, and the comment says the sample showed
    /// it; one the sample did not show is still found in the reading of every record. A column
    /// the sample would leave out is left to that reading, which counts every value.
    private static func takeOutFaultyFormats(_ column: inout ColumnProposal, _ tally: ColumnTally)
        throws(MaskCleanError)
    {
        guard column.kind != nil, column.phone == nil else { return }
        while column.formats.count > 1 {
            var trial = column
            var measure = try Measure(trial)
            for (value, count) in tally.distinct { measure.add(value, count: count) }
            guard measure.finish(&trial, sampled: true), trial.leftOut == nil else { return }
            column = trial
        }
    }

    /// Measures the columns at `positions`; returns those to measure again.
    private static func measure(
        _ columns: inout [ColumnProposal], _ sample: RecordSample, _ chosen: [Int], _ positions: Set<Int>
    ) throws(MaskCleanError) -> Set<Int> {
        var again: Set<Int> = []
        var measures: [(column: Int, measure: Measure, values: Int)] = []
        // The sample's column index of each column measured in the second reading.
        var measured: [Int: Int] = [:]
        for (position, index) in chosen.enumerated() where positions.contains(position) {
            var measure = try Measure(columns[position])
            if sample.isWhole && sample.tallies[index].beyond == nil {
                for (value, count) in sample.tallies[index].distinct { measure.add(value, count: count) }
                if measure.finish(&columns[position]) { again.insert(position) }
            } else {
                measured[index] = measures.count
                measures.append((position, measure, 0))
            }
        }
        guard !measures.isEmpty else { return again }
        // Each measured column's CSV field: the last of its name, the one a run reads.
        var fields: [(slot: Int, measure: Int)] = []
        var byName: [String: Int] = [:]
        for (index, entry) in measured { byName[sample.columns[index]] = entry }
        // Each worker masks its share of the records with its own masks; then they add up.
        var workers: [MeasureWorker] = []
        for _ in 0..<max(1, sample.workers) {
            var worker = MeasureWorker(measures: [], values: Array(repeating: 0, count: measures.count))
            for entry in measures { worker.measures.append(try Measure(columns[entry.column])) }
            workers.append(worker)
        }
        let pass = try sample.pass.reading(measures.map { columns[$0.column] })
        let (records, measuredBy) = try pass.read(try sample.reopened(), workers: workers) {
            (names: [String]) throws(MaskCleanError) in
            var slots: [Int: Int] = [:]
            for (slot, name) in names.enumerated() { if let entry = byName[name] { slots[entry] = slot } }
            fields = slots.map { (slot: $0.value, measure: $0.key) }.sorted { $0.slot < $1.slot }
        } record: { (worker: inout MeasureWorker, batch, record, _, names) throws(MaskCleanError) in
            if let names {
                for (slot, entry) in fields {
                    let text = batch.text(record, slot)
                    guard !text.isEmpty else { continue }
                    guard text.isValidUTF8 else {
                        throw .data(
                            sample.file, line: record.line,
                            RecordProblem.invalidUTF8InColumn(names[slot]).message)
                    }
                    worker.values[entry] += 1
                    worker.measures[entry].add(utf8: text)
                }
                return
            }
            // JSON: the measured columns' values are the fields, in their order (`reading`),
            // their text UTF-8 as the reader checked; null, a missing key and what no run masks
            // are empty.
            for entry in worker.measures.indices {
                let text = batch.text(record, entry)
                guard !text.isEmpty else { continue }
                worker.values[entry] += 1
                worker.measures[entry].add(utf8: text)
            }
        }
        for (entry, _) in measures.enumerated() {
            measures[entry].measure = measuredBy[0].measures[entry]
            for worker in measuredBy { measures[entry].values += worker.values[entry] }
            for worker in measuredBy.dropFirst() { measures[entry].measure.merge(worker.measures[entry]) }
        }
        for entry in measures {
            let column = entry.column
            if !sample.isWhole && columns[column].sampledValues == nil {
                columns[column].sampledValues = columns[column].values
            }
            columns[column].values = entry.values
            columns[column].empty = records - entry.values
            if entry.measure.finish(&columns[column]) { again.insert(column) }
        }
        return again
    }
}

/// One worker's share of `describe`'s second reading: a mask for each measured column, and its
/// values counted.
struct MeasureWorker {
    var measures: [Measure]
    var values: [Int]
}
