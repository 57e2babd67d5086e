import AccessAPI
import AccessCore
import Foundation

extension ActiveSessionsScreen {
    /// `many-devices`: this terminal, an iPhone, an Android phone, a browser, and a device not seen for 40 days.
    static func sampleSessions(now: Date) -> [ActiveSession] {
        func session(
            _ id: String, _ name: String?, _ system: String, _ version: String, _ method: SessionMethod?,
            minutesAgo: Double, current: Bool = false
        ) -> ActiveSession {
            ActiveSession(
                id: id,
                device: name.map { SessionDevice(deviceName: $0, systemName: system, systemVersion: version) },
                method: method, firstSeenAt: now.addingTimeInterval(-(minutesAgo + 600) * 60),
                lastSeenAt: now.addingTimeInterval(-minutesAgo * 60), clientAddress: "127.0.0.1", isCurrent: current)
        }
        return [
            session("sf_terminal", "Terminal", "Linux", "6.1", .phoneCode, minutesAgo: 0, current: true),
            session("sf_iphone", "Nino's iPhone", "iOS", "18.1", .phoneCode, minutesAgo: 5),
            session("sf_pixel", "Pixel 8", "Android", "15", .google, minutesAgo: 180),
            session("sf_browser", "Firefox on Mac", "macOS", "15.1", .password, minutesAgo: 2 * 24 * 60),
            session("sf_ipad", "Old iPad", "iPadOS", "16.7", .emailCode, minutesAgo: 40 * 24 * 60),
        ]
    }

    static func sample(now: Date, selection: Int = 0) -> ActiveSessionsScreen {
        ActiveSessionsScreen(sessions: sampleSessions(now: now), selection: selection, isLoading: false)
    }

    public static var defaultGalleryState: String { "many-devices" }

    /// The hub, then its Active sessions row: the list is `GET /me/sessions`'s answer. `othersSignedIn` says which
    /// of the two states it is for; a scenario whose list is the other one says so rather than land there.
    static func road(othersSignedIn: Bool) -> Road {
        Roads.hub.then(["GET /me/sessions"]) { api, hub in
            let sessions = try await LoadSessions().perform(api)
            guard sessions.contains(where: { !$0.isCurrent }) == othersSignedIn else {
                let hint =
                    othersSignedIn
                    ? "is signed in on no other device (many-devices is)"
                    : "is signed in on other devices too (default is not)"
                throw APIError.server(status: 0, code: "other_sessions", message: "the scenario's user \(hint).")
            }
            return hub.pushing(ActiveSessionsScreen(sessions: sessions, isLoading: false))
        }
    }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("sessions:loading", "First fetch: skeleton rows") {
                SampleData.state([ActiveSessionsScreen()], now: $0)
            },
            GalleryEntry(
                "sessions:many-devices", "This device first, then the others newest first",
                road: road(othersSignedIn: true)
            ) {
                SampleData.state([sample(now: $0)], now: $0)
            },
            GalleryEntry(
                "sessions:only-this-device", "Nothing else signed in: no Sign out all",
                road: road(othersSignedIn: false)
            ) { now in
                let own = Array(sampleSessions(now: now).prefix(1))
                return SampleData.state([ActiveSessionsScreen(sessions: own, isLoading: false)], now: now)
            },
            GalleryEntry("sessions:empty", "An empty answer (a backend without this device's sign-in)") {
                SampleData.state([ActiveSessionsScreen(sessions: [], isLoading: false)], now: $0)
            },
            GalleryEntry("sessions:offline", "Offline: the list last loaded, signing out off") { now in
                var state = SampleData.state([sample(now: now)], now: now)
                state.isOffline = true
                state.banner = .offline
                return state
            },
            GalleryEntry("sessions:offline-nothing-saved", "Offline before the first answer") {
                let error = OnScreenMessage.offlineNothingSaved.text
                return SampleData.state([ActiveSessionsScreen(isLoading: false, error: error)], now: $0)
            },
            GalleryEntry("sessions:error", "The load failed: a 5xx") {
                let error = OnScreenMessage.serverError.text
                return SampleData.state([ActiveSessionsScreen(isLoading: false, error: error)], now: $0)
            },
            GalleryEntry("sessions:rate-limited", "429: signing out waits for the countdown") { now in
                var screen = sample(now: now, selection: 1)
                screen.limitedUntil = now.addingTimeInterval(42)
                return SampleData.state([screen], now: now)
            },
        ]
    }
}
