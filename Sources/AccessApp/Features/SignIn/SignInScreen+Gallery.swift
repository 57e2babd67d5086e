import Foundation
import TerminalKit

extension SignInScreen {
    public static var gallery: [GalleryEntry] {
        [GalleryEntry("sign-in:default", "Signed out: the ways in") { AppState(root: SignInScreen(), now: $0) }]
    }
}
