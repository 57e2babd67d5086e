import TerminalKit

/// What a filterable list's own keys do: move the selection, and start, keep or clear the `/` filter. A
/// panel's `Intent` holds one (`case list(ListIntent)`) beside its own.
public enum ListIntent: Sendable { case move(ListPosition.Move), filter, endFilter, clearFilter }

/// A long list that `/` narrows: the journal (F3), the outbox, conformance's results and the screen gallery.
/// The selection indexes into the rows the filter keeps. What they share is here, once: the keys while the
/// filter is typed, Esc clearing an active filter before it closes anything, what those keys do, and typing
/// into the query. Each keeps its rows, its Enter and its drawing.
protocol FilterableList {
    var filter: ListFilter { get set }
    var selection: Int { get set }
    /// How many rows the filter keeps.
    var shownCount: Int { get }
}

extension FilterableList {
    /// The list's keys. While the filter is typed: the moves (letters are the query's), Enter keeps the filter,
    /// Esc clears it. Otherwise the moves (named `moves`), `open` (Enter), `/`, `more`, then Esc: `escape` when
    /// given (a run to stop), else clearing an active filter, else `close`. `panelKeys`: the keys that opened
    /// the panel, which close it too (not in the footer); q closes a panel whose letters are not typed.
    /// A screen has no `close`: its Esc is the app's Back.
    func listBindings<Intent>(
        moves: String = "Choose", open: KeyBinding<Intent>, more: [KeyBinding<Intent>] = [],
        escape: KeyBinding<Intent>? = nil, close: Intent? = nil, panelKeys: [Key] = [],
        _ intent: @escaping (ListIntent) -> Intent
    ) -> [KeyBinding<Intent>] {
        let clear = KeyBinding([.escape], "Clear filter", intent(.clearFilter))
        if filter.isEditing {
            var bindings = KeyBinding.longList(typing: true) { intent(.move($0)) }
            bindings += [KeyBinding([.enter], "Done", intent(.endFilter)), clear]
            if let close, !panelKeys.isEmpty {
                bindings.append(KeyBinding(panelKeys, "Close", inFooter: false, close))
            }
            return bindings
        }
        var bindings = KeyBinding.longList(moves: moves) { intent(.move($0)) }
        bindings += [open, KeyBinding(.filter, intents: [.character("/"): intent(.filter)])] + more
        if let escape { return bindings + [escape] }
        let quit = Key.character("q")
        if filter.isActive {
            bindings.append(clear)
            guard let close else { return bindings }
            let keys = panelKeys.isEmpty ? [quit] : panelKeys
            bindings.append(KeyBinding(keys, "Close", inFooter: false, aliases: panelKeys.isEmpty ? [] : [quit], close))
        } else if let close {
            bindings.append(KeyBinding([.escape], "Close", aliases: panelKeys + [quit], close))
        }
        return bindings
    }

    /// Does what a list key stands for; `page` is how far PgUp/PgDn move. Clearing the filter goes back to
    /// the first row.
    mutating func perform(_ intent: ListIntent, page: Int) {
        switch intent {
        case .move(let move):
            var position = ListPosition(selection: selection, count: shownCount)
            position.move(move, page: page)
            selection = position.selection
        case .filter: filter.isEditing = true
        case .endFilter: filter.isEditing = false
        case .clearFilter:
            filter.clear()
            selection = 0
        }
    }

    /// Typing into the filter; the selection goes back to the first match. nil when the query is not being
    /// typed, or the event is not typing.
    mutating func typeIntoFilter(_ event: InputEvent) -> [Command]? {
        guard filter.isEditing, filter.edit(event) else { return nil }
        selection = 0
        return []
    }
}
