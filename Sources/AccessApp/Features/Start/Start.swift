/// How the app starts (seeds 002 and 003): with a stored session, a check of it first (a spinner, then
/// straight in, or the sign-in screen if it was refused, or in with the cached data when offline);
/// without one, the Welcome screen.
enum StartFeature: Feature {
    static let screens: [any ScreenModel.Type] = [WelcomeScreen.self, SessionCheckScreen.self]
}
