import MaskEngine

extension String {
    /// This value without the characters of `ignore` (a column's `ignore`), as `run` takes them
    /// out before masking: through the same code, so that `maskclean apply --ignore` agrees.
    public func removingIgnored(_ ignore: String) -> String {
        guard !ignore.isEmpty else { return self }
        let rules = CellRules(ignoring: ignore)
        let out = ByteBuffer()
        var value = self
        return value.withUTF8 { bytes in
            String(decoding: rules.removeIgnored(from: bytes, into: out), as: UTF8.self)
        }
    }
}
