/// Contact support (seed 000's "hybrid C").
enum SupportFeature: Feature {
    static let screens: [any ScreenModel.Type] = [ContactSupportScreen.self]
}
