/// "Verify it's you" and the ways through it (seed 000).
enum ReauthFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        ReauthPickerScreen.self, PasswordReauthScreen.self,
    ]
}
