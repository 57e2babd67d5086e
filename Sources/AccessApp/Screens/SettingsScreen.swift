import TerminalKit

/// Settings root: the way into Account access (log out will live here too, seed 000).
public enum SettingsScreen {
    public struct State: Equatable, Sendable {
        public var selection: Int
        public init(selection: Int = 0) { self.selection = selection }
    }

    public enum Action: Equatable, Sendable {
        case move(Int)
        case open
    }

    struct Row: Equatable {
        var title: String
        var detail: String
    }

    static let rows = [
        Row(title: "Account access", detail: "Phone number, email & password, Apple, Google"),
        Row(title: "Screen gallery", detail: "Every screen in every state, for demos"),
    ]

    static let keymap = Keymap([
        KeyBinding([.up, .down], "Move"),
        KeyBinding([.enter], "Open"),
    ])

    static func action(for key: Key, in state: State) -> Action? {
        switch key {
        case .up, .character("k"): return .move(-1)
        case .down, .character("j"): return .move(1)
        case .enter, .right: return .open
        default: return nil
        }
    }

    static func reduce(_ state: inout State, _ action: Action) -> [Command] {
        switch action {
        case .move(let delta):
            state.selection = min(max(0, state.selection + delta), rows.count - 1)
            return []
        case .open:
            switch state.selection {
            case 1: return [.push(.gallery(.init()))]
            default: return [.showToast("Account access arrives with the hub screen.")]
            }
        }
    }

    static func view(_ state: State, into canvas: inout Canvas) {
        canvas.title("Settings")
        for (index, row) in rows.enumerated() {
            canvas.row(title: row.title, detail: row.detail, trailing: "›", selected: index == state.selection)
        }
    }
}
