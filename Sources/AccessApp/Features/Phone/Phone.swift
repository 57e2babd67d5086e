/// The phone flows: change the number (after "Verify it's you") or add one (seeds 000/001), and
/// verify one again after a recovery by email (seed 003).
enum PhoneFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        EnterPhoneScreen.self, CountryPickerScreen.self, EnterCodeScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.phoneGallery }
}
