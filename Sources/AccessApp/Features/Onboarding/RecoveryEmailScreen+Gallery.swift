import AccessAPI
import Foundation
import TerminalKit

extension RecoveryEmailScreen {
    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        func entry(
            _ name: String, _ title: String, _ screen: @escaping @Sendable (Date) -> RecoveryEmailScreen
        )
            -> GalleryEntry
        {
            GalleryEntry("recovery-email:\(name)", title) { now in
                SampleData.onboarding(screen(now), profile: SampleData.profile(.recoveryEmail), now: now)
            }
        }
        return [
            entry("empty", "Step 3: the recovery email, nothing typed") { _ in RecoveryEmailScreen() },
            entry("filled", "Address and a good password: Continue is on") { _ in
                RecoveryEmailScreen(
                    email: "jdoe@mail.com", password: "violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta,
                    passwordChecked: true)
            },
            entry("weak-password", "A password that breaks the rules") { _ in
                RecoveryEmailScreen(
                    email: "jdoe@mail.com", password: "12345678", confirmation: "12345678", focus: .password,
                    passwordChecked: true)
            },
            entry("shown-mismatch", "Ctrl+R shows both passwords; the second differs") { _ in
                RecoveryEmailScreen(
                    email: "jdoe@mail.com", password: "violet-harbor-77", confirmation: "violet-harbor-78",
                    showsPassword: true, focus: .confirm, passwordChecked: true)
            },
            entry("skip-focused", "Skip for now, focused") { _ in RecoveryEmailScreen(focus: .skip) },
            entry("saving", "Continue pressed: saving") { _ in
                RecoveryEmailScreen(
                    email: "jdoe@mail.com", password: "violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta,
                    passwordChecked: true,
                    working: .cta)
            },
            entry("skipping", "Skip for now pressed: on its way") { _ in
                RecoveryEmailScreen(focus: .skip, working: .skip)
            },
            entry("offline", "Saving found no connection: what was typed is kept") { _ in
                RecoveryEmailScreen(
                    email: "jdoe@mail.com", password: "violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta,
                    passwordChecked: true,
                    error: APIError.offline(reason: "refused").message)
            },
            entry("taken", "The address belongs to another account") { _ in
                RecoveryEmailScreen(
                    email: "taken@mail.com", password: "violet-harbor-77", confirmation: "violet-harbor-77",
                    focus: .email, passwordChecked: true,
                    emailError: NewEmailScreen.takenText)
            },
            entry("rate-limited", "Too many emails to the address: a countdown") { now in
                RecoveryEmailScreen(
                    email: "jdoe@mail.com", password: "violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta,
                    passwordChecked: true,
                    limit: RateLimit(target: "jdoe@mail.com", until: now + 95))
            },
        ]
    }
}
