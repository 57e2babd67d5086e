import TerminalKit

/// Shows what the terminal sends, decoded: for support staff diagnosing "the arrow keys do
/// nothing" or "paste doesn't work" over a strange terminal or SSH.
public struct KeyboardCheckScreen: ScreenModel {
    /// Newest first.
    public var events: [String]
    public init(events: [String] = []) { self.events = events }

    public var id: String { "keyboard-check" }
    /// Every key is shown, not acted on; Esc twice leaves.
    public var takesText: Bool { true }
    public var acceptsAnyKey: Bool { true }
    static let historyLength = 8

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([KeyHint([.escape], "twice: Back")])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        let text: String
        switch event {
        case .key(let key):
            if key == .escape, events.first == "key Esc" { return [.pop] }
            text = "key \(key.label)"
        case .paste(let pasted):
            text = "paste \(pasted)"
        case .resize, .mouse:
            // A click reaches no screen as such: the app turns it into keys first.
            return nil
        }
        events.insert(text, at: 0)
        events = Array(events.prefix(Self.historyLength))
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Keyboard check", subtitle: "Press keys or paste text; each shows here as the app reads it.")
        canvas.paragraph("last: " + (events.first ?? "nothing yet"), style: .bold)
        for event in events.dropFirst() { canvas.paragraph(event, style: .muted, spacing: 0) }
    }
}
