import AccessAPI
import Foundation
import TerminalKit

extension DeletingAccountScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("deleting-account:default", "DELETE /me under way: a spinner") {
                SampleData.state([DeleteAccountScreen(), DeletingAccountScreen()], now: $0)
            },
            GalleryEntry("deleting-account:offline", "No answer: nothing was lost, Enter tries again") { now in
                let error = APIError.offline(reason: "connection refused").message
                var state = SampleData.state(
                    [DeleteAccountScreen(), DeletingAccountScreen(isWorking: false, error: error, canRetry: true)],
                    now: now)
                state.isOffline = true
                state.banner = .offline
                return state
            },
        ]
    }
}
