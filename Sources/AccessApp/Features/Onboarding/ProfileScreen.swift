import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Onboarding step 2 (seed 003's "Basic Profile Form"): a username, required, checked against
/// `UsernameRules` as it is typed and asked of the server 400 ms after typing pauses (on the app
/// clock); a photo, optional. Continue stays off until the name passes the rules.
public struct ProfileScreen: ScreenModel {
    public enum Focus: Equatable, Sendable { case username, photo, cta }

    /// Where the typed name stands; each case with a name is about that exact (normalized) name.
    public enum Availability: Equatable, Sendable {
        case idle
        case typing(since: Date)
        case checking(String)
        case available(String)
        case taken(String)
        /// The server refused the name's form (a rule this app's copy of the rules does not know).
        case invalid(String)
    }

    public var username: TextField
    public var photo: TextField
    public var focus: Focus
    public var availability: Availability
    public var isWorking: Bool
    public var error: String?

    public static let debounce: TimeInterval = 0.4
    public static let photoMaximumLength = 1024
    static let takenText = "That username is taken."
    /// A paste longer than a username may be is cut, and says so (as the phone field does).
    static let cutText = "A username has at most \(UsernameRules.maximumLength) characters: the rest was cut."
    static let availableText = "Available"
    static let photoHint = "A file path or a link to an image; leave empty to skip"

    public init(
        username: String = "", photo: String = "", focus: Focus = .username, availability: Availability = .idle,
        isWorking: Bool = false, error: String? = nil, photoError: String? = nil
    ) {
        self.username = TextField(
            label: "Username", value: username, placeholder: "e.g. jdoe", maxLength: UsernameRules.maximumLength)
        self.photo = TextField(
            label: "Photo (optional)", value: photo, placeholder: Self.photoHint, error: photoError,
            maxLength: Self.photoMaximumLength)
        self.focus = focus
        self.availability = availability
        self.isWorking = isWorking
        self.error = error
    }

    public var id: String { "onboarding-profile" }
    public var takesText: Bool { true }

    var typed: String { UsernameRules.normalized(username.value) }
    var typedPhoto: String? {
        let path = photo.value.trimmingCharacters(in: .whitespaces)
        return path.isEmpty ? nil : path
    }
    static let order: [Focus] = [.username, .photo, .cta]

    public func canSubmit(_ context: ScreenContext) -> Bool {
        guard !isWorking, UsernameRules.isValid(username.value) else { return false }
        switch availability {
        case .taken(let name), .invalid(let name): return name != typed
        default: return true
        }
    }

    public enum Intent: Sendable { case next, previous, submit }
    public enum Reply: Equatable, Sendable {
        case availability(Result<UsernameAvailability, APIError>)
        case save(Result<Profile, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            .nextField(next: .next, previous: .previous),
            KeyBinding([.enter], "Continue", .submit),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .next, .previous:
            focus = FocusOrder.step(Self.order, from: focus, forward: intent == .next) {
                $0 != .cta || canSubmit(context)
            }
        case .submit:
            if canSubmit(context), focus != .username { return submit() }
            if focus == .username { focus = .photo }
        }
        return []
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return [] }
        if focus == .cta { focus = .username }
        if focus == .photo {
            guard photo.handle(event) else { return nil }
            photo.error = nil
            return []
        }
        let before = username.value
        // The same paste into a field without the limit: what differs is what the limit cut off.
        var uncut: String?
        if case .paste(let text) = event {
            var field = username
            field.maxLength = nil
            field.paste(text)
            uncut = field.value
        }
        guard username.handle(event) else { return nil }
        let wasCut = uncut.map { $0 != username.value } ?? false
        guard username.value != before || wasCut else { return [] }
        error = nil
        username.error = wasCut ? Self.cutText : nil
        guard UsernameRules.isValid(username.value) else {
            // The checklist says what is wrong; only a name that passes is worth asking about.
            availability = .idle
            return []
        }
        availability = .typing(since: context.now)
        return [.run(.after(seconds: Self.debounce, action: .tick, id: .debounce))]
    }

    /// The pause is over: ask about the name, if it is still the one that passed the rules.
    public mutating func tick(_ context: ScreenContext) -> [Command] {
        guard case .typing(let since) = availability, context.now >= since + Self.debounce else { return [] }
        guard UsernameRules.isValid(username.value) else {
            availability = .idle
            return []
        }
        availability = .checking(typed)
        return [.call(Endpoint.UsernameAvailable(username: typed), Reply.availability)]
    }

    private mutating func submit() -> [Command] {
        isWorking = true
        error = nil
        username.error = nil
        photo.error = nil
        return [.call(Endpoint.UpdateProfile(username: typed, photo: typedPhoto), Reply.save)]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .availability(let result): receiveAvailability(result)
        case .save(let result): return receiveSave(result)
        }
        return []
    }

    private mutating func receiveSave(_ result: Result<Profile, APIError>) -> [Command] {
        isWorking = false
        switch result {
        case .success(let profile):
            return Onboarding.advance(to: profile)
        case .failure(.taken):
            availability = .taken(typed)
            focus = .username
        case .failure(.invalid(let codes, let message, let bounds)):
            let broken = codes.compactMap(UsernameRules.Problem.init(rawValue:))
            if broken.isEmpty {
                // Not the name's rules: the photo (`invalid_field`) is the other thing sent.
                photo.error = message
                focus = .photo
            } else {
                availability = .invalid(typed)
                username.error = Self.sentences(broken, bounds)
                focus = .username
            }
        case .failure(let failure):
            error = failure.message
        }
        return []
    }

    private mutating func receiveAvailability(_ result: Result<UsernameAvailability, APIError>) {
        // A reply about a name no longer in the field is old news.
        guard case .checking(let asked) = availability, asked == typed else { return }
        switch result {
        case .success(let answer):
            availability = answer.available ? .available(asked) : .taken(asked)
        case .failure(.invalid(let codes, let message, let bounds)):
            availability = .invalid(asked)
            let broken = codes.compactMap(UsernameRules.Problem.init(rawValue:))
            username.error = broken.isEmpty ? message : Self.sentences(broken, bounds)
        case .failure(let failure):
            // Not known either way: Continue lets the server decide.
            availability = .idle
            error = failure.message
        }
    }

    /// The server's refusal in the checklist's words, with the server's bounds when its 422 gave them.
    static func sentences(_ broken: [UsernameRules.Problem], _ bounds: FieldBounds?) -> String {
        broken.map { $0.sentence(minimum: bounds?.min, maximum: bounds?.max) }.joined(separator: " ")
    }

    /// The rules as a checklist: each judged once something is typed.
    func checklist(glyphs: Glyphs) -> [(text: String, style: Style)] {
        let broken = Set(UsernameRules.problems(username.value))
        // The field stops at the maximum, so "at most 30" can never be broken here: not listed.
        return UsernameRules.Problem.allCases.filter { $0 != .tooLong }.map { rule in
            guard !username.value.isEmpty else { return ("\(glyphs == .ascii ? "-" : "○") \(rule.sentence)", .muted) }
            return broken.contains(rule)
                ? ("\(glyphs == .ascii ? "x" : "✗") \(rule.sentence)", .danger)
                : ("\(glyphs == .ascii ? "+" : "✓") \(rule.sentence)", .success)
        }
    }

    var usernameProblem: String? {
        if case .taken(let name) = availability, name == typed { return Self.takenText }
        return username.error
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        OnboardingProgress(.profile, context).title("Your profile", into: &canvas)
        var shownName = username
        shownName.isFocused = focus == .username
        shownName.isDisabled = isWorking
        shownName.error = usernameProblem
        canvas.field(shownName)
        for line in checklist(glyphs: canvas.glyphs) { canvas.paragraph(line.text, style: line.style, spacing: 0) }
        // One row kept for the answer, so the form does not jump when it comes.
        switch availability {
        case .checking: canvas.paragraph("Checking…", style: .muted)
        case .available(let name) where name == typed: canvas.paragraph(Self.availableText, style: .success)
        default: canvas.skip(2)
        }
        var shownPhoto = photo
        shownPhoto.isFocused = focus == .photo
        shownPhoto.isDisabled = isWorking
        canvas.field(shownPhoto)
        if let error { canvas.paragraph(error, style: .danger, spacing: 0) }
        canvas.button(
            "Continue", working: "Saving…", isReady: canSubmit(context), isFocused: focus == .cta,
            isWorking: isWorking)
    }
}
