extension Program {
    /// Applies the program to the UTF-8 bytes of a value (see `Mask.apply(utf8:...)`), with the
    /// walking rules of the syntax it was compiled from, which it carries. One indirect call:
    /// the affine choice, which walks many values, reaches the walk through its `Chooser`.
    func run(
        _ input: UnsafeBufferPointer<UInt8>, autocomplete: Bool,
        formatted: UnsafeMutablePointer<UInt8>, extracted: UnsafeMutablePointer<UInt8>,
        dropped: UnsafeMutablePointer<UInt8>?, inputIsPlainASCII: Bool? = nil
    ) -> ApplyCounts {
        syntax.run(
            self, input, autocomplete: autocomplete, formatted: formatted, extracted: extracted,
            dropped: dropped, inputIsPlainASCII: inputIsPlainASCII)
    }

    @inline(__always)
    fileprivate func run<Rules: MaskSyntax>(
        _ input: UnsafeBufferPointer<UInt8>, _ rules: Rules.Type, _ autocomplete: Bool,
        _ formatted: UnsafeMutablePointer<UInt8>, _ extracted: UnsafeMutablePointer<UInt8>,
        _ dropped: UnsafeMutablePointer<UInt8>?, _ inputIsPlainASCII: Bool?
    ) -> ApplyCounts {
        steps.withUnsafeBufferPointer { steps in
            var formattedCursor = ByteCursor(formatted)
            var extractedCursor = ByteCursor(extracted)
            var droppedCursor = dropped.map(ByteCursor.init)
            // The reference keeps the caret at the end of the value; right to left, the value is
            // reversed and the caret with it, so autocomplete only reaches an empty value.
            let autocomplete = autocomplete && (!rightToLeft || input.isEmpty)
            let plain = literalsAreInert && (inputIsPlainASCII ?? input.isPlainASCII)
            let counts: WalkCounts
            if plain && !rightToLeft {
                var source = ASCIIBytes<LeftToRight>(input)
                counts = walk(
                    &source, self, steps, rules: rules, autocomplete: autocomplete, reverseLiterals: false,
                    formatted: &formattedCursor, extracted: &extractedCursor, dropped: &droppedCursor)
            } else if plain {
                var source = ASCIIBytes<RightToLeft>(input)
                counts = walk(
                    &source, self, steps, rules: rules, autocomplete: autocomplete, reverseLiterals: true,
                    formatted: &formattedCursor, extracted: &extractedCursor, dropped: &droppedCursor)
                formatted.reverseBytes(count: formattedCursor.count)
                extracted.reverseBytes(count: extractedCursor.count)
                dropped?.reverseBytes(count: droppedCursor?.count ?? 0)
            } else {
                let value = String(decoding: input, as: UTF8.self)
                // Right to left, the reference reverses the value by characters, walks it, and
                // reverses what it wrote the same way; characters may merge or split in between.
                var source = ClusterInput(rightToLeft ? String(value.reversed()) : value)
                counts = walk(
                    &source, self, steps, rules: rules, autocomplete: autocomplete, reverseLiterals: false,
                    formatted: &formattedCursor, extracted: &extractedCursor, dropped: &droppedCursor)
                if rightToLeft {
                    formatted.reverseCharacters(count: formattedCursor.count)
                    extracted.reverseCharacters(count: extractedCursor.count)
                    dropped?.reverseCharacters(count: droppedCursor?.count ?? 0)
                }
            }
            return ApplyCounts(
                formattedByteCount: formattedCursor.count,
                extractedByteCount: extractedCursor.count,
                droppedByteCount: droppedCursor?.count ?? 0,
                complete: completeFrom[counts.stop],
                affinity: counts.affinity,
                droppedDataCharacters: counts.dropped,
                stop: counts.stop,
                isPlain: plain,
                reach: counts.reach,
                formattedBeforeTail: counts.formattedBeforeTail)
        }
    }
}

extension MaskSyntax {
    @inline(__always)
    static func run(
        _ program: Program, _ input: UnsafeBufferPointer<UInt8>, autocomplete: Bool,
        formatted: UnsafeMutablePointer<UInt8>, extracted: UnsafeMutablePointer<UInt8>,
        dropped: UnsafeMutablePointer<UInt8>?, inputIsPlainASCII: Bool?
    ) -> ApplyCounts {
        program.run(input, Self.self, autocomplete, formatted, extracted, dropped, inputIsPlainASCII)
    }

    static func chooser(_ strategy: AffinityStrategy, formats: Int) -> Chooser {
        Chooser(strategy, formats: formats, Self.self)
    }
}

extension UnsafeMutablePointer<UInt8> {
    fileprivate func reverseBytes(count: Int) {
        var buffer = UnsafeMutableBufferPointer(start: self, count: count)
        buffer.reverse()
    }

    /// Reverses the characters of the UTF-8 text here, keeping each character's bytes in order.
    fileprivate func reverseCharacters(count: Int) {
        guard count > 1 else { return }
        let text = String(decoding: UnsafeBufferPointer(start: self, count: count), as: UTF8.self)
        var position = 0
        for byte in String(text.reversed()).utf8 {
            self[position] = byte
            position += 1
        }
    }
}
