/// The Email & password branch of seeds 000/001: the sub-hub, change email, add email & password,
/// and set a new password. Links go through the shared EmailLink screens.
enum EmailFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        EmailPasswordScreen.self, NewEmailScreen.self, SetPasswordScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.emailGallery }
}
