import AccessAPI
import Foundation
import TerminalKit

/// One screen: its state, the keys it answers to, the replies it waits for, and its view.
/// Each screen lives in one file under Screens/ and conforms to this; the app around it
/// handles navigation, overlays, requests and time.
public protocol ScreenModel: Equatable, Sendable {
    /// "hub", "enter-phone"…: the SCREEN of `accessdeck screens`. Never an address: replies
    /// find their screen by request id, navigation by type.
    var id: String { get }
    /// This screen's named states for the gallery, `accessdeck screens` and the snapshots; they
    /// live in `<Screen>+Gallery.swift` beside the screen.
    static var gallery: [GalleryEntry] { get }
    /// Why this screen behaves as it does, its calls and its seed sections (the F4 panel); in
    /// `<Feature>+Notes.swift`. No default: a screen without notes does not compile.
    static var specNotes: SpecNotes { get }
    /// Whether typed letters are text here (then `q` and `?` are not shortcuts).
    var takesText: Bool { get }
    /// Every key reaches this screen, listed or not (the keyboard check shows what it gets).
    var acceptsAnyKey: Bool { get }
    /// What typing here would go into when that must never be written down (a tape's recorder
    /// asks): a password, or the code boxes. nil for everything else.
    var secretEntry: SecretEntry? { get }
    func keymap(_ context: ScreenContext) -> Keymap
    /// Returns nil when the screen does not use the event, so app-wide keys can.
    mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]?
    /// The reply to a request this screen made with `.request(_, tag:)`; `tag` says which.
    mutating func receive(_ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext) -> [Command]
    /// Called once a second while `needsClock` is true, and after the clock moves.
    mutating func tick(_ context: ScreenContext) -> [Command]
    var needsClock: Bool { get }
    /// Screens that are pushed and load something say what here.
    func onAppear(_ context: ScreenContext) -> [Command]
    func view(into canvas: inout Canvas, _ context: ScreenContext)
    /// A code or link chosen in the outbox panel; nil when this screen has no use for it.
    mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]?
    /// A link pasted or handed over from the person's mail; nil when this screen waits for none.
    mutating func openLink(_ text: String, _ context: ScreenContext) -> [Command]?
    /// A choice made on a picker pushed over this screen, handed down with `.deliverBelow`.
    mutating func receiveChoice(_ choice: AnyValue, _ context: ScreenContext) -> [Command]
    /// This screen's own banner (a rate limit on what it sends): it belongs to the screen and
    /// its target, so it goes when either changes. The app's offline banner comes first.
    func banner(_ context: ScreenContext) -> Banner?
}

extension ScreenModel {
    public var takesText: Bool { false }
    public var acceptsAnyKey: Bool { false }
    public var secretEntry: SecretEntry? { nil }
    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    )
        -> [Command]
    { [] }
    public mutating func tick(_ context: ScreenContext) -> [Command] { [] }
    public var needsClock: Bool { false }
    public func onAppear(_ context: ScreenContext) -> [Command] { [] }
    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? { nil }
    public mutating func receiveChoice(_ choice: AnyValue, _ context: ScreenContext) -> [Command] { [] }
    public mutating func openLink(_ text: String, _ context: ScreenContext) -> [Command]? { nil }
    public func banner(_ context: ScreenContext) -> Banner? { nil }
}

/// A screen of any kind on the navigation stack, with the requests it waits for, so the
/// stack can hold every screen and still be compared.
public struct AnyScreen: Equatable, Sendable, CustomReflectable {
    public private(set) var base: any ScreenModel
    /// The requests this screen sent and still waits for, with the tag it gave each. The
    /// reducer mints the ids; leaving the screen forgets them, so late replies are dropped.
    public var awaiting: [RequestID: String]

    public init(_ base: any ScreenModel, awaiting: [RequestID: String] = [:]) {
        self.base = base
        self.awaiting = awaiting
    }

    public var id: String { base.id }

    public static func == (lhs: AnyScreen, rhs: AnyScreen) -> Bool {
        lhs.base.isEqual(to: rhs.base) && lhs.awaiting == rhs.awaiting
    }

    /// The concrete screen, when it is of that type.
    public func `as`<S: ScreenModel>(_ type: S.Type) -> S? { base as? S }

    public func `is`(_ type: ScreenType) -> Bool { ScreenType(Swift.type(of: base)) == type }

    mutating func update<R>(_ body: (inout any ScreenModel) -> R) -> R { body(&base) }

    public var customMirror: Mirror {
        Mirror(self, children: ["screen": base, "awaiting": awaiting.sorted { $0.key.value < $1.key.value }])
    }
}

/// A screen's type as a navigation target: `.popTo(HubScreen.self)`, never a string.
public struct ScreenType: Equatable, Sendable, CustomStringConvertible {
    public let type: any ScreenModel.Type
    public init(_ type: any ScreenModel.Type) { self.type = type }
    public static func == (lhs: ScreenType, rhs: ScreenType) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }
    public var description: String { "\(type)" }
}

extension ScreenModel {
    func isEqual(to other: any ScreenModel) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// What a screen may read of the app around it.
public struct ScreenContext: Sendable {
    public var now: Date
    /// The last auth methods fetched (possibly from the offline cache).
    public var methods: AuthMethods?
    /// The last profile fetched; nil when none came (a backend without onboarding, or offline).
    public var profile: Profile?
    public var isOffline: Bool
    /// A re-auth that is still inside its 15-minute window.
    public var reauth: ReauthGrant?
    public var options: AppOptions
    public var canGoBack: Bool
    public var glyphs: Glyphs
}

/// What a screen asks of the app around it.
public enum Command: Equatable, Sendable {
    case push(AnyScreen)
    case pop
    /// Pops until a screen of this type is on top (it stays). Not on the stack: a programming
    /// error, recorded in `AppState.defects` (tests fail on it) and the stack left alone.
    case popTo(ScreenType)
    /// Pops to the topmost screen of any of these types; none on the stack leaves it alone. For
    /// screens reached more than one way (a link opened from the flow, or from anywhere).
    case popToNearest([ScreenType])
    case replaceTop(AnyScreen)
    /// The stack becomes this one screen: nothing to go back to (the account was deleted).
    case resetStack(AnyScreen)
    case showToast(String)
    case showSheet(Sheet)
    case dismissOverlay
    /// Calls the backend; the reducer mints the id, the screen that asked keeps it, and the
    /// reply comes back to that screen as `receive(tag, …)` if it is still there.
    case request(AnyRequest, tag: String)
    case setMethods(AuthMethods)
    case setProfile(Profile?)
    case setOffline(Bool)
    case grantReauth(ReauthGrant)
    /// Forgets the user here: the methods and the re-auth grant in memory, and (`.signOutLocally`)
    /// the session file and the methods cache.
    case signOut
    /// A sign-in succeeded (the client already keeps the new session): the app starts over on the
    /// signed-in root with the account's methods; nothing of an earlier user (re-auth, overlay) stays.
    case signedIn(SignedIn)
    /// Continue a sensitive flow now that the user is verified (or needs no verification).
    case continueFlow(AnyFlow)
    case run(Effect)
    /// The app's looks, switched live (the gallery's preview, the palette).
    case setLooks(theme: Theme.Name, ascii: Bool)
    /// Hands a picker's choice to the screen under the top one (the one that pushed the picker).
    case deliverBelow(AnyValue)
    /// Pops back to the topmost screen of this type and hands it `value` (through
    /// `receiveChoice`): a step interrupted by something pushed over it picks up where it was.
    case returnTo(ScreenType, AnyValue)

    public static func push(_ screen: some ScreenModel) -> Command { .push(AnyScreen(screen)) }
    public static func replaceTop(_ screen: some ScreenModel) -> Command { .replaceTop(AnyScreen(screen)) }
    public static func resetStack(_ screen: some ScreenModel) -> Command { .resetStack(AnyScreen(screen)) }
    public static func popTo(_ type: any ScreenModel.Type) -> Command { .popTo(ScreenType(type)) }
    public static func popToNearest(_ types: any ScreenModel.Type...) -> Command {
        .popToNearest(types.map(ScreenType.init))
    }
    public static func request(_ request: some APIRequest, tag: String = "") -> Command {
        .request(AnyRequest(request), tag: tag)
    }
    public static func continueFlow(_ flow: some SensitiveFlow) -> Command { .continueFlow(AnyFlow(flow)) }
    public static func deliverBelow(_ choice: some Equatable & Sendable) -> Command { .deliverBelow(AnyValue(choice)) }
    public static func returnTo(_ type: any ScreenModel.Type, with value: some Equatable & Sendable) -> Command {
        .returnTo(ScreenType(type), AnyValue(value))
    }
}

extension KeyBinding {
    /// ↑/↓ through a list, with k/j for those used to them.
    public static let move = KeyBinding([.up, .down], "Move", aliases: [.character("k"), .character("j")])

    /// Enter on a list row, with → as on a phone's chevron.
    public static func open(_ description: String) -> KeyBinding {
        KeyBinding([.enter], description, aliases: [.right])
    }
}

/// A limit the server put on one target (a phone number, an address): until then, sending to
/// that target is off and the screen shows the countdown.
public struct RateLimit: Equatable, Sendable {
    /// What the limit is on; nil when it is on the whole screen's action.
    public var target: String?
    public var until: Date

    public init(target: String? = nil, until: Date) {
        self.target = target
        self.until = until
    }

    public func applies(to target: String?, at now: Date) -> Bool {
        self.target == target && now < until
    }

    /// The countdown banner while the limit is on.
    public func banner(for target: String? = nil, at now: Date) -> Banner? {
        applies(to: target, at: now) ? .rateLimited(until: until) : nil
    }

    /// A whole-screen lockout's end (a 429's wait on a password screen) while it lasts; nil once the clock
    /// has passed it, which is how a screen's tick clears it.
    static func lasting(_ until: Date?, at now: Date) -> Date? {
        guard let until, now < until else { return nil }
        return until
    }

    /// The countdown banner of a whole-screen lockout, while it lasts.
    static func banner(until: Date?, at now: Date) -> Banner? {
        lasting(until, at: now).flatMap { RateLimit(until: $0).banner(at: now) }
    }
}

extension Canvas {
    /// "Too many attempts. Try again in 0:42" in place of the screen's button while a lockout lasts;
    /// false, with nothing drawn, once it is over.
    mutating func lockoutCountdown(until: Date?, at now: Date) -> Bool {
        guard let until = RateLimit.lasting(until, at: now) else { return false }
        let left = Banner.secondsLeft(until: until, now: now)
        centered("Too many attempts. Try again in \(TextLayout.countdown(seconds: left))", style: .muted)
        return true
    }
}
