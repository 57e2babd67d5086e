import Foundation

/// A rule's number as copy says it, so the words on screen, in spec notes and in conform's check titles are
/// made from the constant and cannot drift from it: "for \(RuleText.duration(LinkLifetimes.passwordReset))"
/// reads "for 30 minutes".
public enum RuleText {
    public enum Style: Sendable {
        /// "30 seconds", "15 minutes", "24 hours", "7 days".
        case long
        /// "30 s", "15 min", "24 h", "7 days", as docs/RULES.md writes them.
        case short
        /// "30-second", "15-minute", "24-hour", "7-day", before a noun: "the 15-minute window".
        case compound
        /// "five minutes", "ten minutes": the number in words up to ten.
        case spelled
    }

    /// Whole days from two days up, else whole hours, else whole minutes, else seconds.
    public static func duration(_ seconds: TimeInterval, _ style: Style = .long) -> String {
        let whole = Int(seconds.rounded())
        let (value, long, short): (Int, String, String) =
            if whole >= 2 * 86_400, whole % 86_400 == 0 {
                (whole / 86_400, "day", "days")
            } else if whole >= 3600, whole % 3600 == 0 {
                (whole / 3600, "hour", "h")
            } else if whole >= 60, whole % 60 == 0 {
                (whole / 60, "minute", "min")
            } else {
                (whole, "second", "s")
            }
        switch style {
        case .long: return "\(value) \(long)\(value == 1 ? "" : "s")"
        case .short: return "\(value) \(short)"
        case .compound: return "\(value)-\(long)"
        case .spelled: return "\(count(value)) \(long)\(value == 1 ? "" : "s")"
        }
    }

    private static let cardinals = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ]
    private static let ordinals = [
        "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    ]

    /// "five"; past ten, the digits.
    public static func count(_ n: Int) -> String { cardinals.indices.contains(n) ? cardinals[n] : "\(n)" }

    /// "fifth"; past tenth, "11th" and so on.
    public static func ordinal(_ n: Int) -> String { ordinals.indices.contains(n) ? ordinals[n] : "\(n)th" }

    /// "3rd", "6th", "11th", "31st": in digits, as check titles count.
    public static func nth(_ n: Int) -> String {
        let suffix =
            switch (n % 10, n % 100) {
            case (_, 11...13): "th"
            case (1, _): "st"
            case (2, _): "nd"
            case (3, _): "rd"
            default: "th"
            }
        return "\(n)\(suffix)"
    }
}

extension String {
    /// The first letter upper-cased: "Five wrong codes".
    public var sentenceCased: String { prefix(1).uppercased() + dropFirst() }
}
