import AccessAPI
import Foundation
import TerminalKit

/// The emailed-link screens shared by every flow that waits for a link (seed 000's magic links):
/// "Check your email", "Verifying your link…" and "This link has expired". What a link is for —
/// how it is sent again, how opening it is checked, what follows — is its `LinkPurpose`, declared
/// by the feature that sends it (re-auth in Reauth/, email change and add in Email/).
enum EmailLinkFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        CheckEmailScreen.self, VerifyingLinkScreen.self, LinkExpiredScreen.self,
    ]
}

/// What an emailed link is for.
public protocol LinkPurpose: Equatable, Sendable {
    /// Sends the link again ("Resend link", "Request a new link"); its reply is an `EmailLinkSent`. nil: a
    /// link nobody can ask for again (the revert link comes with a change).
    var resend: AnyRequest? { get }
    /// Checks an opened link's token with the backend.
    func confirm(token: String) -> AnyRequest
    /// What follows a confirmed link; nil when the reply is not this purpose's.
    func confirmed(_ reply: AnyValue, _ context: ScreenContext) -> [Command]?
    /// The outbox message carries this purpose's link.
    func accepts(_ message: OutboxMessage) -> Bool
    /// The link went to an address the user just typed: "Wrong address? Edit email" takes them back.
    var canEditAddress: Bool { get }
    /// The last path segment of the reference backend's links of this kind (`…/verify-email?token=`),
    /// so a link handed over with nothing waiting for it still finds its way.
    var linkPath: String { get }
    /// Where "Request a new link" goes when `resend` cannot send one by itself (the address is asked
    /// again); nil: nowhere.
    var newLinkScreen: (any ScreenModel)? { get }
    /// "This link has expired"'s explanation: how long this kind of link works.
    var lifetimeText: String { get }
}

extension LinkPurpose {
    public var newLinkScreen: (any ScreenModel)? { nil }
    public var lifetimeText: String { "Verification links expire after 30 minutes. Request a new one to try again." }
}

/// Any link purpose, so screens can carry one and still be compared.
public struct AnyLinkPurpose: Equatable, Sendable, CustomReflectable {
    public let base: any LinkPurpose

    public init(_ base: some LinkPurpose) { self.base = base }

    public static func == (lhs: AnyLinkPurpose, rhs: AnyLinkPurpose) -> Bool { lhs.base.isEqual(to: rhs.base) }

    public var customMirror: Mirror { Mirror(reflecting: base) }
}

extension LinkPurpose {
    fileprivate func isEqual(to other: any LinkPurpose) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// Links that arrive with nothing on screen waiting for them (the email-change link opened from the
/// hub, the revert link in the old address's notice): whose they are decides where they go.
enum LinkRouter {
    static let purposes: [any LinkPurpose] = [
        RegistrationLink(), EmailChangeLink(), RevertEmailLink(), AccountRecoveryLink(),
    ]

    static func open(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard let token = message.token, let purpose = purposes.first(where: { $0.accepts(message) }) else {
            return nil
        }
        return [.push(VerifyingLinkScreen(link: AnyLinkPurpose(purpose), token: token, shownAt: context.now))]
    }

    /// A link handed over from outside with no screen waiting for it: its path says which kind it is.
    static func open(pasted text: String, _ context: ScreenContext) -> [Command]? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let token = PastedLink.token(from: trimmed), let url = URLComponents(string: trimmed),
            let last = url.path.split(separator: "/").last,
            let purpose = purposes.first(where: { $0.linkPath == last })
        else { return nil }
        return [.push(VerifyingLinkScreen(link: AnyLinkPurpose(purpose), token: token, shownAt: context.now))]
    }

    static let nothingWaitingText = "Nothing here is waiting for that link. Open it while \"Check your email\" shows."
}

/// A link as the person pastes it from their mail: the terminal's way of tapping it. The token is
/// the link's `token` query item (the reference backend's links and most magic links), else its last
/// path segment (`…/l/AbC123`), else the text itself when it is one bare word (just the token).
enum PastedLink {
    static let maxLength = 4096

    static func token(from pasted: String) -> String? {
        let text = pasted.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= maxLength, !text.contains(where: \.isWhitespace) else { return nil }
        if let components = URLComponents(string: text), components.scheme != nil {
            if let token = components.queryItems?.first(where: { $0.name == "token" })?.value, !token.isEmpty {
                return token
            }
            let last = components.path.split(separator: "/").last.map(String.init)
            return last.flatMap { $0.count >= 16 ? $0 : nil }
        }
        return text.contains("/") || text.contains("?") ? nil : text
    }
}
