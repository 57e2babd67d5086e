import AccessAPI
import Foundation
import TerminalKit

extension OnboardingDoneScreen {
    public static var defaultGalleryState: String { "verified" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("onboarding-done:verified", "You're all set, the recovery email verified") { now in
                SampleData.onboarding(
                    OnboardingDoneScreen(),
                    profile: SampleData.profile(.finish, email: "jdoe@mail.com", verified: true), now: now)
            },
            GalleryEntry("onboarding-done:unverified", "You're all set, the recovery email still unverified") {
                now in
                SampleData.onboarding(
                    OnboardingDoneScreen(), profile: SampleData.profile(.finish, email: "jdoe@mail.com"), now: now)
            },
            GalleryEntry("onboarding-done:no-email", "You're all set, the recovery email skipped") { now in
                SampleData.onboarding(OnboardingDoneScreen(), profile: SampleData.profile(.finish), now: now)
            },
            GalleryEntry("onboarding-done:finishing", "Enter pressed: finishing") { now in
                SampleData.onboarding(
                    OnboardingDoneScreen(isWorking: true), profile: SampleData.profile(.finish), now: now)
            },
        ]
    }
}
