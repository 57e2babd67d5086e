import AccessAPI

/// Delete account, in seed 000's order: the info screen, the blocker check (blockers replace
/// "Verify it's you"), "Verify it's you", the final sheet, "Deleting your account…", and the
/// screen that says it is done.
enum DeleteFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        DeleteAccountScreen.self, DeleteBlockersScreen.self, DeletingAccountScreen.self, AccountDeletedScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.deleteGallery }
}

extension APIError {
    /// The server's 409 while a blocker still stands (one was added since the check).
    var isDeleteBlocked: Bool {
        if case .server(409, "delete_blocked", _) = self { return true }
        return false
    }

    /// No answer, or the server failed: asking again may work.
    var isWorthRetrying: Bool {
        switch self {
        case .offline, .timedOut: return true
        case .server(let status, _, _): return status >= 500
        default: return false
        }
    }
}
