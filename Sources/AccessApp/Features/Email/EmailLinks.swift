import AccessAPI
import AccessCore

/// The link of an email change or add: opening it applies the change (a new session comes with it).
struct EmailChangeLink: LinkPurpose {
    /// The new address, when the link was opened from its message: "Start the change again" fills it in.
    public var address: String?

    public init(address: String? = nil) { self.address = address }
    public func sent(to address: String) -> EmailChangeLink { EmailChangeLink(address: address) }
    /// The backend holds no change any more (past its 24 h, opened, or reverted): the change begins again,
    /// verified as any change is, with the address typed before.
    public func startAgain(_ context: ScreenContext) -> [Command]? {
        guard let methods = context.methods else { return nil }
        let restart = RestartEmailChange(address: address)
        if methods.email == nil || methods.sessionSuffices(for: restart.target) { return [.continueFlow(restart)] }
        return Reauth.verifyThen(restart, context)
    }
    public var resend: Endpoint.ResendEmailLink? { Endpoint.ResendEmailLink() }
    public func confirm(token: String) -> VerifyEmailLink { VerifyEmailLink(token: token) }
    public func confirmed(_ verified: EmailVerified, _ context: ScreenContext) -> [Command] {
        let email = verified.authMethods.email ?? "your new address"
        // An account without an email until now added one: an addition says added.
        let added = context.methods.map { $0.email == nil } ?? false
        // The link came with a new session; a grant earned by the old one is no good with it.
        return [
            .setMethods(verified.authMethods), .forgetReauth,
            .popToNearest(EmailPasswordScreen.self, HubScreen.self, SettingsScreen.self),
            .showToast(added ? "Email added: \(email)." : "Email updated to \(email)."),
        ]
    }
    public func accepts(_ message: OutboxMessage) -> Bool {
        message.outboxKind == .emailVerifyLink && message.purpose != RegistrationLink.purpose
    }
    public var canEditAddress: Bool { true }
    public var linkPath: String { "verify-email" }
    public var kind: EmailLink { .emailChange }
}

/// The link in the old address's notice: the email goes back and every session ends.
struct RevertEmailLink: LinkPurpose {
    public init() {}
    /// A revert link is not sent on request: it comes with a change.
    public var resend: NoResend? { nil }
    public func confirm(token: String) -> Endpoint.RevertEmailChange { Endpoint.RevertEmailChange(token: token) }
    public func confirmed(_ reverted: EmailReverted, _ context: ScreenContext) -> [Command] {
        // Signed in here, this session ended with the others: sign in again, told why (issue 28 item 6).
        guard context.methods == nil else {
            return [.signOut, .resetStack(AnyScreen(SignInScreen(notice: Self.signedOutText(reverted.email))))]
        }
        // Opened signed out (its token is the proof, issue 27): the same landing, so the spinner never stays.
        return [.resetStack(AnyScreen(SignInScreen(notice: Self.revertedText(reverted.email))))]
    }

    static func signedOutText(_ email: String) -> String {
        "Your email is \(email) again. Every session was signed out, this one too. Sign in again."
    }
    static func revertedText(_ email: String) -> String {
        "Your email is \(email) again. Every session was signed out. Sign in again."
    }
    public func accepts(_ message: OutboxMessage) -> Bool { message.outboxKind == .emailChangedNotice }
    public var canEditAddress: Bool { false }
    public var linkPath: String { "revert-email" }
    public var kind: EmailLink { .emailRevert }
    /// Seed 001's sentence has "Request a new one": nobody can, so it says only how long the link works.
    public var lifetimeText: String { "Revert links work once, for \(RuleText.duration(kind.rules.lifetime))." }
}

/// An email change or add started again from "This link has expired" when the backend no longer held it:
/// the new-address screen with the address of the dead link filled in.
public struct RestartEmailChange: SensitiveFlow {
    public var address: String?

    public var target: ReauthMethod? { .email }
    public var pickerExplanation: String { EmailFlow.changeEmail.pickerExplanation }

    public func start(_ context: ScreenContext) -> [Command] {
        guard let methods = context.methods else { return [] }
        let mode: NewEmailScreen.Mode = methods.email.map { .change(current: $0) } ?? .add
        let screens: [Command] = [.popToNearest(EmailPasswordScreen.self, HubScreen.self, SettingsScreen.self)]
        guard let address else { return screens + [.push(NewEmailScreen(mode: mode))] }
        // The address filled in is checked as if just typed, so Send link does not wait for a keystroke.
        let filled = NewEmailScreen(mode: mode, email: address, availability: .typing(since: context.now))
        return screens + [.push(filled), .run(.after(seconds: NewEmailScreen.debounce, action: .tick, id: .debounce))]
    }
}
