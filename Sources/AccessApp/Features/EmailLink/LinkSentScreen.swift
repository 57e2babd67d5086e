import AccessAPI
import Foundation
import TerminalKit

/// How a flow words a refused send (429), on the screen that asks for a link and on the one that waits for it.
public enum SendLimitWording: Equatable, Sendable {
    /// The wait's own words, counted down ("Resend in 0:24", "Daily limit reached. Try again in …"); the
    /// server's words only when it names no wait.
    case countdown
    /// The server's words, and its wait counted down in a banner.
    case serverWords
    /// A seed's sentence whatever the wait, the wait counted down under it.
    case seed(String)
}

/// One flow's "Check your email" as data: what `LinkSentScreen` says and offers for it.
public struct LinkSentDescription: Sendable {
    /// The SCREEN of `accessdeck screens` ("reset-sent").
    public var id: String
    /// The first paragraph: where the link went and what it is for.
    public var sentText: @Sendable (_ address: String) -> String
    /// How to open the link here; nil: from the outbox (where there is one) or pasted.
    public var pasteHint: String?
    /// The toast once a new link is on its way; nil: the countdown starting again says it.
    public var resentText: String?
    public var rateLimited: SendLimitWording
    /// What no answer says; nil: the app's offline words.
    public var offlineText: String?
    /// "Edit email" tells the screen below why it is back (`EditAddress`), so it can focus the address.
    public var editTellsSender: Bool
    /// s: Contact support, for someone who lost this email too.
    public var offersSupport: Bool
    /// h: "Didn't get the email?" and m: the mail app.
    public var offersHelp: Bool

    /// Seed 000: a new link replaces the one before.
    public static let newLinkText = "We sent a new link. Earlier links no longer work."

    public init(
        id: String, sentText: @escaping @Sendable (_ address: String) -> String, pasteHint: String? = nil,
        resentText: String? = nil, rateLimited: SendLimitWording, offlineText: String? = nil,
        editTellsSender: Bool = false, offersSupport: Bool = false, offersHelp: Bool = false
    ) {
        self.id = id
        self.sentText = sentText
        self.pasteHint = pasteHint
        self.resentText = resentText
        self.rateLimited = rateLimited
        self.offlineText = offlineText
        self.editTellsSender = editTellsSender
        self.offersSupport = offersSupport
        self.offersHelp = offersHelp
    }
}

/// A flow that emails a link and waits on "Check your email" for it to be opened: its words (`screen`), the
/// call that sends the link again, and its gallery states and notes. `LinkSentScreen<Flow>` is the screen.
public protocol LinkSentFlow: Sendable {
    /// What sending the link again answers.
    associatedtype Resent: Equatable & Sendable
    static var screen: LinkSentDescription { get }
    /// "Resend link": `link` sent to `address` again, answered as `reply`; nil when it cannot be sent again
    /// from here (the revert link comes with a change).
    static func resend<Reply: Equatable & Sendable>(
        _ link: AnyLinkPurpose, to address: String, _ reply: @escaping @Sendable (Result<Resent, APIError>) -> Reply
    ) -> Command?
    /// Where the resent link went, and when another may be asked for.
    static func resent(_ answer: Resent, at now: Date) -> (address: String, resendAfter: Date)
    static var gallery: [GalleryEntry] { get }
    static var defaultGalleryState: String { get }
    static var specNotes: SpecNotes { get }
}

extension LinkSentFlow {
    public static var defaultGalleryState: String { "countdown" }
}

/// A link the person asked for by typing the address (a password reset, a recovery): the address alone says
/// what the link is, and the screen that asked for it (`LinkRequestScreen`) sends it with this flow's resend.
public protocol RequestedLinkFlow: LinkSentFlow {
    /// The link that went to `address`.
    static func link(sentTo address: String) -> AnyLinkPurpose
}

extension LinkSentScreen where Flow: RequestedLinkFlow {
    public init(
        email: String, resendAfter: Date, canResend: Bool = false, isResending: Bool = false, error: String? = nil
    ) {
        self.init(
            link: Flow.link(sentTo: email), sentTo: email, resendAfter: resendAfter, canResend: canResend,
            isResending: isResending, error: error)
    }
}

/// "Check your email": a link went out, and the screen waits for it to be opened (seed 000: it never moves
/// on by itself): from the outbox, pasted here, or handed over with `accessdeck open-link`, which push
/// "Verifying your link…". Resend waits for its countdown (the flow's cooldown or the server's wait); a 429
/// says so in the flow's words. One screen for every flow: a password reset, a recovery, a re-auth or an
/// email change; what differs is the flow's data (`LinkSentFlow`).
public struct LinkSentScreen<Flow: LinkSentFlow>: ScreenModel {
    /// What the link is for: how opening it is checked, and what follows.
    public var link: AnyLinkPurpose
    public var sentTo: String
    /// Resend is offered from then on: the flow's cooldown, or the server's wait.
    public var resendAfter: Date
    /// The countdown has run out; kept so the clock stops once Resend is offered.
    public var canResend: Bool
    public var isResending: Bool
    public var error: String?
    /// The server's 429 on resending, until it passes (its banner, where the flow shows one).
    public var limit: RateLimit?
    /// "Didn't get the email?" is open.
    public var showsHelp: Bool
    /// The resend was a 404: the backend holds no change any more, so "Start the change again" replaces it.
    public var startsAgain: Bool

    public init(
        link: AnyLinkPurpose, sentTo: String, resendAfter: Date, canResend: Bool = false, isResending: Bool = false,
        error: String? = nil, limit: RateLimit? = nil, showsHelp: Bool = false, startsAgain: Bool = false
    ) {
        self.link = link
        self.sentTo = sentTo
        self.resendAfter = max(resendAfter, limit?.until ?? .distantPast)
        self.canResend = canResend
        self.isResending = isResending
        self.error = error
        self.limit = limit
        self.showsHelp = showsHelp
        self.startsAgain = startsAgain
    }

    public var id: String { Flow.screen.id }
    public static var gallery: [GalleryEntry] { Flow.gallery }
    public static var defaultGalleryState: String { Flow.defaultGalleryState }
    public static var specNotes: SpecNotes { Flow.specNotes }
    public var needsClock: Bool { !canResend }

    static var editKey: Key { .character("e") }
    static var supportKey: Key { .character("s") }
    static var helpKey: Key { .character("h") }
    static var mailKey: Key { .character("m") }
    static var resendKeys: [Key] { [.enter, .character("r")] }
    /// Seed 001: "mailto: as a fallback to open the default mail client" (no address: just the inbox).
    static var mailApp: URL { URL(string: "mailto:")! }
    static var notALinkText: String { "That doesn't look like the link from the email. Paste the whole link." }

    /// Seed 001: "check spam, try different address, resend"; a link to the account's own address (re-auth)
    /// has no other address to try (issue 28 item 17).
    static func help(canEditAddress: Bool) -> [String] {
        [
            "Check your spam or junk folder.",
            canEditAddress
                ? "Make sure the address is right, or try a different one."
                : "It went to the address on your account, which can't be changed here.",
            "Still nothing? Resend the link when the countdown ends.",
        ]
    }

    func secondsLeft(_ context: ScreenContext) -> Int { Banner.secondsLeft(until: resendAfter, now: context.now) }

    public func banner(_ context: ScreenContext) -> Banner? {
        Flow.screen.rateLimited == .serverWords ? limit?.banner(at: context.now) : nil
    }

    public enum Intent: Sendable { case outbox, resend, startAgain, edit, support, mail, help }
    public enum Reply: Equatable, Sendable { case resend(Result<Flow.Resent, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        let screen = Flow.screen
        var bindings: [KeyBinding<Intent>] = []
        if context.options.hasReferenceBackend { bindings.append(.outbox("Open the link", .outbox)) }
        // Resend exists only once the countdown is over, and not once the backend said nothing is pending.
        if startsAgain {
            bindings.append(KeyBinding(Self.resendKeys, LinkExpiredScreen.startAgainText, .startAgain))
        } else if secondsLeft(context) == 0, Flow.resend(link, to: sentTo, Reply.resend) != nil {
            bindings.append(KeyBinding(Self.resendKeys, "Resend link", .resend))
        }
        if link.base.canEditAddress { bindings.append(KeyBinding([Self.editKey], "Edit email", .edit)) }
        if screen.offersSupport { bindings.append(KeyBinding([Self.supportKey], "Contact support", .support)) }
        if screen.offersHelp {
            bindings.append(KeyBinding([Self.mailKey], "Open mail app", inFooter: false, .mail))
            bindings.append(KeyBinding([Self.helpKey], showsHelp ? "Hide help" : "Didn't get it?", .help))
        }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .outbox:
            return [.showOutbox]
        case .help:
            showsHelp.toggle()
            return []
        case .mail:
            let outbox =
                context.options.hasReferenceBackend ? " The reference backend's mail is in the outbox (Ctrl+O)." : ""
            return [.run(.open(Self.mailApp)), .showToast("Opening your mail app.\(outbox)")]
        case .edit:
            // Back to the field with the address as typed: the screen below is the one that sent it.
            return Flow.screen.editTellsSender ? [.deliverBelow(to: NewEmailScreen.self, EditAddress()), .pop] : [.pop]
        case .support:
            return [.contactSupport(typed: .email(sentTo))]
        case .startAgain:
            return link.base.startAgain(context) ?? []
        case .resend:
            guard !isResending, let resend = Flow.resend(link, to: sentTo, Reply.resend) else { return [] }
            isResending = true
            error = nil
            return [resend]
        }
    }

    /// A paste reaches a screen that takes no typing: the link from the mail, tapped.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .paste(let text) = event else { return nil }
        return openLink(text, context)
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isResending = false
        let screen = Flow.screen
        switch reply {
        case .resend(.success(let answer)):
            (sentTo, resendAfter) = Flow.resent(answer, at: context.now)
            canResend = false
            return screen.resentText.map { [.showToast($0)] } ?? []
        case .resend(.failure(.rateLimited(let retryAfter, let message, let kind))):
            switch screen.rateLimited {
            case .countdown: error = retryAfter == nil ? message : nil
            // With a wait, the banner says it (the limit, or the server's words for one it does not name).
            case .serverWords: error = retryAfter == nil ? message : nil
            case .seed(let words): error = words
            }
            guard let retryAfter else { return [] }
            let until = context.now + TimeInterval(retryAfter)
            limit = RateLimit(until: until, kind: kind, message: message)
            resendAfter = max(resendAfter, until)
            canResend = false
        case .resend(.failure(.offline)) where screen.offlineText != nil:
            error = screen.offlineText
        case .resend(.failure(let failure)):
            error = failure.message
            // As on "This link has expired": the backend no longer counts the change as pending (issue 27).
            if case .server(404, _, _) = failure, link.base.startAgain(context) != nil { startsAgain = true }
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        // The 429's words go with its wait.
        if let limit, context.now >= limit.until {
            self.limit = nil
            error = nil
        }
        if !canResend, secondsLeft(context) == 0 { canResend = true }
        return []
    }

    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard link.base.accepts(message), let token = message.token else { return nil }
        return [.push(VerifyingLinkScreen(link: link, token: token, shownAt: context.now))]
    }

    /// The link pasted from the mail (or just its token) opens as if tapped; the backend judges it.
    public mutating func openLink(_ text: String, _ context: ScreenContext) -> [Command]? {
        guard let token = PastedLink.token(from: text) else {
            error = Self.notALinkText
            return []
        }
        error = nil
        return [.push(VerifyingLinkScreen(link: link, token: token, shownAt: context.now))]
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let screen = Flow.screen
        canvas.title("Check your email")
        canvas.paragraph(screen.sentText(sentTo))
        let open = context.options.hasReferenceBackend ? "Open it from the outbox (Ctrl+O), or paste" : "Paste"
        canvas.paragraph(screen.pasteHint ?? "\(open) the link here to open it.", style: .muted)
        let left = secondsLeft(context)
        if startsAgain {
            canvas.row(ListRow(LinkExpiredScreen.startAgainText, control: .chevron, isSelected: true))
        } else if left > 0 {
            canvas.paragraph("Resend link in \(TextLayout.countdown(seconds: left))", style: .muted)
        } else {
            canvas.row(ListRow("Resend link", control: .chevron, isSelected: true, isDisabled: isResending))
        }
        if isResending { canvas.paragraph("Sending…", style: .muted) }
        if let error { canvas.paragraph(error, style: .danger) }
        let canEdit = link.base.canEditAddress
        if canEdit {
            canvas.paragraph("Wrong address? Edit email (e)", style: .muted, spacing: screen.offersSupport ? 0 : 1)
        }
        if screen.offersSupport {
            canvas.paragraph("Lost your phone and this email too? Contact support (s)", style: .muted)
        }
        guard screen.offersHelp else { return }
        canvas.paragraph("Didn't get the email? (h)  ·  Open mail app (m)", style: .muted)
        if showsHelp {
            for line in Self.help(canEditAddress: canEdit) { canvas.paragraph("• " + line) }
        }
    }
}

/// "Edit email" on "Check your email", handed to the screen that sent the link before it is shown again.
public struct EditAddress: Equatable, Sendable {}
