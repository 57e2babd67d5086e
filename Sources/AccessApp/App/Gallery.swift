import Foundation

/// A named screen state: what `accessdeck screens` lists and `render` prints.
public struct GalleryEntry: Sendable {
    /// "SCREEN:STATE", e.g. "hub:offline".
    public let id: String
    public let summary: String
    public let makeState: @Sendable (Date) -> AppState
    /// The backend calls that reach this state for real (`accessdeck --start-at`, a tape's `start-at`); nil for
    /// a state no walk can be relied on to reach (an error a backend may or may not give, a sample's data).
    public let road: Road?

    public init(
        _ id: String, _ summary: String, road: Road? = nil, _ makeState: @escaping @Sendable (Date) -> AppState
    ) {
        self.id = id
        self.summary = summary
        self.road = road
        self.makeState = makeState
    }

    public var screen: Substring { id.split(separator: ":", maxSplits: 1).first ?? "" }
}

/// A feature folder's registration: its screens (each brings its gallery states) and the
/// states of its sheets, which are drawn over another feature's screen.
public protocol Feature {
    static var screens: [any ScreenModel.Type] { get }
    static var sheetGallery: [GalleryEntry] { get }
}

extension Feature {
    public static var sheetGallery: [GalleryEntry] { [] }
}

/// Every feature of the app. Adding a feature is one line here; adding a screen to a feature
/// is one line in its `screens`.
public enum Features {
    public static let all: [any Feature.Type] = [
        SettingsFeature.self,
        KeyboardCheckFeature.self,
        GalleryFeature.self,
        HubFeature.self,
        SessionsFeature.self,
        TwoFactorFeature.self,
        ReauthFeature.self,
        PhoneFeature.self,
        EmailLinkFeature.self,
        EmailFeature.self,
        ProvidersFeature.self,
        PasskeysFeature.self,
        SupportFeature.self,
        DeleteFeature.self,
        LogoutFeature.self,
        StartFeature.self,
        SignInFeature.self,
        PasswordLoginFeature.self,
        OnboardingFeature.self,
        RecoveryFeature.self,
        SpecNotesFeature.self,
        ConsoleFeature.self,
    ]

    public static var screens: [any ScreenModel.Type] { all.flatMap { $0.screens } }
}

public enum Gallery {
    /// The moment every gallery state is drawn at, in the app's preview as by `render`: its times and countdowns
    /// are the sample's ("10:00", "Resend in 0:27"). Made at the app's own clock, they drifted from what
    /// `render` showed ("09:59", issue 50).
    public static let sampleTime = Date(timeIntervalSince1970: 1_800_000_000)

    public static var entries: [GalleryEntry] {
        Features.all.flatMap { feature in feature.screens.flatMap { $0.gallery } + feature.sheetGallery }
    }

    /// Finds "SCREEN:STATE", or "SCREEN" alone meaning that screen's default state.
    public static func entry(_ id: String) -> GalleryEntry? {
        let all = entries
        if let exact = all.first(where: { $0.id == id }) { return exact }
        guard let state = defaultState(of: id) else { return nil }
        return all.first { $0.id == "\(id):\(state)" }
    }

    /// The STATE `render SCREEN` draws: the screen's `defaultGalleryState`. nil for no such screen.
    public static func defaultState(of screen: String) -> String? {
        Features.screens.first { $0.gallery.first?.screen == Substring(screen) }?.defaultGalleryState
    }
}
