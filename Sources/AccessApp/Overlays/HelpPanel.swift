import TerminalKit

/// The `?` help: every key of what it covers (the screen with the app's keys, or the overlay it was
/// opened over), from the same table the footer and dispatch use.
public struct HelpPanel: OverlayModel {
    /// The overlay the help was opened over: it comes back when the help closes.
    public var covering: AnyOverlay?

    public init(covering: AnyOverlay? = nil) { self.covering = covering }

    public enum Intent: Sendable { case close }

    public var id: String { "help" }

    public func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>] {
        [KeyBinding([.escape], "Close", aliases: [.enter, .character("?"), .character("q"), .function(1)], .close)]
    }

    public mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command] {
        covering.map { [.showOverlay($0)] } ?? [.dismissOverlay]
    }

    public func frame(_ context: OverlayContext) -> Rect {
        HelpOverlay(context.keymapBelow).frame(in: context.size, glyphs: context.glyphs)
    }

    public func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext) {
        HelpOverlay(context.keymapBelow).render(into: &grid, glyphs: context.glyphs)
    }

    /// The help covers the screen: a click anywhere closes it, as Esc does.
    public var clickInside: Key? { .escape }
}
