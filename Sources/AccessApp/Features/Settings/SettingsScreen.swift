import TerminalKit

/// Settings root: the way into Account access, the screen gallery, the keyboard check and, at
/// the bottom, Log out (seed 000: a session action, so here and not on the hub).
public struct SettingsScreen: ScreenModel {
    public var selection: Int
    public init(selection: Int = 0) { self.selection = selection }

    public var id: String { "settings" }

    static let rows = [
        ListRow("Account access", detail: "Phone number, email & password, Apple, Google", control: .chevron),
        ListRow("Screen gallery", detail: "Every screen in every state, for demos", control: .chevron),
        ListRow("Keyboard check", detail: "See what your terminal sends: keys and paste", control: .chevron),
        ListRow("Log out", isDestructive: true),
    ]
    static let logoutRow = 3

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([.move, .open("Open")])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event else { return nil }
        switch key {
        case .up, .character("k"):
            selection = max(0, selection - 1)
            return []
        case .down, .character("j"):
            selection = min(Self.rows.count - 1, selection + 1)
            return []
        case .enter, .right:
            switch selection {
            case 0: return [.push(HubScreen(isLoading: true))]
            case 1: return [.push(GalleryScreen())]
            case 2: return [.push(KeyboardCheckScreen())]
            default: return [.showSheet(.confirmLogout)]
            }
        default:
            return nil
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Settings")
        for (index, row) in Self.rows.enumerated() {
            var row = row
            row.isSelected = index == selection
            // Log out stands apart from the rows that open screens, as at the bottom of seed 002's list.
            if index == Self.logoutRow { canvas.skip(1) }
            canvas.row(row)
        }
        if let url = context.options.backendURL {
            let admin = context.options.hasReferenceBackend ? " · admin API: \(url)/_admin" : ""
            canvas.paragraph("Backend: \(url)\(admin)", style: .muted)
        }
    }
}
