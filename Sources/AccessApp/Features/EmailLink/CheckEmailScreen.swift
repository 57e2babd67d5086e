import AccessAPI
import Foundation

/// "Check your email" for a link another screen sent: "Verify it's you" by email, and the email change or
/// add, whose link goes to the new address. Resend after a 30 s countdown; a 429 says the server's words
/// and counts its wait down in a banner; "Didn't get it?" (h) and the mail app (m).
///
/// "Wrong address? Edit email" only where the user typed the address (email change and add): a
/// re-auth link goes to the email already on the account, and changing that is itself a sensitive
/// change that needs this very verification.
public typealias CheckEmailScreen = LinkSentScreen<CheckEmail>

/// The flow of `CheckEmailScreen`: the link is the purpose's own, and so is its resend.
public enum CheckEmail: LinkSentFlow {
    public static let screen = LinkSentDescription(
        id: "check-email", sentText: { "We sent a verification link to \($0). Tap it to confirm." },
        pasteHint: pasteHint, rateLimited: .serverWords, editTellsSender: true, offersHelp: true)

    static let pasteHint = "Paste the link from the email here to open it."

    public static func resend<Reply: Equatable & Sendable>(
        _ link: AnyLinkPurpose, to address: String,
        _ reply: @escaping @Sendable (Result<EmailLinkSent, APIError>) -> Reply
    ) -> Command? {
        link.resend(reply)
    }

    /// The countdown starts again from now: the backend's cooldown is the app's too.
    public static func resent(_ sent: EmailLinkSent, at now: Date) -> (address: String, resendAfter: Date) {
        (sent.sentTo, now + CheckEmailScreen.resendCooldown)
    }
}

extension LinkSentScreen where Flow == CheckEmail {
    static var resendCooldown: TimeInterval { RateLimit.sendCooldown }
    static var pasteHint: String { CheckEmail.pasteHint }

    /// Sent at `sentAt`: Resend after the cooldown, or after the 429's wait.
    public init(
        link: AnyLinkPurpose, sentTo: String, sentAt: Date, canResend: Bool = false, isResending: Bool = false,
        error: String? = nil, limit: RateLimit? = nil, showsHelp: Bool = false, startsAgain: Bool = false
    ) {
        self.init(
            link: link, sentTo: sentTo, resendAfter: sentAt + Self.resendCooldown, canResend: canResend,
            isResending: isResending, error: error, limit: limit, showsHelp: showsHelp, startsAgain: startsAgain)
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
}
