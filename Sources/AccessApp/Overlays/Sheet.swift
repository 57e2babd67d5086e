import TerminalKit

/// A bottom sheet over the current screen, and what each of its actions does. Features build
/// their own sheets (the last-method warning, "Phone updated", …) next to their screens.
public struct Sheet: Equatable, Sendable {
    public var sheet: BottomSheet
    /// What choosing each action does, by index, besides closing the sheet; Esc only closes.
    public var actions: [[Command]]

    public init(
        title: String, body: String, icon: BottomSheet.Icon? = nil, actions: [(BottomSheet.Action, [Command])]
    ) {
        sheet = BottomSheet(title: title, body: body, actions: actions.map(\.0), icon: icon)
        self.actions = actions.map(\.1)
    }

    /// What choosing action `index` does: the sheet is closed first by the reducer.
    func commands(choosing index: Int) -> [Command] {
        actions.indices.contains(index) ? actions[index] : []
    }
}
