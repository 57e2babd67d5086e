/// Every screen in every state, for demos.
enum GalleryFeature: Feature {
    static let screens: [any ScreenModel.Type] = [GalleryScreen.self, PreviewScreen.self]
}
