/// Finds the known name closest to a mistyped one, for "did you mean …?" hints.
enum NearestName {
    /// The name in `candidates` nearest to `typed` by edit distance, when it is near enough to be the
    /// intended one (at most a third of the typed length, and at least one edit allowed).
    static func suggestion(for typed: String, in candidates: [String]) -> String? {
        let limit = max(1, typed.count / 3)
        let scored = candidates.map { (name: $0, distance: distance(typed.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit else { return nil }
        return best.name
    }

    /// `message` followed by "; did you mean `NAME`?" when a candidate is near `typed`.
    static func message(_ message: String, typed: String, candidates: [String]) -> String {
        guard let name = suggestion(for: typed, in: candidates) else { return message }
        return "\(message); did you mean `\(name)`?"
    }

    /// The edit distance between `a` and `b` counting insertions, deletions, substitutions and swaps of two
    /// neighbouring characters (optimal string alignment), so `snyc` is one edit from `sync`.
    static func distance(_ a: String, _ b: String) -> Int {
        let source = Array(a)
        let target = Array(b)
        var beforePrevious: [Int] = []
        var previous = Array(0...target.count)
        for (i, character) in source.enumerated() {
            var current = [i + 1]
            for (j, other) in target.enumerated() {
                var best = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (character == other ? 0 : 1))
                if i > 0, j > 0, character == target[j - 1], source[i - 1] == other {
                    best = min(best, beforePrevious[j - 1] + 1)
                }
                current.append(best)
            }
            beforePrevious = previous
            previous = current
        }
        return previous[target.count]
    }
}
