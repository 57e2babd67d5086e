import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension SignInEmailScreen {
    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("sign-in-email:empty", "Continue with email, nothing typed") {
                AppState(root: SignInEmailScreen(), now: $0)
            },
            GalleryEntry("sign-in-email:invalid", "Not an address: said before any call") {
                AppState(
                    root: SignInEmailScreen(email: "new.user@mail", error: SignInEmailScreen.invalidText), now: $0)
            },
            GalleryEntry("sign-in-email:sending", "The code is being sent") {
                AppState(root: SignInEmailScreen(email: "new.user@mail.com", isWorking: true), now: $0)
            },
            GalleryEntry("sign-in-email:rate-limited", "Too many codes to this address: a countdown") { now in
                AppState(
                    root: SignInEmailScreen(
                        email: "new.user@mail.com",
                        limit: RateLimit(target: "new.user@mail.com", until: now.addingTimeInterval(27))),
                    now: now)
            },
            GalleryEntry("sign-in-email:named", "A display name typed under the address") {
                AppState(
                    root: SignInEmailScreen(
                        email: "new.user@mail.com", displayName: DisplayNameInput("Jane Doe"), focus: .displayName),
                    now: $0)
            },
            GalleryEntry("sign-in-email:name-refused", "Another backend refused the name: its words under the field") {
                AppState(
                    root: SignInEmailScreen(
                        email: "new.user@mail.com",
                        displayName: DisplayNameInput(
                            "Jane Doe", serverError: "A display name takes 1 to 5 characters."),
                        focus: .displayName),
                    now: $0)
            },
            GalleryEntry("sign-in-email:offline", "No connection: said so, nothing lost") {
                AppState(
                    root: SignInEmailScreen(email: "new.user@mail.com", error: OnScreenMessage.offline.text), now: $0)
            },
        ]
    }
}
