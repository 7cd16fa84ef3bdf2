import Foundation

/// Writing one JSON record that read well: its own bytes (or its CSV columns), values replaced
/// where a column says so, then the added cells.
extension JSONChunkProcessor {

    func write(
        _ object: JSONToken, memberCount: Int, bytes: UnsafeBufferPointer<UInt8>, line: Int,
        raw: Slice<UnsafeBufferPointer<UInt8>>
    ) -> Outcome {
        let scanner = JSONScanner(bytes)
        // Read the masked values first: a value that cannot be read rejects the record whole.
        // A missing or null value is empty text; `decoded` is only touched for the few values
        // that need decoding.
        for (index, token) in maskedValues.enumerated() {
            maskedText[index] = 0..<0
            guard let token else { continue }
            switch token.kind {
            case .string where !token.hasEscapes:
                // Valid UTF-8: the record's text passed `JSONTextCheck` (or its one-pass twin).
                maskedText[index] = (token.range.lowerBound + 1)..<(token.range.upperBound - 1)
            case .string:
                guard let text = scanner.decodeString(token) else {
                    return reject(.invalidUTF8InKey(plan.maskedKeys[index]), line: line, raw: raw)
                }
                maskedText[index] = nil
                decoded[index].removeAll(keepingCapacity: true)
                decoded[index] += text.utf8
            case .number:
                if !bytes[token.range].contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
                    maskedText[index] = token.range
                    continue
                }
                guard let text = scanner.plainDecimal(token) else {
                    return reject(.numberTooLarge(key: plan.maskedKeys[index]), line: line, raw: raw)
                }
                maskedText[index] = nil
                decoded[index].removeAll(keepingCapacity: true)
                decoded[index] += text.utf8
            default:
                break
            }
        }
        // CSV cannot carry a NUL (maskclean's own reader refuses one): a string that decodes to
        // one makes the record bad rather than a file no reader takes back.
        if writesCSV, let csvColumns = plan.csvColumns {
            for (index, token) in csvValues.enumerated() {
                guard let token, token.kind == .string, token.hasEscapes else { continue }
                if scanner.decodeString(token)?.utf8.contains(0) ?? true {
                    return reject(.nulForCSV(key: csvColumns[index]), line: line, raw: raw)
                }
            }
        }
        result.rows += 1
        let row = result.rows
        if masker.replaces { premaskReplacedColumns(bytes, row: row) }
        encoder.beginRecord(&output)
        var outputColumn: Int
        var separator: Bool
        if let csvColumns = plan.csvColumns {
            for index in csvColumns.indices {
                let column = replacingColumnOfCSV[index]
                if column >= 0, let replacement = replacements[column] {
                    masker.withPremaskedBytes { premasked in
                        encoder.cell(
                            UnsafeBufferPointer(rebasing: premasked[replacement]), outputColumn: index,
                            separator: index > 0, &output)
                    }
                    continue
                }
                let text = csvValues[index].map { csvText($0, scanner) } ?? []
                text.withUnsafeBufferPointer {
                    encoder.cell($0, outputColumn: index, separator: index > 0, &output)
                }
            }
            outputColumn = csvColumns.count
            separator = !csvColumns.isEmpty
        } else {
            // The record's own bytes up to its closing brace; the added members go before it.
            output.truncate(to: output.count - 1)  // beginRecord's `{`: the record brings its own
            if masker.replaces {
                copyReplacing(object, bytes)
            } else {
                var copied = object.range.lowerBound
                for insertion in formulaInsertions {
                    output.append(UnsafeBufferPointer(rebasing: bytes[copied..<insertion]))
                    output.append(FormulaGuard.prefix)
                    copied = insertion
                }
                output.append(UnsafeBufferPointer(rebasing: bytes[copied..<(object.range.upperBound - 1)]))
            }
            outputColumn = 0
            separator = memberCount > 0
        }
        for index in masker.columns.indices {
            if let range = maskedText[index] {
                outputColumn = masker.writeAddedCells(
                    UnsafeBufferPointer(rebasing: bytes[range]), column: index, row: row,
                    outputColumn: outputColumn,
                    separator: separator, encoder: encoder, to: &output)
            } else {
                outputColumn = decoded[index].withUnsafeBufferPointer { value in
                    masker.writeAddedCells(
                        value, column: index, row: row, outputColumn: outputColumn, separator: separator,
                        encoder: encoder,
                        to: &output)
                }
            }
            separator = true
        }
        encoder.endRecord(&output)
        return .written
    }

    /// Masks the record's cells that replace their input, before the record is written.
    func premaskReplacedColumns(_ bytes: UnsafeBufferPointer<UInt8>, row: Int) {
        masker.endPremaskedRecord()
        for index in masker.columns.indices {
            replacements[index] = nil
            guard masker.addedCells[index].replace != nil else { continue }
            if let range = maskedText[index] {
                replacements[index] = masker.premask(
                    UnsafeBufferPointer(rebasing: bytes[range]), column: index, row: row)
            } else {
                replacements[index] = decoded[index].withUnsafeBufferPointer {
                    masker.premask($0, column: index, row: row)
                }
            }
        }
    }

    /// Copies the record up to its closing brace with each replaced value written as a JSON
    /// string in its place, and the formula prefixes of the values kept.
    func copyReplacing(_ object: JSONToken, _ bytes: UnsafeBufferPointer<UInt8>) {
        var edits: [(start: Int, end: Int, column: Int)] = []  // column -1: a formula prefix
        for index in masker.columns.indices where replacements[index] != nil {
            if let token = maskedValues[index] {
                edits.append((token.range.lowerBound, token.range.upperBound, index))
            }
        }
        for insertion in formulaInsertions
        where !edits.contains(where: { $0.column >= 0 && ($0.start..<$0.end).contains(insertion) }) {
            edits.append((insertion, insertion, -1))
        }
        edits.sort { $0.start < $1.start }
        var copied = object.range.lowerBound
        for edit in edits {
            output.append(UnsafeBufferPointer(rebasing: bytes[copied..<edit.start]))
            if edit.column < 0 {
                output.append(FormulaGuard.prefix)
            } else if let replacement = replacements[edit.column] {
                masker.withPremaskedBytes { premasked in
                    let value = UnsafeBufferPointer(rebasing: premasked[replacement])
                    let prefix =
                        encoder.escapeFormulas && FormulaGuard.isTrigger(value.first)
                        ? FormulaGuard.prefix : nil
                    JSONStringEncoder.appendQuoted(value, prefix: prefix, to: &output)
                }
            }
            copied = edit.end
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[copied..<(object.range.upperBound - 1)]))
    }

    /// A JSON value as CSV text: strings decoded, everything else as written.
    func csvText(_ token: JSONToken, _ scanner: JSONScanner) -> [UInt8] {
        switch token.kind {
        case .string: return Array((scanner.decodeString(token) ?? "").utf8)
        case .null: return []
        default: return Array(scanner.bytes[token.range])
        }
    }
}
