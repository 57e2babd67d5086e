import AccessAPI
import AccessCore
import Foundation

extension RenamePasskeyScreen {
    public static var defaultGalleryState: String { "default" }

    static func galleryState(_ screen: RenamePasskeyScreen, now: Date) -> AppState {
        SampleData.state(
            [PasskeysGallery.screen(now: now, selection: 1), screen], methods: PasskeysGallery.methodsWithPasskey,
            now: now)
    }

    static func passkey(now: Date) -> Passkey { PasskeysGallery.passkeys(now: now)[1] }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("rename-passkey:default", "passkey.renamed: the name in its field") {
                galleryState(RenamePasskeyScreen(passkey: passkey(now: $0)), now: $0)
            },
            GalleryEntry("rename-passkey:empty", "An empty name is refused here, before any call") {
                galleryState(RenamePasskeyScreen(passkey: passkey(now: $0), name: "", error: emptyText), now: $0)
            },
            GalleryEntry("rename-passkey:refused", "passkey.renamed: the server's 422 under the field") {
                galleryState(
                    RenamePasskeyScreen(
                        passkey: passkey(now: $0), name: "   ",
                        error: "name: expected 1 to \(PasskeyRules.maxNameLength) characters, not only spaces."),
                    now: $0)
            },
        ]
    }
}
