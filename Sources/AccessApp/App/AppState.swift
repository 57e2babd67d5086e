import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Everything the app shows, in one value: rendering is a pure function of it.
public struct AppState: Equatable, Sendable {
    /// The navigation stack; never empty, the root first. A screen that leaves it takes what it waited
    /// for with it: the ledger never names a depth the stack does not reach.
    public var stack: [AnyScreen] {
        didSet { if stack.count < oldValue.count { forgetCalls(ofScreensFrom: stack.count) } }
    }
    /// At most one overlay (a bottom sheet, the outbox, the help…) over the dimmed screen below.
    public var overlay: AnyOverlay?
    public var toast: Toast?
    /// The app-wide banner: offline. A rate limit's banner belongs to its screen (`ScreenModel.banner`).
    public var banner: Banner?
    /// The app clock's time when the last action arrived; countdowns are drawn from it.
    public var now: Date
    public var options: AppOptions
    /// The last auth methods the backend sent (or the offline cache had), and when.
    public var methods: AuthMethods?
    public var methodsFetchedAt: Date?
    /// The last Active sessions list the backend sent (or the offline cache had).
    public var sessions: [ActiveSession]?
    /// The last profile the backend sent (sign-in, the session check, the QA sign-in, an onboarding
    /// step): where onboarding stands and whether the recovery email waits for its link.
    public var profile: Profile?
    /// The last call found no backend: the hub shows cached values and disables writes.
    public var isOffline = false
    /// While offline: the wait before the probe now set (Reduce+Probe); nil online.
    public var probeWait: TimeInterval?
    /// The last successful "Verify it's you"; good until its `expiresAt` (15 minutes).
    public var reauth: ReauthGrant?
    /// A one-second tick is scheduled (something on screen counts down).
    public var clockTicking = false
    /// The terminal's size, from the last resize event (nil until the first): below the
    /// minimum the "Terminal too small" notice hides the screen, and keys may not reach it.
    public var size: Size?
    /// The id the next request gets.
    public var nextRequestID = 1
    /// Every request in flight and who waits for it: the one ledger (`send(_:for:)` mints the ids).
    public var pending: [RequestID: PendingCall] = [:]
    /// The QA console: scenarios and faults as the reference backend reported them.
    public var console = ConsoleState()
    /// The start still asks the backend who is signed in after the first frame (`--backend` with
    /// `--qa-sign-in`): the QA sign-in may yet put the app on another screen. `.identified` ends it.
    public var identifying = false
    /// Links handed over while the start has not settled which screen the app stands on, in order: opened
    /// once it has (issue 48 item 7: the start's own landing used to take a link's screens off the stack).
    public var heldLinks: [String] = []
    /// `--start-at`'s road is being walked (or is about to be): the keys typed meanwhile, in order, kept for the
    /// screen it lands on, since the walk replaces the stack they would act on (`StartAt.holdKeys`). nil otherwise.
    public var heldForWalk: [InputEvent]?
    /// Programming errors the reducer caught instead of guessing (a `popTo` whose target is
    /// not on the stack): tests fail when this is not empty.
    public var defects: [String] = []

    public init(root: some ScreenModel = SettingsScreen(), now: Date, options: AppOptions = .init()) {
        stack = [AnyScreen(root)]
        self.now = now
        self.options = options
    }

    public var top: AnyScreen {
        get { stack[stack.count - 1] }
        set { stack[stack.count - 1] = newValue }
    }

    public var canGoBack: Bool { stack.count > 1 }

    /// Who is signed in is not known yet: a stored session is being checked, or the QA sign-in is to come.
    /// Whatever the start lands on replaces the stack, so a link waits for it (`heldLinks`).
    public var isStarting: Bool {
        identifying || (stack.count == 1 && stack[0].as(SessionCheckScreen.self)?.isChecking == true)
    }

    public var context: ScreenContext {
        ScreenContext(
            now: now, methods: methods, sessions: sessions, profile: profile, isOffline: isOffline,
            reauth: reauth.flatMap { $0.expiresAt > now ? $0 : nil }, options: options, canGoBack: canGoBack,
            glyphs: options.ascii ? .ascii : .unicode, isSignedIn: !AppRoutes.isSignedOut(stack[0]),
            proxyFindings: console.proxy.findings?.byExchange ?? [:])
    }
}

/// What the command line decided about the app's looks, platform and backend.
public struct AppOptions: Equatable, Sendable {
    public enum Platform: String, CaseIterable, Sendable { case ios, android }
    public var platform: Platform
    public var appVersion: String
    public var ascii: Bool
    /// The reference backend has an outbox and a simulated Apple/Google; a real one has not.
    public var hasReferenceBackend: Bool
    public var brand: Brand
    /// The "Device" line of Contact support and its mail; passed in so snapshots do not depend
    /// on the machine they run on.
    public var deviceDescription: String
    /// The device's region (ISO 3166 alpha-2): it leads the country picker's Popular section.
    /// Read from the machine by the command line, never by a screen.
    public var deviceRegion: String?
    /// Where the backend is, shown on Settings so QA can reach the reference backend's admin API.
    public var backendURL: String?
    /// The backend runs inside this process (no `--backend`): the status strip names the URL only otherwise.
    public var backendIsEmbedded = true
    /// The reference backend's world the app works in (`--world`, or a `--backend` URL ending in `/w/NAME`):
    /// the status strip names it (issue 33). nil: the default world.
    public var world: String?
    /// Dates and times on screen ("Mon, Apr 28 · 10:00") are in this zone: the machine's, set by
    /// the command line; UTC otherwise, so the gallery and the tests read the same everywhere.
    public var timeZone: TimeZone
    /// The colours the terminal draws with; the palette switches it live, exports use it.
    public var theme: Theme.Name = .dark

    public init(
        platform: Platform = .ios, appVersion: String = AppVersion.current, ascii: Bool = false,
        hasReferenceBackend: Bool = true, brand: Brand = .default, deviceDescription: String = "Terminal · Linux",
        deviceRegion: String? = nil, timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) {
        self.platform = platform
        self.appVersion = appVersion
        self.ascii = ascii
        self.hasReferenceBackend = hasReferenceBackend
        self.brand = brand
        self.deviceDescription = deviceDescription
        self.deviceRegion = deviceRegion
        self.timeZone = timeZone
    }
}

/// The product the flows belong to (seed 001 uses 321Fit); configurable, never hard-coded in screens.
public struct Brand: Equatable, Sendable {
    public var name: String
    public var supportEmail: String
    /// Where the terms and the privacy policy live (the Welcome screen's small links).
    public var website: String
    public init(name: String, supportEmail: String, website: String = "https://321.fit") {
        self.name = name
        self.supportEmail = supportEmail
        self.website = website
    }
    public static let `default` = Brand(name: ProductBrand.name, supportEmail: ProductBrand.supportEmail)

    public var termsURL: URL? { URL(string: website + "/terms") }
    public var privacyURL: URL? { URL(string: website + "/privacy") }
}

public enum AppVersion {
    public static let current = "0.1.0"
}
