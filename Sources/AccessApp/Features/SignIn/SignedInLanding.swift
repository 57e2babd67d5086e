import AccessAPI

/// Where a successful sign-in lands. A new account will continue into onboarding (issue 15); until
/// that lands, every sign-in lands on the Settings root, as the QA shortcut does.
enum SignedInLanding {
    static func root(for signedIn: SignedIn) -> any ScreenModel { SettingsScreen() }
}
