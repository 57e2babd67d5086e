/// Account recovery by email (seed 003): "Can't access your account?" on the sign-in screen asks for
/// the recovery email, a one-shot link (24 h) goes to it, and the link with that address's password
/// signs in with limited access — profile and settings — until a phone is verified again.
enum RecoveryFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        RecoveryRequestScreen.self, RecoverySentScreen.self, RecoveryPasswordScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.limitedAccessGallery }
}
