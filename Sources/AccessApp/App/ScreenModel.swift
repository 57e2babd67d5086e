import AccessAPI
import Foundation
import TerminalKit

/// One screen: its state, the keys it answers to and what they do, the calls it makes and their
/// replies, and its view. Each screen lives in one file in its feature's folder (Features/<Feature>/)
/// and conforms to this; the app around it handles navigation, overlays, requests and time.
public protocol ScreenModel: Equatable, Sendable {
    /// What this screen's keys stand for ("verify", "resend"): each binding names one, `perform` does it.
    associatedtype Intent: Sendable = Never
    /// The replies to this screen's calls: one case per call, each holding the typed result of its
    /// request (`case verify(Result<VerifyOTPResult, APIError>)`); `Call(request, Reply.verify)` asks.
    associatedtype Reply: Equatable & Sendable = NoReply
    /// What a screen pushed over this one hands back to it (`.returnTo(Self.self, with:)`,
    /// `.deliverBelow(to: Self.self, _:)`): a country picked, a verification done. Only a value of this
    /// type can be handed to it.
    associatedtype Choice: Equatable & Sendable = Never
    /// "hub", "enter-phone"…: the SCREEN of `accessdeck screens`. Never an address: replies
    /// find their screen by request id, navigation by type.
    var id: String { get }
    /// This screen's named states for the gallery, `accessdeck screens` and the snapshots; they
    /// live in `<Screen>+Gallery.swift` beside the screen.
    static var gallery: [GalleryEntry] { get }
    /// The STATE of the gallery state a person normally sees on this screen: what `render SCREEN` draws
    /// when no state is named. "default" unless the screen names another (enter-code opens "empty");
    /// never whichever happens to come first.
    static var defaultGalleryState: String { get }
    /// Why this screen behaves as it does, its calls and its seed sections (the F4 panel); in
    /// `<Feature>+Notes.swift`. No default: a screen without notes does not compile.
    static var specNotes: SpecNotes { get }
    /// Whether typed letters are text here (then `q` and `?` are not shortcuts).
    var takesText: Bool { get }
    /// Every key no binding takes reaches `handle`, typing or not (the keyboard check shows what it gets);
    /// the app's keys it lists (help, the panels) still act.
    var acceptsAnyKey: Bool { get }
    /// What typing here would go into when that must never be written down (a tape's recorder
    /// asks): a password, or the code boxes. nil for everything else.
    var secretEntry: SecretEntry? { get }
    /// The screen as a recording draws it (`accessdeck play --cast`, `run --cast`): a password field
    /// masked even when Ctrl+R shows it, the code boxes' digits as dots. What a recording holds is
    /// shared, and a secret must not be in it.
    func concealingSecrets() -> Self
    /// The keys this screen answers to now. The one table: the footer, the `?` help and the palette
    /// list these, and a key reaches `perform` only through them.
    func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>]
    /// Does what a bound key stands for.
    mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command]
    /// Typing into the screen's field (characters, a paste, erasing, the caret): what no binding takes.
    /// nil when the screen does not use the event, so the app's keys can.
    mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]?
    /// The reply to one of this screen's calls, as the case it asked for.
    mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command]
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
    /// A choice made on a screen pushed over this one, handed back with `.returnTo` or `.deliverBelow`.
    mutating func receiveChoice(_ choice: Choice, _ context: ScreenContext) -> [Command]
    /// This screen's own banner (a rate limit on what it sends): it belongs to the screen and
    /// its target, so it goes when either changes. The app's offline banner comes first.
    func banner(_ context: ScreenContext) -> Banner?
    /// Whether it shows what the last answer saved (the methods): only then does the offline banner say
    /// "Showing saved info.".
    func showsSavedData(_ context: ScreenContext) -> Bool
}

extension ScreenModel {
    public static var defaultGalleryState: String { "default" }
    public var takesText: Bool { false }
    public var acceptsAnyKey: Bool { false }
    public var secretEntry: SecretEntry? { nil }
    public func concealingSecrets() -> Self { self }
    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] { [] }
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { nil }
    public mutating func tick(_ context: ScreenContext) -> [Command] { [] }
    public var needsClock: Bool { false }
    public func onAppear(_ context: ScreenContext) -> [Command] { [] }
    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? { nil }
    public mutating func openLink(_ text: String, _ context: ScreenContext) -> [Command]? { nil }
    public func banner(_ context: ScreenContext) -> Banner? { nil }
    public func showsSavedData(_ context: ScreenContext) -> Bool { false }

    /// The bindings as the footer and the help read them.
    func keymap(_ context: ScreenContext) -> Keymap { bindings(context).keymap() }

    /// The intent of `key` in this screen's bindings, performed; nil when no binding names the key.
    mutating func perform(key: Key, _ context: ScreenContext) -> [Command]? {
        guard let intent = bindings(context).intent(for: key) else { return nil }
        return perform(intent, context)
    }

    /// Each binding's listed keys beside the keys it gives an intent: the two must be the same set.
    func boundKeys(_ context: ScreenContext) -> [(listed: Set<Key>, bound: Set<Key>)] {
        bindings(context).map { (Set($0.hint.allKeys), Set($0.intents.keys)) }
    }

    /// The type its calls' answers come back as (half of their `CallKey`).
    var replyType: Any.Type { Reply.self }

    /// The answer to `call`, which this screen made, as its own `Reply`; nil when it is not one (a defect).
    mutating func receive(_ result: Result<Answer, APIError>, of call: Call, _ context: ScreenContext) -> [Command]? {
        guard let reply = call.reply(to: result, as: Reply.self) else { return nil }
        return receive(reply, context)
    }
}

extension ScreenModel where Intent == Never {
    public mutating func perform(_ intent: Never, _ context: ScreenContext) -> [Command] {}
}

extension ScreenModel where Reply == NoReply {
    public mutating func receive(_ reply: NoReply, _ context: ScreenContext) -> [Command] {}
}

extension ScreenModel where Choice == Never {
    public mutating func receiveChoice(_ choice: Never, _ context: ScreenContext) -> [Command] {}
}

/// A screen of any kind on the navigation stack, so the stack can hold every screen and still be
/// compared. The calls it waits for are in `AppState.pending`, by its depth.
public struct AnyScreen: Equatable, Sendable, CustomReflectable {
    public private(set) var base: any ScreenModel

    public init(_ base: any ScreenModel) { self.base = base }

    public var id: String { base.id }

    public static func == (lhs: AnyScreen, rhs: AnyScreen) -> Bool { lhs.base.isEqual(to: rhs.base) }

    /// The concrete screen, when it is of that type.
    public func `as`<S: ScreenModel>(_ type: S.Type) -> S? { base as? S }

    public func `is`(_ type: ScreenType) -> Bool { ScreenType(Swift.type(of: base)) == type }

    mutating func update<R>(_ body: (inout any ScreenModel) -> R) -> R { body(&base) }

    public var customMirror: Mirror { Mirror(self, children: ["screen": base]) }
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

/// A choice on its way to a screen on the stack, typed by the screen that takes it:
/// `.returnTo(TwoFactorScreen.self, with: .regenerate)` only compiles with a `TwoFactorScreen.Choice`.
public struct Delivery: Equatable, Sendable, CustomReflectable {
    /// The type of the screen that takes it.
    public let target: ScreenType
    private let choice: any Equatable & Sendable
    private let hand: @Sendable (inout any ScreenModel, ScreenContext) -> [Command]?
    private let isSame: @Sendable (any Equatable & Sendable) -> Bool

    public init<Target: ScreenModel>(to target: Target.Type, _ choice: Target.Choice) {
        self.target = ScreenType(target)
        self.choice = choice
        hand = { screen, context in
            guard var taker = screen as? Target else { return nil }
            let commands = taker.receiveChoice(choice, context)
            screen = taker
            return commands
        }
        isSame = { ($0 as? Target.Choice) == choice }
    }

    /// Hands the choice to `screen`; nil when it is not of the target type.
    func hand(to screen: inout AnyScreen, _ context: ScreenContext) -> [Command]? {
        screen.update { hand(&$0, context) }
    }

    public static func == (lhs: Delivery, rhs: Delivery) -> Bool { lhs.target == rhs.target && lhs.isSame(rhs.choice) }

    public var customMirror: Mirror { Mirror(self, children: ["target": target, "choice": choice]) }
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
    /// The last Active sessions list loaded (possibly from the offline cache).
    public var sessions: [ActiveSession]?
    /// The last profile fetched; nil when none came (a backend without onboarding, or offline).
    public var profile: Profile?
    public var isOffline: Bool
    /// A re-auth that is still inside its 15-minute window.
    public var reauth: ReauthGrant?
    public var options: AppOptions
    public var canGoBack: Bool
    public var glyphs: Glyphs
    /// Someone is signed in here: the root is not one a signed-out app stands on (`AppRoutes.isSignedOut`),
    /// whether or not the methods have been fetched yet.
    public var isSignedIn: Bool
    /// Behind `accessdeck proxy`: its findings by exchange number (ProxyWatch), which F3 marks; empty elsewhere.
    public var proxyFindings: [Int: [String]] = [:]
}
