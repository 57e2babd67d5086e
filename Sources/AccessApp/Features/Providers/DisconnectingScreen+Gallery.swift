import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension DisconnectingScreen {
    public static var defaultGalleryState: String { "google" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("disconnecting-provider:google", "Verified: disconnecting Google") {
                SampleData.state([DisconnectingScreen(provider: .google)], now: $0)
            },
            GalleryEntry("disconnecting-provider:apple", "Verified: disconnecting Apple") {
                SampleData.state([DisconnectingScreen(provider: .apple)], now: $0)
            },
            GalleryEntry("disconnecting-provider:offline", "No answer: Google still connected, Enter tries again") {
                SampleData.state(
                    [
                        DisconnectingScreen(
                            provider: .google, error: APIError.offline(reason: "sample").message)
                    ], now: $0)
            },
            GalleryEntry("disconnecting-provider:failed", "A 5xx: the server's message, nothing changed") {
                SampleData.state(
                    [
                        DisconnectingScreen(
                            provider: .google, error: OnScreenMessage.serverError.text)
                    ], now: $0)
            },
        ]
    }
}
