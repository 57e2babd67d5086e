import AccessAPI
import Foundation
import TerminalKit

/// Log out (seed 002, on the Settings root per seed 000): the confirmation sheet, then
/// `POST /auth/logout` while "Logging out…" turns, then the signed-out screen. The sign-in
/// screens are not built yet, so the signed-out screen only offers quitting; the next start is
/// signed out.
enum LogoutFeature: Feature {
    static let screens: [any ScreenModel.Type] = [LoggedOutScreen.self]
    static var sheetGallery: [GalleryEntry] { Sheet.logoutGallery }
}

extension Sheet {
    public static var confirmLogout: Sheet {
        Sheet(
            title: "Log out", body: "Are you sure you want to logout?",
            actions: [
                (.init("Log out", isDestructive: true), [.resetStack(LoggedOutScreen())]),
                (.init("Cancel"), []),
            ])
    }

    static var logoutGallery: [GalleryEntry] {
        [
            GalleryEntry("settings:logout-confirm", "Log out chosen: the confirmation") { now in
                var state = AppState(root: SettingsScreen(selection: SettingsScreen.logoutRow), now: now)
                state.overlay = .sheet(.confirmLogout)
                return state
            }
        ]
    }
}

// MARK: - Requests

/// Ends this device's session on the server; any answer (none, a 5xx, a 401) still signs out here.
struct Logout: APIRequest {
    func perform(_ api: APIContext) async throws -> Acknowledged {
        try await api.client.logout()
        return Acknowledged()
    }
}
