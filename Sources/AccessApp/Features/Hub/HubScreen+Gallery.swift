import AccessAPI
import Foundation
import TerminalKit

extension HubScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("hub:loading", "First fetch: skeleton rows") { SampleData.state([], methods: nil, now: $0) },
            GalleryEntry("hub:default", "Every method set up (athlete)") { SampleData.state([], now: $0) },
            GalleryEntry("hub:no-phone", "No phone: Add pill; Apple not connected") {
                SampleData.state([], methods: SampleData.noPhone, now: $0)
            },
            GalleryEntry("hub:phone-only", "Phone is the only method") {
                SampleData.state([], methods: SampleData.phoneOnly, now: $0)
            },
            GalleryEntry("hub:apple-only", "Apple is the only method (coach: same screen)") {
                SampleData.state([], methods: SampleData.appleOnly, now: $0)
            },
            GalleryEntry("hub:android", "Android: the Apple row is hidden") {
                SampleData.state([], now: $0, options: AppOptions(platform: .android))
            },
            GalleryEntry("hub:refreshing", "r pressed: the rows stay, a sign says the reload is under way") { now in
                var state = SampleData.state([], now: now)
                state.top = AnyScreen(HubScreen(isLoading: true))
                return state
            },
            GalleryEntry("hub:faults-on", "QA left a fault on and moved the clock: the status strip says so") { now in
                var state = SampleData.state([], now: now)
                state.console.scenario = "coach"
                state.console.faults = FaultSettings(latencyMs: 2000)
                state.console.clockOffset = 300
                return state
            },
            GalleryEntry("hub:offline", "Offline: banner, cached values, writes disabled") { now in
                var state = SampleData.state([], now: now)
                state.isOffline = true
                state.banner = .offline
                return state
            },
            GalleryEntry("hub:outbox", "The outbox panel over the hub") { now in
                var state = SampleData.state([], now: now)
                state.overlay = .outbox(OutboxPanel(messages: SampleData.outbox(at: now), isLoading: false))
                return state
            },
            GalleryEntry("hub:limited", "Limited access: the methods shown, every change closed") {
                SampleData.limitedState([HubScreen()], now: $0)
            },
        ]
    }
}
