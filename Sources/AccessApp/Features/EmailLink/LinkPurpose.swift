import AccessAPI
import AccessCore
import Foundation

/// What an emailed link is for: the request that checks an opened link, and what its answer leads to.
public protocol LinkPurpose: Equatable, Sendable {
    /// The request that checks an opened link's token with the backend.
    associatedtype Confirm: APIRequest
    /// The request that sends the link again; `NoResend` for a link nobody can ask for again.
    associatedtype Resend: APIRequest where Resend.Reply == EmailLinkSent
    /// Sends the link again ("Resend link", "Request a new link"). nil: a link nobody can ask for again
    /// (the revert link comes with a change).
    var resend: Resend? { get }
    /// Checks an opened link's token with the backend.
    func confirm(token: String) -> Confirm
    /// What follows a confirmed link, with the app as it is when the answer arrives.
    func confirmed(_ reply: Confirm.Reply, _ context: ScreenContext) -> [Command]
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
    /// The backend's kind of the link, whose rules (AccessCore's `EmailLink.rules`) say how long it works and
    /// whether another can be asked for.
    var kind: EmailLink { get }
    /// "This link has expired"'s explanation: how long this kind of link works.
    var lifetimeText: String { get }
    /// The same purpose knowing the address the link went to (an outbox message's recipient).
    func sent(to address: String) -> Self
    /// Where "Start again" leads once the backend no longer holds what the link was for (its resend
    /// answered 404); nil: there is nothing to start again from here.
    func startAgain(_ context: ScreenContext) -> [Command]?
    /// Whether a link of this kind can be used signed in. A reset or a recovery link cannot (its `confirmed`
    /// says "You're already signed in"), so signed in, "Request a new link" is not offered for it: the new link
    /// would only say that (issue 48 item 10).
    var opensSignedIn: Bool { get }
    /// Signed in, where what this link was for is done instead (a reset link: Change password, on Email &
    /// password): the row's title and the screens it opens, in order; nil: nowhere (support is left).
    var signedInInstead: (title: String, screens: [any ScreenModel])? { get }
}

extension LinkPurpose {
    public var newLinkScreen: (any ScreenModel)? { nil }
    public func sent(to address: String) -> Self { self }
    public func startAgain(_ context: ScreenContext) -> [Command]? { nil }
    public var opensSignedIn: Bool { true }
    public var signedInInstead: (title: String, screens: [any ScreenModel])? { nil }
    /// `sent(to:)`, wrapped: what an outbox message's link opens as.
    func link(sentTo address: String) -> AnyLinkPurpose { AnyLinkPurpose(sent(to: address)) }
    /// Says to request a new one only where the expired screen offers it (a registration link opened with no
    /// address known has nowhere to ask for one).
    public var lifetimeText: String { "Verification links expire after \(RuleText.duration(kind.rules.lifetime))." }
}

/// The resend of a link nobody can ask for again: no such request exists, so none can be made.
public enum NoResend: APIRequest {
    public func perform(_ api: APIContext) async throws -> EmailLinkSent { switch self {} }
}

/// A link the backend accepted, as its purpose reads the answer. What follows is worked out when the
/// answer arrives (`next`), with the app as it is then: signed in or not, which profile.
public struct ConfirmedLink: Equatable, Sendable, CustomReflectable {
    /// The backend's answer to the confirming request, for comparisons and dumps; the purpose read it already.
    public let reply: Answer
    private let follow: @Sendable (ScreenContext) -> [Command]

    init<Purpose: LinkPurpose>(_ purpose: Purpose, _ reply: Purpose.Confirm.Reply) {
        self.reply = Answer(reply)
        follow = { purpose.confirmed(reply, $0) }
    }

    func next(_ context: ScreenContext) -> [Command] { follow(context) }

    public static func == (lhs: ConfirmedLink, rhs: ConfirmedLink) -> Bool { lhs.reply == rhs.reply }

    public var customMirror: Mirror { Mirror(self, children: ["reply": reply]) }
}

/// Any link purpose, so screens can carry one and still be compared.
public struct AnyLinkPurpose: Equatable, Sendable, CustomReflectable {
    public let base: any LinkPurpose

    public init(_ base: some LinkPurpose) { self.base = base }

    public static func == (lhs: AnyLinkPurpose, rhs: AnyLinkPurpose) -> Bool { lhs.base.isEqual(to: rhs.base) }

    public var customMirror: Mirror { Mirror(reflecting: base) }

    /// Whether the link can be sent again from where it waits.
    var canResend: Bool { base.canResend }

    /// Checks the opened link's token; the answer comes back as `reply`, already read by the purpose.
    func confirm<Reply: Equatable & Sendable>(
        token: String, _ reply: @escaping @Sendable (Result<ConfirmedLink, APIError>) -> Reply
    ) -> Command {
        .call(base.confirmCall(token: token, reply))
    }

    /// Sends the link again; nil when nobody can ask for it again.
    func resend<Reply: Equatable & Sendable>(
        _ reply: @escaping @Sendable (Result<EmailLinkSent, APIError>) -> Reply
    ) -> Command? {
        base.resendCall(reply).map(Command.call)
    }
}

extension LinkPurpose {
    fileprivate func isEqual(to other: any LinkPurpose) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }

    fileprivate var canResend: Bool { resend != nil }

    fileprivate func confirmCall<Reply: Equatable & Sendable>(
        token: String, _ reply: @escaping @Sendable (Result<ConfirmedLink, APIError>) -> Reply
    ) -> Call {
        Call(confirm(token: token)) { result in reply(result.map { ConfirmedLink(self, $0) }) }
    }

    fileprivate func resendCall<Reply: Equatable & Sendable>(
        _ reply: @escaping @Sendable (Result<EmailLinkSent, APIError>) -> Reply
    ) -> Call? {
        resend.map { Call($0, reply) }
    }
}
