import AccessAPI
import Foundation
import TerminalKit

/// "Verifying your link…": the moment after the user opens the emailed link, while the backend
/// checks the one-shot token (seed 000: a centred spinner, not a skeleton).
public struct VerifyingLinkScreen: BusyScreen {
    public var link: AnyLinkPurpose
    public var token: String
    public var error: String?
    /// The failure was the network, so asking again may work; a refused token will not.
    public var canRetry: Bool
    /// When the spinner came up: it stays at least `minimumShown` (seed 000: "about 1–2 s"),
    /// so a fast answer does not flash it away unseen.
    public var shownAt: Date
    /// The answer, kept until the spinner has been up long enough.
    public var held: [Command]?

    public static let minimumShown: TimeInterval = 1

    public init(
        link: AnyLinkPurpose, token: String, error: String? = nil, canRetry: Bool = false,
        shownAt: Date = .distantPast, held: [Command]? = nil
    ) {
        self.link = link
        self.token = token
        self.error = error
        self.canRetry = canRetry
        self.shownAt = shownAt
        self.held = held
    }

    /// Opening a re-auth link.
    public init(
        flow: AnyFlow, token: String, error: String? = nil, canRetry: Bool = false, shownAt: Date = .distantPast,
        held: [Command]? = nil
    ) {
        self.init(
            link: .reauth(flow), token: token, error: error, canRetry: canRetry, shownAt: shownAt, held: held)
    }

    public var id: String { "verifying-link" }
    public var busyText: String { "Verifying your link…" }
    public var failedTitle: String { CheckingLinkScreen.failedLinkTitle }

    public typealias Intent = BusyIntent
    public enum Reply: Equatable, Sendable { case confirm(Result<ConfirmedLink, APIError>) }

    public func call(_ context: ScreenContext) -> [Command] {
        [link.confirm(token: token, Reply.confirm)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard intent == .retry else { return [.contactSupport(typed: nil)] }
        error = nil
        canRetry = false
        shownAt = context.now
        return call(context)
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        let outcome: [Command]
        switch reply {
        case .confirm(.success(let confirmed)):
            outcome = confirmed.next(context)
        case .confirm(.failure(.codeExpired)):
            outcome = [.replaceTop(LinkExpiredScreen(link: link))]
        case .confirm(.failure(.server(410, ErrorCode.linkSuperseded.rawValue, _))):
            outcome = [.replaceTop(LinkExpiredScreen(link: link, isReplaced: true))]
        case .confirm(.failure(let failure)):
            error = failure.message
            // No answer (offline or timed out), or the server failing (a 5xx, seed 004): asking again may work.
            if failure.gotNoAnswer || failure.isServerError { canRetry = true }
            return []
        }
        guard context.now >= shownAt + Self.minimumShown else {
            held = outcome
            return []
        }
        return outcome
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        guard let held, context.now >= shownAt + Self.minimumShown else { return [] }
        self.held = nil
        return held
    }
}
