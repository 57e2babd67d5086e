import AccessAPI
import AccessCore
import Foundation

/// The recovery link is on its way, or not: the backend answers the same whether or not an account
/// uses the address, and so does this screen. The link is opened from the outbox or pasted; Resend
/// waits for the server's `resend_after`; support is the way left when the email is lost too.
public typealias RecoverySentScreen = LinkSentScreen<RecoverySent>

/// The flow of "Can't access your account?" (`RecoveryRequestScreen`) and of `RecoverySentScreen`: one
/// request, asked there and again here. A 429 says seed 003's sentence over its countdown.
public enum RecoverySent: RequestedLinkFlow {
    /// Seed 003's error copy.
    public static let rateLimitedText = "For security reasons, please wait before requesting another recovery"

    public static let screen = LinkSentDescription(
        id: "recovery-sent",
        sentText: {
            "If an account uses \($0), we've sent it a link to get back in. The link works once, for \(RuleText.duration(LinkLifetimes.recovery))."
        },
        resentText: LinkSentDescription.newLinkText, rateLimited: .seed(rateLimitedText),
        offlineText: LinkRequestDescription.offlineText, offersSupport: true)

    public static func link(sentTo address: String) -> AnyLinkPurpose { AnyLinkPurpose(AccountRecoveryLink()) }

    public static func resend<Reply: Equatable & Sendable>(
        _ link: AnyLinkPurpose, to address: String,
        _ reply: @escaping @Sendable (Result<RecoveryStarted, APIError>) -> Reply
    ) -> Command? {
        .call(Endpoint.StartRecovery(email: address), reply)
    }

    public static func resent(_ started: RecoveryStarted, at now: Date) -> (address: String, resendAfter: Date) {
        (started.email, started.resendAfter)
    }
}
