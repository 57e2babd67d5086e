import Foundation

/// Seed 004's optional display name, given on Continue with phone or email: for the app's field and the
/// backend's 422 alike. Surrounding whitespace is not part of it; what is left takes 1 to 50 characters.
public enum DisplayNameRules {
    public static let maximumLength = 50

    /// The name as stored: trimmed, or nil when `typed` is blank (the field left empty means "none").
    public static func normalized(_ typed: String) -> String? {
        let name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }

    /// Whether `typed`, trimmed, fits; a blank one does not (leave the field out instead).
    public static func isValid(_ typed: String) -> Bool {
        guard let name = normalized(typed) else { return false }
        return name.count <= maximumLength
    }

    public static let problem = "A display name takes 1 to \(maximumLength) characters."
}
