import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension SessionCheckScreen {
    public static var defaultGalleryState: String { "checking" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("session-check:checking", "A stored session is being checked") {
                AppState(root: SessionCheckScreen(), now: $0)
            },
            GalleryEntry(
                "session-check:unreachable",
                "No answer within \(RuleText.duration(SessionCheckScreen.patience, .short)) and nothing saved: the person chooses"
            ) {
                var state = AppState(root: SessionCheckScreen(unreachable: true), now: $0)
                state.isOffline = true
                state.banner = .offline
                return state
            },
            GalleryEntry(
                "session-check:invalid-response", "The backend answered with what the contract does not allow"
            ) {
                AppState(root: SessionCheckScreen(problem: APIError.invalidResponseText), now: $0)
            },
        ]
    }
}
