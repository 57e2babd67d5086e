import Foundation
import TerminalKit

extension SignInScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("sign-in:default", "Signed out: the ways in") { AppState(root: SignInScreen(), now: $0) },
            GalleryEntry("sign-in:session-expired", "The session could not be refreshed: sign in again") {
                AppState(root: SignInScreen(notice: SignInScreen.sessionExpiredText), now: $0)
            },
            GalleryEntry("sign-in:other-backend", "Against another backend: Apple and Google not available here") {
                AppState(root: SignInScreen(selection: 2), now: $0, options: AppOptions(hasReferenceBackend: false))
            },
        ]
    }
}
