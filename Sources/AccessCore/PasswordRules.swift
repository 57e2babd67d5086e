import Foundation

/// One password rule (seed 000: password_validator.py). Raw values are the backend's error codes.
public enum PasswordRule: String, CaseIterable, Sendable, Codable {
    case tooShort = "password_too_short"  // fewer than 8 characters
    case tooCommon = "password_too_common"  // in Django's common list (case-insensitive, trimmed, like Django)
    case allDigits = "password_all_digits"  // entirely numeric
    case tooSimilar = "password_too_similar"  // similar to the email address or its local part (server-side only)

    /// The checklist line for the three rules shown on screen (seed 001 copy word for word:
    /// "At least 8 characters", "Not a common password", "Not all numbers"); nil for tooSimilar.
    public var checklistLabel: String? {
        switch self {
        case .tooShort: "At least 8 characters"
        case .tooCommon: "Not a common password"
        case .allDigits: "Not all numbers"
        // Seed 000: it depends on the email and is hard to phrase well inline.
        case .tooSimilar: nil
        }
    }

    /// A sentence for an inline error, e.g. "Use at least 8 characters.", "This password is too common.",
    /// "A password can't be all numbers.", "This password is too similar to your email address."
    public var message: String {
        switch self {
        case .tooShort: "Use at least \(PasswordRules.minimumLength) characters."
        case .tooCommon: "This password is too common."
        case .allDigits: "A password can't be all numbers."
        case .tooSimilar: "This password is too similar to your email address."
        }
    }
}

/// Seed 000's password rules (its password_validator.py: min 8 chars, not in common-list, not all
/// digits, not similar to email) as Django's MinimumLength, CommonPassword, Numeric and
/// UserAttributeSimilarity validators apply them (issue 12). One definition for the app's
/// checklist and the backend's 422.
///
/// Lengths count Unicode scalars, which are exactly Python's code points (`len(str)`), not
/// Swift's grapheme clusters: "é" typed as e + combining accent is two, as in Django.
public enum PasswordRules {
    public static let minimumLength = 8
    /// A bound on input, not one of the seed's rules: the longest password a field or request carries.
    public static let maximumLength = 128
    /// Django's UserAttributeSimilarityValidator default.
    static let maximumSimilarity = 0.7

    /// Every rule the password breaks, in CaseIterable order; tooSimilar only when `email` is given.
    public static func violations(_ password: String, email: String?) -> [PasswordRule] {
        PasswordRule.allCases.filter { rule in
            switch rule {
            case .tooShort: password.unicodeScalars.count < minimumLength
            case .tooCommon: isCommon(password)
            case .allDigits: isAllDigits(password)
            case .tooSimilar: email.map { isSimilar(password, toEmail: $0) } ?? false
            }
        }
    }

    /// Django's CommonPasswordValidator: `password.lower().strip() in passwords`.
    public static func isCommon(_ password: String) -> Bool {
        commonPasswords.contains(stripPythonWhitespace(password.lowercased()))
    }

    /// Django's UserAttributeSimilarityValidator with max_similarity 0.7, applied to two attributes: the
    /// whole address (as Django's own `email` attribute, so the domain's pieces count too) and its local
    /// part (so "john.smith" counts whole, not only as "john" and "smith"). For each value: lowercased;
    /// split on \W+ plus the whole value; skip a part when
    /// `len(pw) >= 10 * len(part) and len(part) < 0.7 / 2 * len(pw)` (exceeds_maximum_length_ratio);
    /// similar when difflib's SequenceMatcher(a: password, b: part).quick_ratio() >= 0.7
    /// (quick_ratio = 2 * multiset-intersection-count / (len(a) + len(b))).
    public static func isSimilar(_ password: String, toEmail email: String) -> Bool {
        let localPart = email.lastIndex(of: "@").map { String(email[..<$0]) } ?? email
        let password = Array(password.lowercased().unicodeScalars)
        // Django skips an empty attribute before splitting it.
        for attribute in [email, localPart] where !attribute.isEmpty {
            let value = Array(attribute.lowercased().unicodeScalars)
            for part in splitOnNonWordRuns(value) + [value] {
                if exceedsMaximumLengthRatio(passwordLength: password.count, partLength: part.count) { continue }
                if quickRatio(password, part) >= maximumSimilarity { return true }
            }
        }
        return false
    }

    /// Django's NumericPasswordValidator: Python's `str.isdigit()`, false for "".
    static func isAllDigits(_ password: String) -> Bool {
        let digitTypes: [Unicode.NumericType?] = [.decimal, .digit]
        return !password.isEmpty
            && password.unicodeScalars.allSatisfy { digitTypes.contains($0.properties.numericType) }
    }

    /// Django's list (scripts/generate-common-passwords.py), stored lowercased and stripped.
    /// Read once, on first use; a static let is initialised exactly once even across threads.
    static let commonPasswords: CommonPasswordList = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
            let data = try? Data(contentsOf: url)
        else { preconditionFailure("common-passwords.txt is missing from the AccessCore bundle") }
        return CommonPasswordList(text: Array(data))
    }()

    /// Python's `str.strip()`: Unicode White_Space, plus U+001C...U+001F, which Python also counts.
    static func stripPythonWhitespace(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in
            scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
        }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
            let end = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[start...end])
    }

    /// `re.split(r"\W+", value)`: empty parts kept at either end, as Python keeps them.
    static func splitOnNonWordRuns(_ value: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var parts: [[Unicode.Scalar]] = [[]]
        var previousWasWord = true
        for scalar in value {
            if isWordScalar(scalar) {
                parts[parts.count - 1].append(scalar)
            } else if previousWasWord {
                parts.append([])
            }
            previousWasWord = isWordScalar(scalar)
        }
        return parts
    }

    /// Python's `\w` on str: `str.isalnum()` (letters and anything with a numeric type) or "_".
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: scalar == "_" || scalar.properties.numericType != nil
        }
    }

    /// Django's exceeds_maximum_length_ratio: a part this much shorter than the password can
    /// never reach the threshold, so Django does not compare it.
    static func exceedsMaximumLengthRatio(passwordLength: Int, partLength: Int) -> Bool {
        passwordLength >= 10 * partLength && Double(partLength) < maximumSimilarity / 2 * Double(passwordLength)
    }

    /// difflib's SequenceMatcher(a: a, b: b).quick_ratio(): the characters the two share, counted
    /// with multiplicity, whatever their order; 1.0 for two empty sequences, as in Python.
    static func quickRatio(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Double {
        let length = a.count + b.count
        guard length > 0 else { return 1.0 }
        var available: [Unicode.Scalar: Int] = [:]
        for scalar in b { available[scalar, default: 0] += 1 }
        var matches = 0
        for scalar in a where available[scalar, default: 0] > 0 {
            available[scalar, default: 0] -= 1
            matches += 1
        }
        return 2.0 * Double(matches) / Double(length)
    }
}
