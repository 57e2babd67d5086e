/// Settings root: the app's entry.
enum SettingsFeature: Feature {
    static let screens: [any ScreenModel.Type] = [SettingsScreen.self]
}
