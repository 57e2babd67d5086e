import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Country or region" (seed 001): the bundled countries under "Popular" and "All countries",
/// searched by name, ISO code or dial code as you type. Enter hands the country back to the
/// phone screen below; Esc leaves it unchanged.
public struct CountryPickerScreen: ScreenModel {
    public var list: SearchableList
    /// The device's region when the picker opened: it leads the Popular section (seed 000).
    public var localeRegion: String?

    /// `localeRegion` is passed in (not read here) so the same input always builds the same list.
    public init(localeRegion: String?, query: String = "") {
        self.localeRegion = localeRegion
        let catalog = CountryCatalog.bundled
        list = SearchableList(
            sections: [
                .init("Popular", items: catalog.popular(localeRegion: localeRegion).map(Self.item)),
                .init("All countries", items: catalog.all.map(Self.item)),
            ],
            footer: Self.footer)
        if !query.isEmpty { list.setQuery(query) }
    }

    static let footer = "Don't see your country? Contact support"
    /// Body rows of the list at 80×24 (title bar, search box, footer taken out): enough to keep
    /// the selection in view while moving; `render` corrects it at other sizes.
    static let visibleRows = 14

    static func item(_ country: Country) -> SearchableList.Item {
        SearchableList.Item(
            id: country.iso, leading: country.flag, title: country.name, trailing: country.dialCode,
            searchKeys: [country.name, country.iso, country.dialCode])
    }

    public var id: String { "country-picker" }
    public var takesText: Bool { true }

    public enum Intent: Sendable { case list(ListPosition.Move), choose, support }

    /// A long list whose letters are the search: no k/j/g/G, and Home/End go to either end of the list (the
    /// one-line search has little use for a caret jump).
    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        KeyBinding.longList(typing: true, Intent.list) + [
            KeyBinding([.enter], "Choose", .choose),
            KeyBinding([.control("s")], "Contact support", .support),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .list(let move): list.move(move, page: Self.visibleRows)
        case .choose:
            guard let item = list.selectedItem else { return [] }
            return [.deliverBelow(to: EnterPhoneScreen.self, .country(CountryChoice(iso: item.id))), .pop]
        case .support:
            return [.contactSupport(typed: nil)]
        }
        list.ensureSelectionVisible(rows: Self.visibleRows)
        return []
    }

    /// Typing and pasting into the search.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard list.handle(event, pageSize: Self.visibleRows) else { return nil }
        list.ensureSelectionVisible(rows: Self.visibleRows)
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Country or region")
        var shown = list
        if context.glyphs == .ascii {
            // Terminals without emoji get the ISO code in the flag's column.
            shown.sections = shown.sections.map { section in
                var section = section
                section.items = section.items.map { item in
                    var item = item
                    item.leading = item.id
                    return item
                }
                return section
            }
        }
        var drawn = SearchableList.Drawn()
        canvas.draw(height: canvas.remaining.height, spacing: 0) { grid, rect in
            drawn = shown.render(into: &grid, in: rect, glyphs: context.glyphs)
        }
        for (index, row) in drawn.rows.enumerated() { canvas.noteRow(row, isSelected: index == drawn.selectedRow) }
    }
}

/// A country picked in the country picker, handed down to the phone screen that pushed it.
public struct CountryChoice: Equatable, Sendable {
    /// ISO 3166 alpha-2.
    public var iso: String
    public init(iso: String) { self.iso = iso }
}
