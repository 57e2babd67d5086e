import Foundation
import TerminalKit

extension WelcomeScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("welcome:default", "No stored session: the brand and Get started") {
                AppState(root: WelcomeScreen(), now: $0, options: AppOptions(hasReferenceBackend: false))
            },
            GalleryEntry("welcome:reference", "On the reference backend: the QA sign-in key") {
                AppState(root: WelcomeScreen(), now: $0)
            },
            GalleryEntry("welcome:qa-refused", "QA sign-in on a scenario that starts signed out") {
                AppState(
                    root: WelcomeScreen(error: "This scenario starts signed out. Sign in through the app."), now: $0)
            },
        ]
    }
}
