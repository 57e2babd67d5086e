import Foundation
import TerminalKit

extension PasswordLoginScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("password-login:default", "Log in with an email and a password") {
                AppState(root: PasswordLoginScreen(), now: $0)
            }
        ]
    }
}
