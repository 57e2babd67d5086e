import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension ResetSent {
    static func sample(_ sent: ResetSentScreen, now: Date, options: AppOptions = .init()) -> AppState {
        ForgotPasswordScreen.sample([ForgotPasswordScreen(email: sent.sentTo), sent], now: now, options: options)
    }

    /// What a reset sends, as the outbox lists it.
    static func outbox(at now: Date) -> [OutboxMessage] {
        [
            OutboxMessage(
                id: 11, channel: "email", to: "jdoe@mail.com", kind: "password_reset_link", purpose: "password_reset",
                code: nil, link: "https://321.fit/reset-password?token=sample", token: "sample", sentAt: now - 3,
                status: .live,
                text: "Open this link to choose a new password: https://321.fit/reset-password?token=sample\nIt works "
                    + "once, for \(RuleText.duration(LinkLifetimes.passwordReset)). If you didn't ask for it, ignore this email.",
                subject: "Reset your 321Fit password")
        ]
    }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("reset-sent:countdown", "Sent (or not: the same words); resend counts down") { now in
                sample(
                    ResetSentScreen(email: "jdoe@mail.com", resendAfter: now + 27), now: now,
                    options: AppOptions(hasReferenceBackend: true))
            },
            GalleryEntry("reset-sent:outbox", "The outbox names the reset link; Enter opens it") { now in
                var state = sample(ResetSentScreen(email: "jdoe@mail.com", resendAfter: now + 27), now: now)
                state.overlay = .outbox(OutboxPanel(messages: outbox(at: now), isLoading: false))
                return state
            },
            GalleryEntry("reset-sent:resend-ready", "The countdown is over: Resend link") { now in
                sample(ResetSentScreen(email: "jdoe@mail.com", resendAfter: now - 5, canResend: true), now: now)
            },
            GalleryEntry("reset-sent:not-a-link", "Something pasted that is not the link") { now in
                sample(
                    ResetSentScreen(
                        email: "jdoe@mail.com", resendAfter: now + 12, error: ResetSentScreen.notALinkText),
                    now: now)
            },
        ]
    }
}
