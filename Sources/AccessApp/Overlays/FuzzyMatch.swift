/// Subsequence matching as command palettes do it: every character of the query in order, case ignored;
/// runs of adjacent characters and matches at word starts score higher.
public enum FuzzyMatch {
    public static func score(_ query: String, in text: String) -> Int? {
        let needle = Array(query.lowercased()).filter { $0 != " " }
        let haystack = Array(text.lowercased())
        guard let first = needle.first else { return 0 }
        // Greedy from every place the first character occurs, keeping the best: the first "r" of
        // "Scenario: resend" must not hide the run that starts at "resend".
        var best: Int?
        for start in haystack.indices where haystack[start] == first {
            guard let score = greedyScore(needle, haystack, from: start) else { break }
            best = max(best ?? score, score)
        }
        // Shorter titles for the same match read as closer.
        return best.map { $0 * 100 - haystack.count }
    }

    private static func greedyScore(_ needle: [Character], _ haystack: [Character], from start: Int) -> Int? {
        var score = 0
        var position = start
        var previous: Int?
        for character in needle {
            guard position < haystack.count, let found = haystack[position...].firstIndex(of: character) else {
                return nil
            }
            score += 1
            if let previous, found == previous + 1 { score += 3 }
            if found == 0 || !haystack[found - 1].isLetter { score += 2 }
            previous = found
            position = found + 1
        }
        return score
    }
}
