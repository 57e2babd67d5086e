import AccessAPI
import Foundation
import TerminalKit

/// "Checking your link…": a link handed over or pasted with no screen waiting for it. The contract says
/// nothing of link URLs, so the token alone is asked about (`POST /auth/links/inspect`, which never spends
/// it) and the answer's kind decides where it goes (`LinkRouter`); a link that changes the account when
/// opened (the revert link signs every session out) asks first.
public struct CheckingLinkScreen: BusyScreen {
    public var token: Secret
    public var error: String?
    /// The failure was the network, so asking again may work.
    public var canRetry: Bool
    /// The link is live and opening it changes the account: waiting for the person's yes.
    public var confirming: LinkKind?
    /// The address the link went to, when the outbox told it (a resend or "Start again" uses it).
    public var sentTo: String?

    public init(
        token: Secret, error: String? = nil, canRetry: Bool = false, confirming: LinkKind? = nil, sentTo: String? = nil
    ) {
        self.token = token
        self.error = error
        self.canRetry = canRetry
        self.confirming = confirming
        self.sentTo = sentTo
    }

    /// The purpose that opens a link of this kind, knowing its address when the outbox gave it.
    func purpose(for kind: LinkKind) -> AnyLinkPurpose? {
        guard let purpose = LinkRouter.purpose(for: kind) else { return nil }
        return sentTo.map { purpose.base.link(sentTo: $0) } ?? purpose
    }

    public var id: String { "checking-link" }
    public var needsClock: Bool { isBusy && confirming == nil }
    public var busyText: String { "Checking your link…" }
    public var failedTitle: String { Self.failedLinkTitle }
    static let failedLinkTitle = "This link didn't work"

    public enum Intent: Sendable { case retry, confirm, support }
    public enum Reply: Equatable, Sendable { case inspected(Result<LinkInfo, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        if confirming != nil { return [KeyBinding([.enter], "Choose", .confirm)] }
        return retryBindings(.retry, support: .support)
    }

    public func call(_ context: ScreenContext) -> [Command] {
        [.call(Endpoint.InspectLink(token: token.value), Reply.inspected)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .retry:
            error = nil
            canRetry = false
            return call(context)
        case .confirm:
            guard let confirming else { return [] }
            return [.showSheet(confirmation(confirming, context))]
        case .support:
            return [.contactSupport(typed: sentTo.map(SupportTicket.Who.email))]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .inspected(.success(let info)):
            guard let kind = info.kind.known else {
                error = LinkRouter.unknownKindText(info.kind.rawValue)
                return []
            }
            guard let purpose = purpose(for: kind) else {
                error = LinkRouter.nothingWaitingText
                return []
            }
            // A state this app does not know (the contract's enum is extensible) is not called expired:
            // the link is opened, and what opening it answers is shown.
            guard info.state.known ?? .live == .live else { return [.replaceTop(LinkExpiredScreen(link: purpose))] }
            if LinkRouter.changesAccount(kind) {
                confirming = kind
                return [.showSheet(confirmation(kind, context))]
            }
            return [.replaceTop(VerifyingLinkScreen(link: purpose, token: token.value, shownAt: context.now))]
        case .inspected(.failure(let failure)):
            error = failure.message
            // No answer (offline or timed out), or the server failing (a 5xx, seed 004): asking again may work.
            if failure.gotNoAnswer || failure.isServerError { canRetry = true }
            return []
        }
    }

    /// Opens on Cancel (the sheet's rule for a destructive action): undoing takes a deliberate move.
    func confirmation(_ kind: LinkKind, _ context: ScreenContext) -> Sheet {
        let open = purpose(for: kind).map {
            VerifyingLinkScreen(link: $0, token: token.value, shownAt: context.now)
        }
        return Sheet(
            title: "Undo the email change?",
            body: Self.revertText,
            actions: [
                (.init("Undo the change", isDestructive: true), open.map { [.replaceTop($0)] } ?? []),
                (.init("Cancel"), [.pop]),
            ])
    }

    static let revertText =
        "This link puts your previous email back and signs every session out, this one included. Open it only if you did not make the change."

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        if confirming != nil {
            canvas.title("Undo the email change?")
            canvas.paragraph(Self.revertText)
            canvas.paragraph("Press Enter to choose, or Esc to go back.", style: .muted)
            return
        }
        drawBusy(into: &canvas, context)
    }
}
