/// Log out (seed 002, on the Settings root per seed 000): the confirmation sheet, then at once the
/// sign-in screen; `POST /auth/logout` goes out in the background (`Command.logOut`).
enum LogoutFeature: Feature {
    static let screens: [any ScreenModel.Type] = []
    static var sheetGallery: [GalleryEntry] { Sheet.logoutGallery }
}
