import AccessAPI
import Foundation
import TerminalKit

extension SettingsScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("settings:default", "Settings root, first row selected") { AppState(now: $0) },
            GalleryEntry("settings:named", "Signed in with a display name: Settings names the person") { now in
                var state = AppState(now: now)
                state.profile = Profile(
                    username: "jdoe", displayName: "Jane Doe", onboardingStep: .init(.complete), emailVerified: true)
                return state
            },
            GalleryEntry("settings:help", "The ? help over Settings") { now in
                var state = AppState(now: now)
                state.overlay = .help
                return state
            },
            GalleryEntry("settings:toast", "A toast over Settings") { now in
                var state = AppState(now: now)
                state.toast = Toast("Copied support@321.fit to clipboard", shownAt: now)
                return state
            },
            GalleryEntry("settings:verify-reminder", "The recovery email waits for its link: a reminder") { now in
                var state = AppState(now: now)
                state.profile = SampleData.profile(.complete, email: "jdoe@mail.com")
                return state
            },
            GalleryEntry("settings:verify-resent", "The link sent again: Resend counts down") { now in
                var state = AppState(root: SettingsScreen(resendAfter: now + 24), now: now)
                state.profile = SampleData.profile(.complete, email: "jdoe@mail.com")
                return state
            },
            GalleryEntry(
                "settings:unknown-onboarding-step", "The server names an onboarding step the app does not know"
            ) { now in
                var state = AppState(now: now)
                state.profile = Profile(
                    username: "jdoe", onboardingStep: .init(rawValue: "choose_sport"), emailVerified: true)
                return state
            },
            GalleryEntry("settings:limited", "Back in by the recovery email: limited until the phone is verified") {
                SampleData.limitedState([], now: $0)
            },
            GalleryEntry("settings:restored", "The phone verified again: full access, the toast says so") { now in
                var state = SampleData.limitedState([], now: now)
                state.profile?.access = .init(.full)
                state.toast = Toast(LimitedAccess.restoredText, shownAt: now)
                return state
            },
        ]
    }
}
