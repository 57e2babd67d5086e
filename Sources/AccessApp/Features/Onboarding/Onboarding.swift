import AccessAPI
import Foundation

/// Seed 003's "Profile Creation & Recovery Setup", after the phone and its code: a username (and a
/// photo), an optional recovery email with its password, that email's link (optional too), then "You're
/// all set". The backend keeps where each account stands (`Profile.onboarding_step`); every answer
/// moves the app to the screen for the new step, with nothing to go back to.
enum OnboardingFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        ProfileScreen.self, RecoveryEmailScreen.self, VerifyRecoveryEmailScreen.self, OnboardingDoneScreen.self,
    ]
}

enum Onboarding {
    /// The screen for where the account stands; no profile (a backend without onboarding, or none
    /// fetched) or a finished one: the Settings root.
    /// `linkSentAt`: the recovery email's link went out just now, so its resend waits the 30 s.
    static func screen(for profile: Profile?, linkSentAt: Date? = nil) -> any ScreenModel {
        guard let profile else { return SettingsScreen() }
        // A step this app does not know (the contract's enum is extensible): the server's next step when
        // it names one this app knows, else Settings; `unknownStepNote` says which.
        guard let step = profile.onboardingStep.known ?? profile.onboardingNextStep?.known else {
            return SettingsScreen()
        }
        switch step {
        case .profile: return ProfileScreen()
        case .recoveryEmail: return RecoveryEmailScreen()
        case .verifyEmail:
            // The step needs an address; a profile without one has nothing to verify.
            guard let email = profile.email else { return OnboardingDoneScreen() }
            return VerifyRecoveryEmailScreen(
                email: email, resendAfter: linkSentAt.map { $0 + VerifyRecoveryEmailScreen.resendCooldown })
        case .finish: return OnboardingDoneScreen()
        case .complete: return SettingsScreen()
        }
    }

    /// A step's answer: the app keeps the profile and stands on the next step's screen alone, so Esc
    /// cannot lead back into a finished step.
    static func advance(to profile: Profile, linkSentAt: Date? = nil) -> [Command] {
        [.setProfile(profile), .resetStack(AnyScreen(screen(for: profile, linkSentAt: linkSentAt)))]
            + (unknownStepNote(profile).map { [.showToast($0)] } ?? [])
    }

    /// What the app says when the server's onboarding step is one it does not know; nil when it knows it.
    static func unknownStepNote(_ profile: Profile?) -> String? {
        guard let profile, profile.onboardingStep.known == nil else { return nil }
        let step = profile.onboardingStep.rawValue
        if let next = profile.onboardingNextStep?.known, next != .complete {
            return
                "This server asks for an onboarding step this app doesn't know (\"\(step)\"), so you're on its next one."
        }
        return "This server asks for an onboarding step this app doesn't know (\"\(step)\"), so you're in Settings."
    }

    /// The four steps as the person counts them; the phone and its code were step 1, at sign-in
    /// ("Continue with phone" shows it).
    static let stepCount = 4

    /// An account that came in through Apple or Google has no phone and was never asked for one (the
    /// backend starts every new account at the profile): its onboarding has no code step.
    static func signedUpWithProvider(_ methods: AuthMethods?) -> Bool {
        guard let methods else { return false }
        return methods.phone == nil && (methods.appleLinked || methods.googleLinked)
    }

    /// An account that came in with its email (a code, or registration's link): no phone, no provider. Its
    /// address is proven, so it never sees the recovery email step.
    static func signedUpWithEmail(_ methods: AuthMethods?) -> Bool {
        guard let methods else { return false }
        return methods.phone == nil && methods.email != nil && !methods.appleLinked && !methods.googleLinked
    }
}
