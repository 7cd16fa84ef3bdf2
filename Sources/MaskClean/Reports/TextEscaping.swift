extension String {
    /// The text with each Unicode scalar `replacement` gives a text for replaced by it, and every
    /// other scalar kept: the one loop under the report formats' escapings (XML, workflow
    /// commands).
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let replaced = replacement(scalar) {
                out += replaced
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
