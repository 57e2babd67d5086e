import AccessAPI
import AccessCore
import Foundation
import TerminalKit

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
        switch profile.onboardingStep {
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
    }

    /// The four steps as the person counts them; the phone and its code were step 1, at sign-in.
    static let stepCount = 4
}

/// "Step 2 of 4  ● ● ○ ○" under every onboarding step's title (seed 003: "Clear progress steps").
struct OnboardingProgress {
    var step: Int

    func text(_ glyphs: Glyphs) -> String {
        let dots = (1...Onboarding.stepCount).map { index in
            index <= step ? (glyphs == .ascii ? "#" : "●") : (glyphs == .ascii ? "-" : "○")
        }
        return "Step \(step) of \(Onboarding.stepCount)  \(dots.joined(separator: " "))"
    }

    /// The step's title with the progress under it, and a note beside the progress.
    func title(_ title: String, note: String? = nil, into canvas: inout Canvas) {
        canvas.title(title, subtitle: [text(canvas.glyphs), note].compactMap(\.self).joined(separator: "  ·  "))
    }
}

// MARK: - Links

/// The registration link sent to the recovery email, opened while "Verify your email" waits for it:
/// the answer goes back to that screen, which asks where onboarding stands now.
struct RecoveryEmailLink: LinkPurpose {
    public init() {}
    /// Sent again from "Verify your email", which knows the address.
    public var resend: NoResend? { nil }
    public func confirm(token: String) -> ConfirmRegistration { ConfirmRegistration(token: token) }
    public func confirmed(_ confirmed: RegistrationConfirmed, _ context: ScreenContext) -> [Command] {
        [.returnTo(VerifyRecoveryEmailScreen.self, with: confirmed)]
    }
    public func accepts(_ message: OutboxMessage) -> Bool { RegistrationLink().accepts(message) }
    public var canEditAddress: Bool { false }
    public var linkPath: String { RegistrationLink().linkPath }
    public var lifetimeText: String { RegistrationLink.lifetimeText }
}

// MARK: - Requests

struct LoadProfile: APIRequest {
    func perform(_ api: APIContext) async throws -> Profile { try await api.client.profile() }
}

struct CheckUsernameAvailability: APIRequest {
    var username: String
    func perform(_ api: APIContext) async throws -> UsernameAvailability {
        try await api.client.usernameAvailability(username)
    }
}

struct UpdateProfile: APIRequest {
    var username: String
    var photo: String?
    func perform(_ api: APIContext) async throws -> Profile {
        try await api.client.updateProfile(username: username, photo: photo)
    }
}

struct SetRecoveryEmail: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> Profile {
        try await api.client.setRecoveryEmail(email: email, password: password.value)
    }
}

struct ContinueOnboarding: APIRequest {
    var from: OnboardingStep
    func perform(_ api: APIContext) async throws -> Profile { try await api.client.continueOnboarding(from: from) }
}
