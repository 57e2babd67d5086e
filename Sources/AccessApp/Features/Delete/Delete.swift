/// Delete account, in seed 000's order: the info screen, the blocker check (blockers replace
/// "Verify it's you"), "Verify it's you", the final sheet, "Deleting your account…", and the
/// screen that says it is done.
enum DeleteFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        DeleteAccountScreen.self, DeleteBlockersScreen.self, DeletingAccountScreen.self, AccountDeletedScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.deleteGallery }
}
