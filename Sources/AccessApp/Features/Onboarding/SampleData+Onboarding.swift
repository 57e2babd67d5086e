import AccessAPI
import Foundation

extension SampleData {
    /// A new account at each onboarding step, as the backend describes it.
    static func profile(
        _ step: OnboardingStep, username: String? = "jdoe", email: String? = nil, verified: Bool = false
    ) -> Profile {
        Profile(username: username, onboardingStep: .init(step), email: email, emailVerified: verified)
    }

    /// A signed-in app standing on one onboarding screen, with the account's profile.
    static func onboarding(_ screen: some ScreenModel, profile: Profile?, now: Date) -> AppState {
        var state = AppState(root: screen, now: now)
        state.methods = phoneOnly
        state.methodsFetchedAt = now
        state.profile = profile
        return state
    }
}
