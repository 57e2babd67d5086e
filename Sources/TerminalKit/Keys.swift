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
            case .character, .backspace, .delete, .left, .right, .home, .end, .control("a"), .control("e"): return true
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

/// One entry of a screen's keymap: which keys, and what they do in a few words.
public struct KeyBinding: Hashable, Sendable {
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

/// The keys a screen answers to: one list feeds the footer hints and the help overlay.
public struct Keymap: Hashable, Sendable {
    public var bindings: [KeyBinding]
    public init(_ bindings: [KeyBinding]) { self.bindings = bindings }

    public var footer: [KeyBinding] { bindings.filter(\.inFooter) }

    public func binding(for key: Key) -> KeyBinding? { bindings.first { $0.allKeys.contains(key) } }
}
