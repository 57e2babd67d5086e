import TerminalKit

/// A bottom sheet over the current screen, and what each of its actions does. Features build
/// their own sheets (the last-method warning, "Phone updated", …) next to their screens; the
/// actions' commands act for the screen the sheet covers.
public struct Sheet: OverlayModel {
    public var sheet: BottomSheet
    /// What choosing each action does, by index, besides closing the sheet.
    public var actions: [[Command]]
    /// What Esc does besides closing it: nothing, except where closing is an answer the screen below words (the
    /// passkey prompt's cancel).
    public var closing: [Command]
    /// The footer's words for Enter and Esc: "Confirm" and "Close", or a prompt's own ("Approve", "Cancel").
    public var confirmWord: String
    public var closeWord: String

    /// A sheet whose actions include a destructive one opens on the first that is not (Cancel): the
    /// destructive action takes a deliberate move, as on the platforms (issue 28).
    public init(
        title: String, body: String, icon: BottomSheet.Icon? = nil, actions: [(BottomSheet.Action, [Command])],
        closing: [Command] = [], confirmWord: String = "Confirm", closeWord: String = "Close"
    ) {
        let kinds = actions.map(\.0)
        let safe = kinds.contains(where: \.isDestructive) ? kinds.firstIndex { !$0.isDestructive } : nil
        sheet = BottomSheet(title: title, body: body, actions: kinds, icon: icon, selectedAction: safe ?? 0)
        self.actions = actions.map(\.1)
        self.closing = closing
        self.confirmWord = confirmWord
        self.closeWord = closeWord
    }

    public enum Intent: Sendable { case previous, next, confirm, close }

    public var id: String { "sheet" }
    public var actsForScreen: Bool { true }

    public func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>] {
        // A sheet with nothing to choose (no passkey on this device) only closes.
        guard !actions.isEmpty else { return [KeyBinding([.escape], closeWord, .close)] }
        return [
            KeyBinding(
                KeyHint([.up, .down], "Choose", aliases: [.left, .right, .backTab, .tab]),
                intents: [
                    .up: .previous, .left: .previous, .backTab: .previous, .down: .next, .right: .next, .tab: .next,
                ]),
            KeyBinding([.enter], confirmWord, .confirm),
            KeyBinding([.escape], closeWord, .close),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command] {
        switch intent {
        case .previous:
            sheet.move(by: -1)
            return []
        case .next:
            sheet.move(by: 1)
            return []
        case .confirm: return [.dismissOverlay] + commands(choosing: sheet.selectedAction)
        case .close: return [.dismissOverlay] + closing
        }
    }

    /// What choosing action `index` does: the sheet is closed first.
    func commands(choosing index: Int) -> [Command] {
        actions.indices.contains(index) ? actions[index] : []
    }

    /// Above the footer, which shows the sheet's own keys.
    public func frame(_ context: OverlayContext) -> Rect {
        sheet.frame(in: Size(cols: context.size.cols, rows: context.size.rows - 1), maxWidth: Canvas.maxContentWidth)
    }

    public func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext) {
        var above = CellGrid(size: Size(cols: grid.size.cols, rows: grid.size.rows - 1))
        above.draw(grid, at: Point(x: 0, y: 0))
        sheet.render(into: &above, glyphs: context.glyphs, maxWidth: Canvas.maxContentWidth)
        grid.draw(above, at: Point(x: 0, y: 0))
    }

    public func rows(in frame: Rect, _ context: OverlayContext) -> [Rect] { sheet.actionRows(in: frame) }

    public mutating func select(row: Int, _ context: OverlayContext) { sheet.select(row) }
}
