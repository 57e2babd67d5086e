import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// One flow's "send me a link" screen as data: what `LinkRequestScreen` says for it.
public struct LinkRequestDescription: Sendable {
    /// The SCREEN of `accessdeck screens` ("forgot-password").
    public var id: String
    public var title: String
    public var subtitle: String
    public var fieldLabel: String

    /// What no answer says, on the screen that asks for a link and on the one that waits for it.
    public static let offlineText = OnScreenMessage.offline.text

    public init(id: String, title: String, subtitle: String, fieldLabel: String) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.fieldLabel = fieldLabel
    }
}

/// A flow whose link is asked for by typing the address: its words (`screen`) and the flow of the screen
/// that waits for the link (`Sent`), whose request this screen sends and whose 429 wording it shares.
public protocol LinkRequestFlow: Sendable {
    associatedtype Sent: RequestedLinkFlow
    static var screen: LinkRequestDescription { get }
    static var gallery: [GalleryEntry] { get }
    static var defaultGalleryState: String { get }
    static var specNotes: SpecNotes { get }
}

extension LinkRequestFlow {
    public static var defaultGalleryState: String { "default" }
}

/// "Forgot password?", "Can't access your account?": the address, checked here first, then a one-shot link
/// to it. Whatever the backend knows about the address, the next screen (`LinkSentScreen<Flow.Sent>`) says
/// the same thing. A 429 for the address counts down in a banner and in place of the button, in the flow's
/// words; sending it is off until it passes, another address may go at once.
public struct LinkRequestScreen<Flow: LinkRequestFlow>: EmailEntryScreen {
    public var email: TextField
    public var isWorking: Bool
    public var error: String?
    /// The server's 429 for this address: sending is off, counted down, until it passes.
    public var limit: RateLimit?

    public init(email: String = "", isWorking: Bool = false, error: String? = nil, limit: RateLimit? = nil) {
        self.email = TextField(
            label: Flow.screen.fieldLabel, value: email, placeholder: "name@example.com",
            maxLength: EmailRules.maximumLength)
        self.isWorking = isWorking
        self.error = error
        self.limit = limit
    }

    static var offlineText: String { LinkRequestDescription.offlineText }

    public var id: String { Flow.screen.id }
    public static var gallery: [GalleryEntry] { Flow.gallery }
    public static var defaultGalleryState: String { Flow.defaultGalleryState }
    public static var specNotes: SpecNotes { Flow.specNotes }

    public enum Intent: Sendable { case send }
    public enum Reply: Equatable, Sendable { case request(Result<Flow.Sent.Resent, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [KeyBinding([.enter], "Send link", .send)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard let address = addressToSend(context) else { return [] }
        return Flow.Sent.resend(Flow.Sent.link(sentTo: address), to: address, Reply.request).map { [$0] } ?? []
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .request(.success(let answer)):
            sent()
            let link = Flow.Sent.resent(answer, at: context.now)
            return [.push(LinkSentScreen<Flow.Sent>(email: link.address, resendAfter: link.resendAfter))]
        case .request(.failure(let failure)):
            sendFailed(failure, context, rateLimitedText: Self.limitWords)
            return []
        }
    }

    /// The flow's own sentence for a 429; nil: the wait's words.
    static var limitWords: String? {
        guard case .seed(let words) = Flow.Sent.screen.rateLimited else { return nil }
        return words
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(Flow.screen.title, subtitle: Flow.screen.subtitle)
        canvas.field(shownEmail)
        guard let limit, isLimited(context) else {
            canvas.button(
                "Send link", working: "Sending link…", isReady: canSubmit(context), isFocused: false,
                isWorking: isWorking)
            return
        }
        let left = TextLayout.countdown(seconds: Banner.secondsLeft(until: limit.until, now: context.now))
        if let words = Self.limitWords {
            canvas.paragraph(words, style: .danger, spacing: 0)
            canvas.centered("Try again in \(left)", style: .muted)
        } else {
            // The banner's words for the limit that fired: "Resend in" for the gap between sends, a cap named.
            canvas.centered("\(RateLimit.wait(limit.kind).lead) \(left)", style: .muted)
        }
    }
}
