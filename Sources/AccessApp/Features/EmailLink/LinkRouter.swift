import AccessAPI
import Foundation

/// Links that arrive with nothing on screen waiting for them (the email-change link opened from the
/// hub, the revert link in the old address's notice): whose they are decides where they go.
enum LinkRouter {
    static let purposes: [any LinkPurpose] = [
        RegistrationLink(), EmailChangeLink(), RevertEmailLink(), AccountRecoveryLink(), ForgotPasswordLink(),
    ]

    /// One road for a link (issue 48 item 9): a link chosen in the outbox with nothing waiting for it goes where
    /// a link handed over goes, through "Checking your link…", so the revert link asks first here too. The
    /// outbox adds only what it knows besides the token: the address the link went to.
    static func open(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard let token = message.token, purposes.contains(where: { $0.accepts(message) }) else { return nil }
        return [.push(CheckingLinkScreen(token: Secret(token), sentTo: message.to))]
    }

    /// A link handed over from outside with no screen waiting for it, in any URL shape (its `token` query
    /// item or last path segment) or a bare token: the backend is asked what it is (issue 27).
    static func open(pasted text: String, _ context: ScreenContext) -> [Command]? {
        guard let token = PastedLink.token(from: text) else { return nil }
        return [.push(CheckingLinkScreen(token: Secret(token)))]
    }

    /// The purpose that opens a link of this kind from anywhere; nil for a re-auth link, which only the
    /// flow waiting for it can use.
    static func purpose(for kind: LinkKind) -> AnyLinkPurpose? {
        switch kind {
        case .emailChange, .emailAdd: AnyLinkPurpose(EmailChangeLink())
        case .emailRevert: AnyLinkPurpose(RevertEmailLink())
        case .register: AnyLinkPurpose(RegistrationLink())
        case .recovery: AnyLinkPurpose(AccountRecoveryLink())
        case .passwordReset: AnyLinkPurpose(ForgotPasswordLink())
        case .reauth: nil
        }
    }

    /// Opening it changes the account beyond what the person asked for here: the revert link signs
    /// every session out, so it asks first.
    static func changesAccount(_ kind: LinkKind) -> Bool { kind == .emailRevert }

    static let nothingWaitingText = "Nothing here is waiting for that link. Open it while \"Check your email\" shows."

    /// The server names a kind of link this app does not know (the contract's enum is extensible).
    static func unknownKindText(_ kind: String) -> String {
        "This app can't open this kind of link (the server calls it \"\(kind)\"). Open it in the app it was meant for."
    }
}
