import Foundation

extension Sheet {
    public static var confirmLogout: Sheet {
        Sheet(
            title: "Log out", body: "Are you sure you want to logout?",
            actions: [
                (.init("Log out", isDestructive: true), [.logOut]),
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
