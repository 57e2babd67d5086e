import Foundation

/// What a username may be (seed 003's profile step), for the app's inline checklist and the backend's
/// 422 alike: 3 to 30 characters, lowercase letters a–z, digits, `.` and `_`, starting with a letter.
/// Names are stored lowercased and compared without case, so "JDoe" and "jdoe" are one name.
public enum UsernameRules {
    public static let minimumLength = 3
    public static let maximumLength = 30

    /// A rule a typed name breaks; `rawValue` is the contract's `UsernameRule`.
    public enum Problem: String, CaseIterable, Sendable {
        case tooShort = "too_short"
        case tooLong = "too_long"
        case characters
        case firstCharacter = "first_character"

        /// The checklist's sentence for the rule, with these bounds.
        public var sentence: String { sentence() }

        /// The sentence with a server's own bounds where it gave them (its 422's `min` and `max`): another
        /// backend's limit need not be these.
        public func sentence(minimum: Int? = nil, maximum: Int? = nil) -> String {
            switch self {
            case .tooShort: return "Use at least \(minimum ?? UsernameRules.minimumLength) characters."
            case .tooLong: return "Use at most \(maximum ?? UsernameRules.maximumLength) characters."
            case .characters: return "Use only letters a–z, digits, dots and underscores."
            case .firstCharacter: return "Start with a letter."
            }
        }
    }

    /// Every rule `typed` breaks, in the checklist's order; empty means the name can be asked for.
    public static func problems(_ typed: String) -> [Problem] {
        let name = normalized(typed)
        var problems: [Problem] = []
        if name.count < minimumLength { problems.append(.tooShort) }
        if name.count > maximumLength { problems.append(.tooLong) }
        if !name.unicodeScalars.allSatisfy({ allowed.contains($0) }) { problems.append(.characters) }
        if let first = name.unicodeScalars.first, !letters.contains(first) { problems.append(.firstCharacter) }
        return problems
    }

    public static func isValid(_ typed: String) -> Bool { problems(typed).isEmpty }

    /// What is stored and compared: surrounding spaces dropped, lowercased.
    public static func normalized(_ typed: String) -> String {
        typed.trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static let letters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz")
    private static let allowed = letters.union(CharacterSet(charactersIn: "0123456789._"))
}
