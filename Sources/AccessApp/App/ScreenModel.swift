import AccessAPI
import Foundation
import TerminalKit

/// One screen: its state, the keys it answers to, the replies it waits for, and its view.
/// Each screen lives in one file under Screens/ and conforms to this; the app around it
/// handles navigation, overlays, requests and time.
public protocol ScreenModel: Equatable, Sendable {
    /// "hub", "enter-phone"…: the SCREEN of `accessdeck screens` and the address of replies.
    var id: String { get }
    /// Whether typed letters are text here (then `q` and `?` are not shortcuts).
    var takesText: Bool { get }
    func keymap(_ context: ScreenContext) -> Keymap
    /// Returns nil when the screen does not use the event, so app-wide keys can.
    mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]?
    /// A reply to a request this screen made with `.request(_, name:)`.
    mutating func receive(_ name: String, _ result: Result<APIReply, APIError>, _ context: ScreenContext) -> [Command]
    /// Called once a second while `needsClock` is true, and after the clock moves.
    mutating func tick(_ context: ScreenContext) -> [Command]
    var needsClock: Bool { get }
    /// Screens that are pushed and load something say what here.
    func onAppear(_ context: ScreenContext) -> [Command]
    func view(into canvas: inout Canvas, _ context: ScreenContext)
    /// A code or link chosen in the outbox panel; nil when this screen has no use for it.
    mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]?
    /// A choice made on a picker pushed over this screen, handed down with `.deliverBelow`.
    mutating func receiveChoice(_ choice: PickerChoice, _ context: ScreenContext) -> [Command]
}

extension ScreenModel {
    public var takesText: Bool { false }
    public mutating func receive(
        _ name: String, _ result: Result<APIReply, APIError>, _ context: ScreenContext
    )
        -> [Command]
    { [] }
    public mutating func tick(_ context: ScreenContext) -> [Command] { [] }
    public var needsClock: Bool { false }
    public func onAppear(_ context: ScreenContext) -> [Command] { [] }
    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? { nil }
    public mutating func receiveChoice(_ choice: PickerChoice, _ context: ScreenContext) -> [Command] { [] }
}

/// What a picker screen hands back to the screen that pushed it.
public enum PickerChoice: Equatable, Sendable {
    /// ISO 3166 alpha-2 of a country picked in the country picker.
    case country(iso: String)
}

/// A screen of any kind, so the navigation stack can hold them all and still be compared.
public struct AnyScreen: Equatable, Sendable, CustomReflectable {
    public private(set) var base: any ScreenModel

    public init(_ base: any ScreenModel) { self.base = base }

    public var id: String { base.id }

    public static func == (lhs: AnyScreen, rhs: AnyScreen) -> Bool { lhs.base.isEqual(to: rhs.base) }

    /// The concrete screen, when it is of that type.
    public func `as`<S: ScreenModel>(_ type: S.Type) -> S? { base as? S }

    mutating func update<R>(_ body: (inout any ScreenModel) -> R) -> R { body(&base) }

    public var customMirror: Mirror { Mirror(reflecting: base) }
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
    /// Pops until a screen with this id is on top (it stays).
    case popTo(String)
    case replaceTop(AnyScreen)
    case showToast(String)
    case showSheet(Sheet)
    case dismissOverlay
    case setBanner(Banner?)
    /// Calls the backend; the reply comes back to the screen with this id as `receive(name, …)`.
    case request(APICall, screen: String, name: String)
    case setMethods(AuthMethods)
    case setOffline(Bool)
    case grantReauth(ReauthGrant)
    /// Continue a sensitive flow now that the user is verified (or needs no verification).
    case continueFlow(AccountFlow)
    case run(Effect)
    /// Hands a picker's choice to the screen under the top one (the one that pushed the picker).
    case deliverBelow(PickerChoice)

    public static func push(_ screen: some ScreenModel) -> Command { .push(AnyScreen(screen)) }
    public static func replaceTop(_ screen: some ScreenModel) -> Command { .replaceTop(AnyScreen(screen)) }
}
