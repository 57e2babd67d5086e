import AccessAPI
import Foundation
import TerminalKit

/// A named screen state: what `accessdeck screens` lists and `render` prints.
public struct GalleryEntry: Sendable {
    /// "SCREEN:STATE", e.g. "hub:offline".
    public let id: String
    public let summary: String
    public let makeState: @Sendable (Date) -> AppState

    public init(_ id: String, _ summary: String, _ makeState: @escaping @Sendable (Date) -> AppState) {
        self.id = id
        self.summary = summary
        self.makeState = makeState
    }

    public var screen: Substring { id.split(separator: ":", maxSplits: 1).first ?? "" }
}

public enum Gallery {
    public static var entries: [GalleryEntry] {
        appEntries + hubEntries + reauthEntries + ScreenGallery.more + ReauthGallery.entries
    }

    static let appEntries: [GalleryEntry] = [
        GalleryEntry("settings:default", "Settings root, first row selected") { AppState(now: $0) },
        GalleryEntry("settings:help", "The ? help over Settings") { now in
            var state = AppState(now: now)
            state.overlay = .help
            return state
        },
        GalleryEntry("settings:toast", "A toast over Settings") { now in
            var state = AppState(now: now)
            state.toast = Toast("Copied support@321.fit to clipboard", shownAt: now)
            return state
        },
        GalleryEntry("keyboard-check:keys", "Keyboard check after a few keys and a paste") { now in
            var state = AppState(root: SettingsScreen(selection: 2), now: now)
            state.stack.append(AnyScreen(KeyboardCheckScreen(events: ["paste 482915", "key Ctrl+A", "key ↓"])))
            return state
        },
        GalleryEntry("gallery:default", "This list of screens") { now in
            var state = AppState(root: SettingsScreen(selection: 1), now: now)
            state.stack.append(AnyScreen(GalleryScreen()))
            return state
        },
    ]

    static let hubEntries: [GalleryEntry] = [
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
        GalleryEntry("hub:offline", "Offline: banner, cached values, writes disabled") { now in
            var state = SampleData.state([], now: now)
            state.isOffline = true
            state.banner = .offline
            return state
        },
        GalleryEntry("hub:last-method", "Soft warning before changing the only method") { now in
            var state = SampleData.state([], methods: SampleData.phoneOnly, now: now)
            state.overlay = .sheet(.lastMethod(.changePhone))
            return state
        },
        GalleryEntry("hub:outbox", "The outbox panel over the hub") { now in
            var state = SampleData.state([], now: now)
            state.overlay = .outbox(OutboxPanel(messages: SampleData.outbox(at: now), isLoading: false))
            return state
        },
    ]

    static let reauthEntries: [GalleryEntry] = [
        GalleryEntry("reauth-picker:change-phone", "Verify it's you before changing the phone") {
            SampleData.state([ReauthPickerScreen(flow: .changePhone)], now: $0)
        },
        GalleryEntry("reauth-picker:android", "The picker without Apple") {
            SampleData.state(
                [ReauthPickerScreen(flow: .changePhone)], now: $0, options: AppOptions(platform: .android))
        },
        GalleryEntry("reauth-picker:sending", "Sending the email link") {
            SampleData.state([ReauthPickerScreen(flow: .changePhone, selection: 1, isWorking: true)], now: $0)
        },
        GalleryEntry("reauth-picker:social-sheet", "The simulated Apple confirmation") { now in
            var state = SampleData.state([ReauthPickerScreen(flow: .changePhone, selection: 2)], now: now)
            state.overlay = .sheet(.socialReauth(.apple, .changePhone))
            return state
        },
    ]

    /// Finds "SCREEN:STATE", or "SCREEN" alone meaning its first state.
    public static func entry(_ id: String) -> GalleryEntry? {
        let all = entries
        if let exact = all.first(where: { $0.id == id }) { return exact }
        return all.first { $0.screen == id }
    }
}

/// Gallery entries of the flow screens, each listed next to its own screen file's work.
enum ScreenGallery {
    static var more: [GalleryEntry] { PhoneFlowGallery.entries }
}
