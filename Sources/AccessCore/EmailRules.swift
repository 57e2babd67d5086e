import Foundation

/// What counts as an email address, for the app's inline check ("Enter a valid email address.",
/// seed 001) and the backend's 422 alike. Deliberately plain, like seed 000's phone check: one
/// `@`, a local part, a dotted domain of letters, digits and hyphens. Whether the mailbox exists is
/// what the verification link proves.
public enum EmailRules {
    /// RFC 5321's limit on a forward path; the field stops here.
    public static let maximumLength = 254
    static let maximumLocalLength = 64

    public static func isValid(_ typed: String) -> Bool {
        let email = normalized(typed)
        guard email.count <= maximumLength, !email.contains(where: \.isWhitespace) else { return false }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= maximumLocalLength else { return false }
        guard !parts[0].hasPrefix("."), !parts[0].hasSuffix("."), !parts[0].contains("..") else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let topLevel = labels.last, topLevel.count >= 2,
            topLevel.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// What is stored and compared: surrounding spaces dropped. Case is kept as typed (the mailbox
    /// may care), and compared without it.
    public static func normalized(_ typed: String) -> String {
        typed.trimmingCharacters(in: .whitespaces)
    }

    public static func same(_ a: String, _ b: String) -> Bool {
        normalized(a).lowercased() == normalized(b).lowercased()
    }

    /// The part before the `@`, which the password similarity rule compares against.
    public static func localPart(_ email: String) -> String {
        String(normalized(email).split(separator: "@", maxSplits: 1).first ?? "")
    }
}
