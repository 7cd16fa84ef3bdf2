/// `; did you mean "phone"?` for the name closest to a mistyped one: the same letters in another
/// case first, then the nearest by edit distance; nothing when none is close.
func didYouMean(_ word: String, in candidates: [String]) -> String {
    suggestion(for: word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
}

/// The candidate `didYouMean` suggests, if any.
func suggestion(for word: String, in candidates: [String]) -> String? {
    let lowered = word.lowercased()
    // A name typed back as a message shows it (`d\u{fe0f}` for "d" and U+FE0F) means that name.
    return candidates.first { $0 != word && visible($0) == word }
        ?? candidates.first { $0.lowercased() == lowered } ?? closest(to: word, in: candidates)
}

/// The allowed key closest to a mistyped one, when it is close enough to be the likely intent.
func closest(to word: String, in candidates: [String]) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
    let lowered = Array(word.lowercased())
    let scored = candidates.map { ($0, distance(lowered, Array($0.lowercased()))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return nil }
    return best.0
}
