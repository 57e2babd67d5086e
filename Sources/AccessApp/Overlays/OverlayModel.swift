import AccessAPI
import Foundation
import TerminalKit

/// What an overlay may read of the app around it: the screen's context (time, looks, the backend's
/// address) and the size of the terminal.
public struct OverlayContext: Sendable {
    public var screen: ScreenContext
    public var size: Size
    /// The keys of what the overlay covers, for the help.
    public var keymapBelow: Keymap

    public var now: Date { screen.now }
    public var glyphs: Glyphs { screen.glyphs }
}

/// What is drawn over a screen (a bottom sheet, the outbox, the help, the palette…): one value with its
/// keys and what they do, the calls it makes, where it is drawn and how. The reducer, the renderer and
/// the mouse all go through these; nothing switches over the kinds of overlay.
public protocol OverlayModel: Equatable, Sendable {
    associatedtype Intent: Sendable
    associatedtype Reply: Equatable & Sendable = NoReply
    /// "outbox", "palette"…, for dumps and tests.
    var id: String { get }
    /// Whether typed letters are text here (the palette's search).
    var takesText: Bool { get }
    /// The keys it answers to: the footer and the help list these, and only these reach `perform`.
    func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>]
    mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command]
    /// Typing into its field (a paste included); nil when it has none.
    mutating func handle(_ event: InputEvent, _ context: OverlayContext) -> [Command]?
    /// The reply to a call it made.
    mutating func receive(_ reply: Reply, _ context: OverlayContext) -> [Command]
    /// The commands a sheet's action gives are the screen's below it (they act for it): true for sheets.
    var actsForScreen: Bool { get }
    /// Where it is drawn on a terminal of `context.size`.
    func frame(_ context: OverlayContext) -> Rect
    func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext)
    /// Where each entry of its list is drawn inside `frame`, for a click; empty when it has no list.
    func rows(in frame: Rect, _ context: OverlayContext) -> [Rect]
    /// Makes entry `row` (an index into `rows(in:)`) the selected one, as a click does before Enter.
    mutating func select(row: Int, _ context: OverlayContext)
    /// The key a click outside `frame` stands for (Esc closes); nil when such a click does nothing.
    var clickOutside: Key? { get }
    /// The key a click inside `frame` but on none of its rows stands for; nil when it does nothing.
    var clickInside: Key? { get }
    /// What showing it starts (a panel's first load).
    func onAppear(_ context: OverlayContext) -> [Command]
}

extension OverlayModel {
    public var takesText: Bool { false }
    public mutating func handle(_ event: InputEvent, _ context: OverlayContext) -> [Command]? { nil }
    public var actsForScreen: Bool { false }
    public func rows(in frame: Rect, _ context: OverlayContext) -> [Rect] { [] }
    public mutating func select(row: Int, _ context: OverlayContext) {}
    public var clickOutside: Key? { .escape }
    public var clickInside: Key? { nil }
    public func onAppear(_ context: OverlayContext) -> [Command] { [] }

    mutating func perform(key: Key, _ context: OverlayContext) -> [Command]? {
        guard let intent = bindings(context).intent(for: key) else { return nil }
        return perform(intent, context)
    }

    /// Each binding's listed keys beside the keys it gives an intent: the two must be the same set.
    func boundKeys(_ context: OverlayContext) -> [(listed: Set<Key>, bound: Set<Key>)] {
        bindings(context).map { (Set($0.hint.allKeys), Set($0.intents.keys)) }
    }

    /// The type its calls' answers come back as (half of their `CallKey`).
    var replyType: Any.Type { Reply.self }

    /// The answer to `call`, which this overlay made, as its own `Reply`; nil when it is not one (a defect).
    mutating func receive(_ result: Result<Answer, APIError>, of call: Call, _ context: OverlayContext) -> [Command]? {
        guard let reply = call.reply(to: result, as: Reply.self) else { return nil }
        return receive(reply, context)
    }

    func isEqual(to other: any OverlayModel) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

extension OverlayModel where Reply == NoReply {
    public mutating func receive(_ reply: NoReply, _ context: OverlayContext) -> [Command] {}
}

/// The overlay shown, of any kind, so the state can hold one and still be compared.
public struct AnyOverlay: Equatable, Sendable, CustomReflectable {
    public private(set) var base: any OverlayModel

    public init(_ base: some OverlayModel) { self.base = base }

    public var id: String { base.id }

    public func `as`<O: OverlayModel>(_ type: O.Type) -> O? { base as? O }

    public static func == (lhs: AnyOverlay, rhs: AnyOverlay) -> Bool { lhs.base.isEqual(to: rhs.base) }

    mutating func update<R>(_ body: (inout any OverlayModel) -> R) -> R { body(&base) }

    public var customMirror: Mirror { Mirror(self, children: ["overlay": base]) }

    public func keymap(_ context: OverlayContext) -> Keymap { base.keymap(context) }

    // The overlays by name, as tests and gallery states set them.
    public static func sheet(_ sheet: Sheet) -> AnyOverlay { AnyOverlay(sheet) }
    public static var help: AnyOverlay { AnyOverlay(HelpPanel()) }
    public static func outbox(_ panel: OutboxPanel) -> AnyOverlay { AnyOverlay(panel) }
    public static func journal(_ panel: JournalPanel) -> AnyOverlay { AnyOverlay(panel) }
    public static func palette(_ palette: CommandPalette) -> AnyOverlay { AnyOverlay(palette) }
    public static func specNotes(_ panel: SpecNotesPanel) -> AnyOverlay { AnyOverlay(panel) }
}

extension OverlayModel {
    fileprivate func keymap(_ context: OverlayContext) -> Keymap { bindings(context).keymap() }
}
