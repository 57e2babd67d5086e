import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension DeleteAccountScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("delete-account:default", "What deleting removes, before anything happens") {
                SampleData.state([DeleteAccountScreen()], now: $0)
            },
            GalleryEntry("delete-account:checking", "Continue pressed: the blocker check runs") {
                SampleData.state([DeleteAccountScreen(isChecking: true)], now: $0)
            },
            GalleryEntry("delete-account:offline", "The check found no backend: Enter asks again") { now in
                let error = APIError.offline(reason: "connection refused").message
                var state = SampleData.state([DeleteAccountScreen(error: error)], now: now)
                state.isOffline = true
                state.banner = .offline
                return state
            },
            GalleryEntry("delete-account:server-error", "The check failed on the server: Enter asks again") {
                let error = APIError.server(
                    status: 500, code: "", message: OnScreenMessage.serverError.text)
                return SampleData.state([DeleteAccountScreen(error: error.message)], now: $0)
            },
        ]
    }
}
