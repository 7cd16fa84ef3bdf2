import MaskEngine

extension ColumnCheck {
    /// The check on one masked value as text, for `maskclean apply` and the library's callers:
    /// whether a cell of format `format` (0 the primary, then the affine formats) with these
    /// formatted and extracted values passes, and its canonical form when it passes and the check
    /// has one. The same rule `run` applies to a cell's bytes (`passes`), so that the two agree.
    public func judge(formatted: String, extracted: String, format: Int) -> (
        passes: Bool, normalized: String?
    ) {
        let normalized = name.hasNormalizedForm ? ByteBuffer() : nil
        let formattedBytes = Array(formatted.utf8)
        let extractedBytes = Array(extracted.utf8)
        let passes = formattedBytes.withUnsafeBufferPointer { formatted in
            extractedBytes.withUnsafeBufferPointer { extracted in
                self.passes(
                    formatted: formatted, extracted: extracted, format: format, normalized: normalized)
            }
        }
        guard passes else { return (false, nil) }
        return (true, normalized.map { String(decoding: $0.bytes, as: UTF8.self) })
    }
}
