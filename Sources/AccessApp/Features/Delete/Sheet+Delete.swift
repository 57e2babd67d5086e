import Foundation

extension Sheet {
    /// The last chance, after "Verify it's you" (seed 000): trash can, stark title, one
    /// destructive button.
    public static var confirmDeleteAccount: Sheet {
        Sheet(
            title: "Delete your account forever?",
            body: "This can't be undone. You'll be signed out and your data will be permanently removed.",
            icon: .trash,
            actions: [
                (.init("Delete account", isDestructive: true), [.push(DeletingAccountScreen())]),
                (.init("Cancel"), []),
            ])
    }

    static var deleteGallery: [GalleryEntry] {
        [
            GalleryEntry("delete-account:confirm", "The last chance after Verify it's you") { now in
                var state = SampleData.state([DeleteAccountScreen()], now: now)
                state.overlay = .sheet(.confirmDeleteAccount)
                return state
            },
            GalleryEntry("reauth-picker:delete-account", "Verify it's you before deleting: every method") {
                SampleData.state([DeleteAccountScreen(), ReauthPickerScreen(flow: .deleteAccount)], now: $0)
            },
        ]
    }
}
