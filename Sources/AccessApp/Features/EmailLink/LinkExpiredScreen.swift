import AccessAPI
import Foundation
import TerminalKit

/// "This link has expired": a blocking state (seed 000: a full screen, not a toast), reached
/// when the link is older than 30 minutes or was already used; or, when a newer link replaced it, "A newer
/// link was sent". Offers a new link or support.
public struct LinkExpiredScreen: ScreenModel {
    public var link: AnyLinkPurpose
    /// A newer link replaced this one (the backend's `link_superseded`): it did not run out.
    public var isReplaced: Bool
    public var selection: Int
    public var isSending: Bool
    public var error: String?
    /// The resend found nothing pending (404): the way on is to start over, not to ask for this link again.
    public var startsAgain: Bool

    public init(
        link: AnyLinkPurpose, isReplaced: Bool = false, selection: Int = 0, isSending: Bool = false,
        error: String? = nil, startsAgain: Bool = false
    ) {
        self.startsAgain = startsAgain
        self.link = link
        self.isReplaced = isReplaced
        self.selection = selection
        self.isSending = isSending
        self.error = error
    }

    static let replacedTitle = "A newer link was sent"
    static let replacedText =
        "This link was replaced by a newer one. Open the newest link in your email, or request another."

    /// A re-auth link ran out.
    public init(flow: AnyFlow, selection: Int = 0, isSending: Bool = false, error: String? = nil) {
        self.init(link: .reauth(flow), selection: selection, isSending: isSending, error: error)
    }

    public var id: String { "link-expired" }

    enum Action { case sendNew, startAgain, signedInInstead, contactSupport }

    static let startAgainText = "Start the change again"
    /// Said only where "Request a new link" is offered: signed in, a reset link's screen offers Change password
    /// instead, and said it anyway.
    static let requestAgainText = "Request a new one to try again."

    /// Without a way to ask again (the revert link), only support is left. Signed in, a link that only works
    /// signed out is not asked for again: its own way for a signed-in person, if it has one, instead.
    func actions(_ context: ScreenContext) -> [Action] {
        if startsAgain { return [.startAgain, .contactSupport] }
        if context.isSignedIn, !link.base.opensSignedIn {
            return link.base.signedInInstead == nil ? [.contactSupport] : [.signedInInstead, .contactSupport]
        }
        return !link.canResend && link.base.newLinkScreen == nil ? [.contactSupport] : [.sendNew, .contactSupport]
    }

    public enum Intent: Sendable { case up, down, choose }
    public enum Reply: Equatable, Sendable { case resend(Result<EmailLinkSent, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [.move(up: .up, down: .down), .open("Choose", .choose)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .up: selection = 0
        case .down: selection = actions(context).count - 1
        case .choose:
            let actions = actions(context)
            return choose(actions[min(selection, actions.count - 1)], context)
        }
        return []
    }

    private mutating func choose(_ action: Action, _ context: ScreenContext) -> [Command] {
        if action == .startAgain { return link.base.startAgain(context) ?? [] }
        if action == .signedInInstead, let instead = link.base.signedInInstead, let first = instead.screens.first {
            return [.replaceTop(AnyScreen(first))] + instead.screens.dropFirst().map { .push(AnyScreen($0)) }
        }
        guard action == .sendNew else { return [.contactSupport(typed: nil)] }
        // One such screen, not two: the one below (if any) comes back fresh, as for a resent link.
        if let screen = link.base.newLinkScreen {
            return [.popToNearest([ScreenType(type(of: screen))]), .replaceTop(AnyScreen(screen))]
        }
        guard !isSending, let resend = link.resend(Reply.resend) else { return [] }
        isSending = true
        error = nil
        return [resend]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isSending = false
        switch reply {
        case .resend(.success(let sent)):
            // The new link replaces the old "Check your email" below: one such screen, not two. A link
            // opened from the outbox with no such screen below gets one in this one's place.
            return [
                .popToNearest(CheckEmailScreen.self),
                .replaceTop(CheckEmailScreen(link: link, sentTo: sent.sentTo, sentAt: context.now)),
            ]
        case .resend(.failure(let failure)):
            error = failure.message
            // The backend no longer counts it as pending: another link cannot come, the change can start over.
            if case .server(404, _, _) = failure, link.base.startAgain(context) != nil {
                startsAgain = true
                selection = 0
            }
            return []
        }
    }

    func title(_ action: Action) -> String {
        switch action {
        case .sendNew: "Request a new link"
        case .startAgain: Self.startAgainText
        case .signedInInstead: link.base.signedInInstead?.title ?? ""
        case .contactSupport: "Contact support"
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(isReplaced ? Self.replacedTitle : "This link has expired")
        let actions = actions(context)
        // Nothing pending any more: the server's words say so where the lifetime would (no "request a new one").
        let offer = actions.contains(.sendNew) ? " " + Self.requestAgainText : ""
        let explanation = isReplaced ? Self.replacedText : link.base.lifetimeText + offer
        canvas.paragraph(startsAgain ? error ?? Self.startAgainText : explanation)
        for (index, action) in actions.enumerated() {
            canvas.row(
                ListRow(
                    title(action), control: .chevron,
                    isSelected: index == min(selection, actions.count - 1), isDisabled: action == .sendNew && isSending)
            )
        }
        if isSending { canvas.paragraph("Sending…", style: .muted) }
        if let error, !startsAgain { canvas.paragraph(error, style: .danger) }
    }
}
