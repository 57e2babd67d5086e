import TerminalKit

extension KeyHint {
    /// ↑/↓ through a list, with k/j for those used to them.
    public static let move = KeyHint([.up, .down], "Move", aliases: [.character("k"), .character("j")])

    /// Enter on a list row, with → as on a phone's chevron.
    public static func open(_ description: String) -> KeyHint {
        KeyHint([.enter], description, aliases: [.right])
    }
}

/// The bindings many screens share, so each reads the same everywhere.
extension KeyBinding {
    /// ↑/↓ through a list, with k/j for those used to them.
    public static func move(up: Intent, down: Intent) -> KeyBinding {
        KeyBinding(
            .move, intents: [.up: up, .character("k"): up, .down: down, .character("j"): down])
    }

    /// Enter on a list row, with → as on a phone's chevron.
    public static func open(_ description: String, _ intent: Intent) -> KeyBinding {
        KeyBinding([.enter], description, aliases: [.right], intent)
    }

    /// Tab/Shift+Tab (↓/↑ too) between a form's fields and its button.
    public static func nextField(next: Intent, previous: Intent) -> KeyBinding {
        KeyBinding(
            KeyHint([.tab, .backTab], "Next field", aliases: [.down, .up]),
            intents: [.tab: next, .down: next, .backTab: previous, .up: previous])
    }

    /// The outbox panel, where a screen waits for a code or a link the reference backend "sent".
    public static func outbox(_ description: String = "Outbox", inFooter: Bool = true, _ intent: Intent) -> KeyBinding {
        KeyBinding(OutboxPanel.keys, description, inFooter: inFooter, intent)
    }
}
