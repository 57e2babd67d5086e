import AccessAPI

/// Where a successful sign-in lands: the onboarding step the account stands at (seed 003), else the
/// Settings root. A new account whose backend sent no profile starts at the profile step; an existing
/// one without a profile is taken as onboarded.
enum SignedInLanding {
    static func root(for signedIn: SignedIn) -> any ScreenModel {
        if signedIn.profile == nil, signedIn.isNewUser { return ProfileScreen() }
        return Onboarding.screen(for: signedIn.profile)
    }
}
