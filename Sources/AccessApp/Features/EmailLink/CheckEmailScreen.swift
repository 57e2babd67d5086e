import AccessAPI
import Foundation
import TerminalKit

/// "Check your email": a link went out; the screen waits for the user to open it (seed 000: not
/// auto-advancing). Here the link is opened from the outbox panel.
///
/// "Wrong address? Edit email" only where the user typed the address (email change and add): a
/// re-auth link goes to the email already on the account, and changing that is itself a sensitive
/// change that needs this very verification.
public struct CheckEmailScreen: ScreenModel {
    public static let resendCooldown = RateLimit.sendCooldown

    public var link: AnyLinkPurpose
    public var sentTo: String
    public var sentAt: Date
    /// The countdown has run out; kept so the clock stops once "Resend link" is offered.
    public var canResend: Bool
    public var isResending: Bool
    public var error: String?
    /// The server's 429 on resending: no resend, and a countdown banner, until it passes.
    public var limit: RateLimit?
    /// "Didn't get the email?" is open.
    public var showsHelp: Bool
    /// The resend was a 404: the backend holds no change any more, so "Start the change again" replaces it.
    public var startsAgain: Bool

    public init(
        link: AnyLinkPurpose, sentTo: String, sentAt: Date, canResend: Bool = false, isResending: Bool = false,
        error: String? = nil, limit: RateLimit? = nil, showsHelp: Bool = false, startsAgain: Bool = false
    ) {
        self.startsAgain = startsAgain
        self.limit = limit
        self.showsHelp = showsHelp
        self.link = link
        self.sentTo = sentTo
        self.sentAt = sentAt
        self.canResend = canResend
        self.isResending = isResending
        self.error = error
    }

    /// Waiting for a re-auth link.
    public init(
        flow: AnyFlow, sentTo: String, sentAt: Date, canResend: Bool = false, isResending: Bool = false,
        error: String? = nil, limit: RateLimit? = nil, showsHelp: Bool = false
    ) {
        self.init(
            link: .reauth(flow), sentTo: sentTo, sentAt: sentAt, canResend: canResend, isResending: isResending,
            error: error, limit: limit, showsHelp: showsHelp)
    }

    public var id: String { "check-email" }

    static let editKey = Key.character("e")
    static let helpKey = Key.character("h")
    static let mailKey = Key.character("m")
    /// Seed 001: "mailto: as a fallback to open the default mail client" (no address: just the inbox).
    static let mailApp = URL(string: "mailto:")!
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
    public var needsClock: Bool { !canResend }

    var resendAt: Date { max(sentAt.addingTimeInterval(Self.resendCooldown), limit?.until ?? .distantPast) }

    public func banner(_ context: ScreenContext) -> Banner? { limit?.banner(at: context.now) }

    func secondsLeft(_ context: ScreenContext) -> Int { Banner.secondsLeft(until: resendAt, now: context.now) }

    public enum Intent: Sendable { case outbox, resend, startAgain, edit, mail, help }
    public enum Reply: Equatable, Sendable { case resend(Result<EmailLinkSent, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if context.options.hasReferenceBackend { bindings.append(.outbox("Open the link", .outbox)) }
        // Resend exists only once the countdown is over, and not once the backend said nothing is pending.
        if startsAgain {
            bindings.append(KeyBinding([.enter, .character("r")], LinkExpiredScreen.startAgainText, .startAgain))
        } else if secondsLeft(context) == 0, link.canResend {
            bindings.append(KeyBinding([.enter, .character("r")], "Resend link", .resend))
        }
        if link.base.canEditAddress { bindings.append(KeyBinding([Self.editKey], "Edit email", .edit)) }
        bindings.append(KeyBinding([Self.mailKey], "Open mail app", inFooter: false, .mail))
        bindings.append(KeyBinding([Self.helpKey], showsHelp ? "Hide help" : "Didn't get it?", .help))
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
            // Back to the field with the address as typed: the screen below is the one that sent it, and
            // it is told why, so the address has the focus and nothing judged before stays.
            return [.deliverBelow(to: NewEmailScreen.self, EditAddress()), .pop]
        case .startAgain:
            return link.base.startAgain(context) ?? []
        case .resend:
            guard !isResending, let resend = link.resend(Reply.resend) else { return [] }
            isResending = true
            error = nil
            return [resend]
        }
    }

    /// A paste is the link from the mail.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .paste(let text) = event else { return nil }
        return openLink(text, context)
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isResending = false
        switch reply {
        case .resend(.success(let sent)):
            sentTo = sent.sentTo
            sentAt = context.now
            canResend = false
        case .resend(.failure(.rateLimited(nil, let message, _))):
            error = message
        case .resend(.failure(.rateLimited(let retryAfter?, let message, let kind))):
            error = message
            limit = RateLimit(until: context.now.addingTimeInterval(TimeInterval(retryAfter)), kind: kind)
            canResend = false
        case .resend(.failure(let failure)):
            error = failure.message
            // As on "This link has expired": the backend no longer counts the change as pending (issue 27).
            if case .server(404, _, _) = failure, link.base.startAgain(context) != nil { startsAgain = true }
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
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

    static let pasteHint = "Paste the link from the email here to open it."
    static let notALinkText = "That doesn't look like the link from the email. Paste the whole link."

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Check your email")
        canvas.paragraph("We sent a verification link to \(sentTo). Tap it to confirm.")
        canvas.paragraph(Self.pasteHint, style: .muted)
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
        if link.base.canEditAddress { canvas.paragraph("Wrong address? Edit email (e)", style: .muted) }
        canvas.paragraph("Didn't get the email? (h)  ·  Open mail app (m)", style: .muted)
        if showsHelp {
            for line in Self.help(canEditAddress: link.base.canEditAddress) { canvas.paragraph("• " + line) }
        }
    }
}

/// "Edit email" on "Check your email", handed to the screen that sent the link before it is shown again.
public struct EditAddress: Equatable, Sendable {}
