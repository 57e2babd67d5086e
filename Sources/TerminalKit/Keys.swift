/// A key press, decoded by the driver and named the same way on every terminal.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case enter, escape, tab, backTab, backspace, delete
    case home, end, pageUp, pageDown
    case control(Character)  // lowercase letter: .control("c") is Ctrl+C
    case function(Int)

    /// The label used in footers, help and tapes ("↑", "Enter", "Ctrl+R", "F2", "q").
    public var label: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift+Tab"
        case .backspace: return "Backspace"
        case .delete: return "Del"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .control(let c): return "Ctrl+\(String(c).uppercased())"
        case .function(let n): return "F\(n)"
        }
    }
}

/// Everything the terminal can tell the app.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    /// A bracketed paste, delivered whole with control characters already stripped.
    case paste(String)
    case resize(Size)
    /// A click or a turn of the wheel, when the terminal reports the mouse (`--no-mouse` keeps it off).
    case mouse(MouseEvent)

    /// Typing or editing inside a text field (characters, paste, erasing, moving the caret), as
    /// opposed to a shortcut: on a screen that takes text these are never listed in its keymap.
    public var isTextEditing: Bool {
        switch self {
        case .paste: return true
        case .resize, .mouse: return false
        case .key(let key):
            switch key {
            case .character, .backspace, .delete, .left, .right, .home, .end, .control("a"), .control("e"),
                .control("u"), .control("k"), .control("w"):
                return true
            default: return false
            }
        }
    }
}

/// What the mouse did, at which cell (column and row from the top left, 0-based).
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case leftClick, wheelUp, wheelDown }
    public var kind: Kind
    public var point: Point

    public init(_ kind: Kind, at point: Point) {
        self.kind = kind
        self.point = point
    }
}

/// One entry of a keymap as people read it: which keys, and what they do in a few words. The footer,
/// the `?` help and the palette draw these; a `KeyBinding` pairs one with what the keys do.
public struct KeyHint: Hashable, Sendable {
    public var keys: [Key]
    public var description: String
    /// Shown in the footer as well as in the `?` help.
    public var inFooter: Bool
    /// Keys that do the same for those used to them (k/j for ↑/↓, → for Enter): the help lists
    /// them in brackets, the footer leaves them out.
    public var aliases: [Key]

    public init(_ keys: [Key], _ description: String, inFooter: Bool = true, aliases: [Key] = []) {
        self.keys = keys
        self.description = description
        self.inFooter = inFooter
        self.aliases = aliases
    }

    public var keyLabel: String { keys.map(\.label).joined(separator: "/") }

    public var allKeys: [Key] { keys + aliases }
}

/// The keys a screen or an overlay answers to, as hints: one list feeds the footer and the help.
public struct Keymap: Hashable, Sendable {
    public var hints: [KeyHint]
    public init(_ hints: [KeyHint]) { self.hints = hints }

    public var footer: [KeyHint] { hints.filter(\.inFooter) }

    public func hint(for key: Key) -> KeyHint? { hints.first { $0.allKeys.contains(key) } }
}

/// A key binding is its action: the hint people read and the intent each of its keys stands for.
/// Whoever declares bindings performs their intents; nothing else dispatches keys, so what the
/// footer and the help list is exactly what acts.
public struct KeyBinding<Intent: Sendable>: Sendable {
    public var hint: KeyHint
    /// The intent of each key of the hint (its aliases included).
    public var intents: [Key: Intent]

    /// Every key, aliases included, does the same.
    public init(
        _ keys: [Key], _ description: String, inFooter: Bool = true, aliases: [Key] = [], _ intent: Intent
    ) {
        hint = KeyHint(keys, description, inFooter: inFooter, aliases: aliases)
        intents = Dictionary((keys + aliases).map { ($0, intent) }, uniquingKeysWith: { first, _ in first })
    }

    /// Keys that share one hint but not one intent (↑ and ↓ under "Move").
    public init(_ hint: KeyHint, intents: [Key: Intent]) {
        self.hint = hint
        self.intents = intents
    }

    public func intent(for key: Key) -> Intent? { intents[key] }

    /// The same keys and intents, read another way ("Choose" for a panel's "Move").
    public func described(_ description: String, inFooter: Bool? = nil) -> KeyBinding {
        var copy = self
        copy.hint.description = description
        if let inFooter { copy.hint.inFooter = inFooter }
        return copy
    }

    public func map<Other: Sendable>(_ transform: (Intent) -> Other) -> KeyBinding<Other> {
        KeyBinding<Other>(hint, intents: intents.mapValues(transform))
    }
}

extension Array {
    /// The intent of the first binding that names `key`.
    public func intent<Intent>(for key: Key) -> Intent? where Element == KeyBinding<Intent> {
        lazy.compactMap { $0.intent(for: key) }.first
    }

    public func keymap<Intent>() -> Keymap where Element == KeyBinding<Intent> { Keymap(map(\.hint)) }
}
