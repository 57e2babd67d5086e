import TerminalKit

/// Shows what the terminal sends, decoded: for support staff diagnosing "the arrow keys do
/// nothing" or "paste doesn't work" over a strange terminal or SSH.
public struct KeyboardCheckScreen: ScreenModel {
    /// Newest first.
    public var events: [String]
    public init(events: [String] = []) { self.events = events }

    public var id: String { "keyboard-check" }
    /// Every key is shown, not acted on, but the app's own (help, the panels); Esc twice leaves.
    public var takesText: Bool { true }
    public var acceptsAnyKey: Bool { true }
    static let historyLength = 8

    public enum Intent: Sendable { case escape }

    /// Esc is the one key of its own: shown like any other, and leaving when pressed twice.
    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [KeyBinding([.escape], "twice: Back", .escape)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let escape = "key \(Key.escape.label)"
        if events.first == escape { return [.pop] }
        show(escape)
        return []
    }

    /// Every other key, and a paste, as the app read it.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        switch event {
        case .key(let key):
            show("key \(key.label)")
        case .paste(let pasted):
            show("paste \(pasted)")
        case .resize, .mouse:
            // A click reaches no screen as such: the app turns it into keys first.
            return nil
        }
        return []
    }

    private mutating func show(_ text: String) {
        events.insert(text, at: 0)
        events = Array(events.prefix(Self.historyLength))
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Keyboard check", subtitle: "Press keys or paste text; each shows here as the app reads it.")
        canvas.paragraph("last: " + (events.first ?? "nothing yet"), style: .bold)
        for event in events.dropFirst() { canvas.paragraph(event, style: .muted, spacing: 0) }
    }
}
