/// Log out (seed 002, on the Settings root per seed 000): the confirmation sheet, then
/// `POST /auth/logout` while "Logging out…" turns, then the sign-in screen.
enum LogoutFeature: Feature {
    static let screens: [any ScreenModel.Type] = [LoggedOutScreen.self]
    static var sheetGallery: [GalleryEntry] { Sheet.logoutGallery }
}
