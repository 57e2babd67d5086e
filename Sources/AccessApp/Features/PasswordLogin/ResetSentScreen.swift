import AccessAPI
import AccessCore
import Foundation

/// The reset link is on its way, or not: the backend answers the same whether or not an account uses the
/// address, and so does this screen. The link is opened from the outbox or pasted; Resend waits for the
/// server's `resend_after`.
public typealias ResetSentScreen = LinkSentScreen<ResetSent>

/// The flow of "Forgot password?" (`ForgotPasswordScreen`) and of `ResetSentScreen`: one request, asked there
/// and again here. A 429's wait is counted down in its own words.
public enum ResetSent: RequestedLinkFlow {
    public static let screen = LinkSentDescription(
        id: "reset-sent",
        sentText: {
            "If an account uses \($0), we've sent it a link to set a new password. The link works once, for \(RuleText.duration(LinkLifetimes.passwordReset))."
        },
        resentText: LinkSentDescription.newLinkText, rateLimited: .countdown,
        offlineText: LinkRequestDescription.offlineText)

    public static func link(sentTo address: String) -> AnyLinkPurpose {
        AnyLinkPurpose(ForgotPasswordLink(email: address))
    }

    public static func resend<Reply: Equatable & Sendable>(
        _ link: AnyLinkPurpose, to address: String,
        _ reply: @escaping @Sendable (Result<PasswordResetRequested, APIError>) -> Reply
    ) -> Command? {
        .call(Endpoint.RequestPasswordReset(email: address), reply)
    }

    public static func resent(_ requested: PasswordResetRequested, at now: Date) -> (address: String, resendAfter: Date)
    {
        (requested.email, requested.resendAfter)
    }
}
