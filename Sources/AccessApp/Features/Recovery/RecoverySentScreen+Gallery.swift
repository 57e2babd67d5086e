import AccessAPI
import Foundation
import TerminalKit

extension RecoverySent {
    static func sampleStack(_ sent: RecoverySentScreen) -> [any ScreenModel] {
        [RecoveryRequestScreen(email: SampleData.recoveryEmail), sent]
    }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("recovery-sent:countdown", "Sent (or not: the same words); resend counts down") { now in
                SampleData.recovering(
                    sampleStack(RecoverySentScreen(email: SampleData.recoveryEmail, resendAfter: now + 27)),
                    now: now, options: AppOptions(hasReferenceBackend: true))
            },
            GalleryEntry("recovery-sent:outbox", "The outbox names what a recovery sends") { now in
                var state = SampleData.recovering(
                    sampleStack(RecoverySentScreen(email: SampleData.recoveryEmail, resendAfter: now + 27)),
                    now: now)
                state.overlay = .outbox(OutboxPanel(messages: SampleData.recoveryOutbox(at: now), isLoading: false))
                return state
            },
            GalleryEntry("recovery-sent:resend-ready", "The countdown is over: Resend link") { now in
                SampleData.recovering(
                    sampleStack(
                        RecoverySentScreen(email: SampleData.recoveryEmail, resendAfter: now - 5, canResend: true)),
                    now: now)
            },
            GalleryEntry("recovery-sent:rate-limited", "Resending was refused (429): wait, counted down") { now in
                SampleData.recovering(
                    sampleStack(
                        RecoverySentScreen(
                            email: SampleData.recoveryEmail, resendAfter: now + 600,
                            error: RecoverySent.rateLimitedText)),
                    now: now)
            },
            GalleryEntry("recovery-sent:not-a-link", "Something pasted that is not the link") { now in
                SampleData.recovering(
                    sampleStack(
                        RecoverySentScreen(
                            email: SampleData.recoveryEmail, resendAfter: now + 12,
                            error: RecoverySentScreen.notALinkText)),
                    now: now)
            },
        ]
    }
}
