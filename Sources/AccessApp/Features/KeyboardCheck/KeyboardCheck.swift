/// What the terminal sends, for support staff.
enum KeyboardCheckFeature: Feature {
    static let screens: [any ScreenModel.Type] = [KeyboardCheckScreen.self]
}
