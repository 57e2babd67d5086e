/// Server-side phone format check: E.164 plus the country's national length (seed 001: Georgia 9,
/// US 10, UK 10–11). Unknown dial codes fall back to the E.164 bounds alone.
enum PhoneRules {
    private static let nationalLengths: [(dialCode: String, lengths: ClosedRange<Int>)] = [
        ("995", 9...9),  // Georgia
        ("1", 10...10),  // US, Canada
        ("44", 10...11),  // UK
        ("49", 10...11),  // Germany
        ("33", 9...9),  // France
        ("380", 9...9),  // Ukraine
        ("374", 8...8),  // Armenia
        ("90", 10...10),  // Turkey
        ("7", 10...10),  // Russia, Kazakhstan
        ("971", 9...9),  // UAE
    ]

    /// Strips the separators people type ("+995 511-100 000") and returns E.164, or nil if invalid.
    static func normalize(_ raw: String) -> String? {
        let compact = raw.filter { !" -().".contains($0) }
        guard compact.hasPrefix("+") else { return nil }
        let digits = compact.dropFirst()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0" else {
            return nil
        }
        guard (8...15).contains(digits.count) else { return nil }
        // Longest dial code first so "+1..." never shadows a longer prefix.
        let sorted = nationalLengths.sorted { $0.dialCode.count > $1.dialCode.count }
        if let rule = sorted.first(where: { digits.hasPrefix($0.dialCode) }) {
            guard rule.lengths.contains(digits.count - rule.dialCode.count) else { return nil }
        }
        return "+" + digits
    }
}
