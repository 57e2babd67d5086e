import Foundation

/// Subsequence matching as command palettes do it: every character of the query in order, case ignored;
/// runs of adjacent characters and matches at word starts score higher. Above all that, each word of the
/// query that is a whole word of the text, or starts one, ranks the text higher (issue 48 item 12:
/// `scenario taken` puts taken-number above email-taken). Words are what spaces part (`Scenario:` is the
/// word scenario; a gallery state's `verify-recovery-email:resend` is one word).
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
        return best.map { wordTier(query, text) * 100_000 + $0 * 100 - haystack.count }
    }

    /// 2 for each query word that is a word of the text, 1 for one that starts a word.
    private static func wordTier(_ query: String, _ text: String) -> Int {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map {
            $0.trimmingCharacters(in: .init(charactersIn: ":,()"))
        }
        return query.lowercased().split(separator: " ").reduce(0) { tier, queryWord in
            if words.contains(where: { $0 == queryWord }) { return tier + 2 }
            return words.contains(where: { $0.hasPrefix(queryWord) }) ? tier + 1 : tier
        }
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
