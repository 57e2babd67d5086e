import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension PasskeysScreen {
    public static var defaultGalleryState: String { "default" }

    static func galleryState(_ screen: PasskeysScreen, now: Date) -> AppState {
        SampleData.state([screen], methods: PasskeysGallery.methodsWithPasskey, now: now)
    }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("passkeys:loading", "First fetch: skeleton rows") { galleryState(PasskeysScreen(), now: $0) },
            GalleryEntry("passkeys:default", "Two passkeys: name, device, created, last used; then Add a passkey") {
                galleryState(PasskeysGallery.screen(now: $0), now: $0)
            },
            GalleryEntry("passkeys:empty", "No passkeys yet: only Add a passkey") {
                galleryState(PasskeysScreen(passkeys: [], isLoading: false), now: $0)
            },
            GalleryEntry("passkeys:cloned", "passkey.cloned: the server turned one off, marked in the list") {
                galleryState(PasskeysGallery.screen(now: $0, clonedSecond: true, selection: 1), now: $0)
            },
            GalleryEntry("passkeys:actions", "Enter on a passkey: Rename or Remove") { now in
                var state = galleryState(PasskeysGallery.screen(now: now, selection: 1), now: now)
                let passkey = PasskeysGallery.passkeys(now: now)[1]
                state.overlay = .sheet(
                    .passkeyActions(
                        passkey, rename: [.push(RenamePasskeyScreen(passkey: passkey))],
                        remove: Reauth.verifyThen(RemovePasskeyFlow(id: passkey.id, name: passkey.name), state.context))
                )
                return state
            },
            GalleryEntry("passkeys:create", "passkey.registered: the Create a passkey sheet (Enter approves)") { now in
                var screen = PasskeysGallery.screen(now: now, selection: 2)
                screen.isWorking = true
                var state = galleryState(screen, now: now)
                state.overlay = .sheet(createSheet(PasskeysGallery.creationOptions(now: now)))
                return state
            },
            GalleryEntry("passkeys:cancelled", "Esc on the Create a passkey sheet: nothing was sent") {
                galleryState(
                    PasskeysGallery.screen(now: $0, selection: 2, error: PasskeyWording.cancelledText), now: $0)
            },
            GalleryEntry("passkeys:expired", "passkey.challenge_expired: the registration's challenge ran out") {
                let error = PasskeyWording.refusal(.codeExpired(message: ""), .register)
                return galleryState(PasskeysGallery.screen(now: $0, selection: 2, error: error), now: $0)
            },
            GalleryEntry("passkeys:refused", "passkey.refused: the attestation did not pass (the key left the device)")
            {
                let error = PasskeyWording.refusal(
                    .server(status: 422, code: "passkey_bad_attestation", message: ""), .register)
                return galleryState(PasskeysGallery.screen(now: $0, selection: 2, error: error), now: $0)
            },
            GalleryEntry("passkeys:confirm-remove", "passkey.removed: after Verify it's you, the confirmation") { now in
                var state = galleryState(PasskeysGallery.screen(now: now, selection: 1), now: now)
                state.overlay = .sheet(confirmRemoveSheet(id: "cred_iphone", name: "iPhone", state.context))
                return state
            },
            GalleryEntry("passkeys:last-method", "passkey.last_method: 409, the hard block") { now in
                var state = galleryState(PasskeysGallery.screen(now: now), now: now)
                state.overlay = .sheet(.cantRemovePasskey)
                return state
            },
        ]
    }
}
