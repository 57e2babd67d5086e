import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Seed 004's optional display name, a second field on Continue with phone and Continue with email: checked
/// as it is typed with `DisplayNameRules` (the backend's own check), sent with the code. It stays beside the
/// app's other building blocks, as `EmailEntryScreen` does: the SignIn and Phone features both use it.
public struct DisplayNameInput: Equatable, Sendable {
    public var field: TextField
    /// The server refused the name (its 422): its words, until the name is edited.
    public var serverError: String?

    public init(_ value: String = "", serverError: String? = nil) {
        field = TextField(
            label: "Display name (optional)", value: value, placeholder: "How we greet you",
            maxLength: Self.maxTyped)
        self.serverError = serverError
    }

    /// Room past the rule's 50, so a name too long is said rather than silently cut; a runaway paste stays bounded.
    static let maxTyped = 2 * DisplayNameRules.maximumLength

    /// What goes with the code: the trimmed name, or nil when the field is left blank.
    public var name: String? { DisplayNameRules.normalized(field.value) }

    /// Why the name cannot go as typed; nil when it can (blank means "none" and is fine).
    public var problem: String? {
        if let serverError { return serverError }
        guard name != nil, !DisplayNameRules.isValid(field.value) else { return nil }
        return DisplayNameRules.problem
    }

    /// Typing or a paste; false for keys the field does not use.
    public mutating func handle(_ event: InputEvent) -> Bool {
        let before = field.value
        guard field.handle(event) else { return false }
        if field.value != before { serverError = nil }
        return true
    }

    /// The field as drawn, with its problem under it.
    public func shown(isFocused: Bool, isDisabled: Bool) -> TextField {
        var shown = field
        shown.isFocused = isFocused
        shown.isDisabled = isDisabled
        shown.error = problem
        return shown
    }

    /// Whether a refused call was about the name: the reference backend lists `display_name` in `errors`;
    /// another may only start its message with the field's name.
    static func isAbout(_ failure: APIError) -> Bool {
        guard case .invalid(let fields, let message, _) = failure else { return false }
        return fields.contains(field) || message.hasPrefix(field)
    }

    static let field = "display_name"
}

/// The code screen's call was refused for the display name: back on the screen that has the field, its
/// words under it and the challenge kept, so a corrected name goes with the same code (no second send).
public struct DisplayNameRefused: Equatable, Sendable {
    public var message: String
    public var challenge: SignInChallenge
}

extension Profile {
    /// The person as the app names them: the display name, and the username beside it when both are set.
    var shownName: String? {
        switch (displayName, username) {
        case (let name?, let username?): "\(name) (@\(username))"
        case (let name?, nil): name
        case (nil, let username?): "@\(username)"
        case (nil, nil): nil
        }
    }
}
