import SnapshotSupport
import Testing

@testable import TerminalKit

/// The picker as the app builds it: the popular countries, then all of them.
func countryList() -> SearchableList {
    let countries: [(String, String, String, String, [String])] = [
        ("GE", "🇬🇪", "Georgia", "+995", ["Sakartvelo"]),
        ("US", "🇺🇸", "United States", "+1", ["USA", "America"]),
        ("GB", "🇬🇧", "United Kingdom", "+44", ["UK", "Britain"]),
        ("DE", "🇩🇪", "Germany", "+49", ["Deutschland"]),
        ("AM", "🇦🇲", "Armenia", "+374", []),
        ("AZ", "🇦🇿", "Azerbaijan", "+994", []),
        ("FR", "🇫🇷", "France", "+33", []),
        ("IT", "🇮🇹", "Italy", "+39", ["Italia"]),
        ("KZ", "🇰🇿", "Kazakhstan", "+7", []),
        ("NL", "🇳🇱", "Netherlands", "+31", ["Holland"]),
        ("PL", "🇵🇱", "Poland", "+48", ["Polska"]),
        ("RE", "🇷🇪", "Réunion", "+262", []),
        ("RU", "🇷🇺", "Russia", "+7", []),
        ("ES", "🇪🇸", "Spain", "+34", ["España"]),
        ("TR", "🇹🇷", "Türkiye", "+90", ["Turkey"]),
        ("UA", "🇺🇦", "Ukraine", "+380", []),
    ]
    let items = countries.map { iso, flag, name, dial, aliases in
        SearchableList.Item(
            id: iso, leading: flag, title: name, trailing: dial, searchKeys: [name, iso, dial] + aliases)
    }
    let popular = items.filter { ["GE", "US", "GB"].contains($0.id) }
    return SearchableList(
        sections: [.init("Popular", items: popular), .init("All countries", items: items)],
        searchPlaceholder: "Search country or code", emptyMessage: "No countries match your search",
        footer: "Don't see your country? Contact support")
}

@Suite struct SearchableListTests {
    func render(_ list: SearchableList, _ size: Size = .standard) -> CellGrid {
        var grid = CellGrid(size: size)
        list.render(into: &grid, in: grid.bounds)
        return grid
    }

    func titles(_ list: SearchableList) -> [String] { list.visibleItems.map(\.title) }

    @Test func unfilteredWithSections() {
        let list = countryList()
        #expect(list.visibleItems.count == 19)
        #expect(list.selectedItem?.id == "GE")
        assertSnapshot(of: render(list), named: "list-unfiltered")
    }

    @Test func columnsAreAbsolute() {
        let grid = render(countryList())
        let rows = grid.textLines()
        let georgia = rows.firstIndex { $0.contains("Georgia") }!
        let armenia = rows.firstIndex { $0.contains("Armenia") }!
        #expect(grid[7, georgia].grapheme == "G")
        #expect(grid[7, armenia].grapheme == "A")
        #expect(grid[76, georgia].grapheme == "5")
        #expect(grid[76, armenia].grapheme == "4")
        #expect(grid[0, georgia].grapheme == "▸")
    }

    @Test func filteredByName() {
        var list = countryList()
        list.setQuery("uni")
        #expect(titles(list) == ["United States", "United Kingdom"])
        assertSnapshot(of: render(list), named: "list-filter-name")
    }

    @Test func filterIsCaseAndDiacriticInsensitive() {
        var list = countryList()
        list.setQuery("REUNION")
        #expect(titles(list) == ["Réunion"])
        list.setQuery("turk")
        #expect(titles(list) == ["Türkiye"])
        list.setQuery("espana")
        #expect(titles(list) == ["Spain"])
    }

    @Test func filterMatchesWordStartsNotMiddles() {
        var list = countryList()
        list.setQuery("ge")
        #expect(titles(list) == ["Georgia", "Germany"])
    }

    @Test func filteredByISOCode() {
        var list = countryList()
        list.setQuery("gb")
        #expect(titles(list) == ["United Kingdom"])
        assertSnapshot(of: render(list), named: "list-filter-iso")
    }

    /// Issue 28 item 20: "de" is Germany's code, so Germany comes before Denmark, whose name merely
    /// starts so; a name's start comes before a later word's ("ge": Georgia, Germany, then "Lake Geneva").
    @Test func anExactKeyComesFirstThenAKeysStartThenAWordsStart() {
        let items = [
            ("DK", "Denmark", "+45"), ("DE", "Germany", "+49"), ("GE", "Georgia", "+995"), ("XG", "Lake Geneva", "+0"),
        ].map { iso, name, dial in
            SearchableList.Item(id: iso, leading: iso, title: name, trailing: dial, searchKeys: [name, iso, dial])
        }
        var list = SearchableList(sections: [.init("All countries", items: items)])
        list.setQuery("de")
        #expect(titles(list) == ["Germany", "Denmark"])
        list.setQuery("ge")
        #expect(titles(list) == ["Georgia", "Germany", "Lake Geneva"])
        list.setQuery("+4")
        #expect(titles(list) == ["Denmark", "Germany"])
        list.setQuery("49")
        #expect(titles(list) == ["Germany"])
    }

    @Test func filteredByDialCode() {
        var list = countryList()
        list.setQuery("+7")
        #expect(titles(list) == ["Kazakhstan", "Russia"])
        list.setQuery("99")
        #expect(titles(list) == ["Georgia", "Azerbaijan"])
        assertSnapshot(of: render(list), named: "list-filter-dial")
    }

    @Test func emptyResult() {
        var list = countryList()
        list.setQuery("Atlantis")
        #expect(list.selectedItem == nil)
        list.move(by: 1)
        let grid = render(list)
        #expect(grid.text().contains("No countries match your search"))
        assertSnapshot(of: grid, named: "list-empty")
    }

    @Test func scrolledKeepsSelectionVisible() {
        var list = countryList()
        list.move(by: 16)
        #expect(list.selectedItem?.title == "Spain")
        let grid = render(list)
        #expect(grid.text().contains("▸ 🇪🇸   Spain"))
        #expect(!grid.text().contains("Popular"))
        assertSnapshot(of: grid, named: "list-scrolled")
    }

    @Test func ensureSelectionVisibleScrollsMinimally() {
        var list = countryList()
        list.move(by: 18)
        list.ensureSelectionVisible(rows: 5)
        #expect(list.scrollOffset == list.lines.count - 5)
        list.move(by: -1)
        list.ensureSelectionVisible(rows: 5)
        #expect(list.scrollOffset == list.lines.count - 5)
        list.move(by: -100)
        list.ensureSelectionVisible(rows: 5)
        #expect(list.scrollOffset == 0)
        #expect(list.selectedItem?.id == "GE")
    }

    @Test func selectionIsClamped() {
        var list = countryList()
        list.move(by: -3)
        #expect(list.selectedIndex == 0)
        list.move(by: 1000)
        #expect(list.selectedIndex == 18)
        #expect(list.selectedItem?.id == "UA")
    }

    @Test func typingFiltersAndResetsSelection() {
        var list = countryList()
        list.handle(.key(.down))
        list.handle(.key(.down))
        #expect(list.selectedIndex == 2)
        list.handle(.key(.character("p")))
        list.handle(.key(.character("o")))
        #expect(list.query == "po")
        #expect(list.selectedIndex == 0)
        #expect(titles(list) == ["Poland"])
        #expect(!changed(list.handle(.key(.enter))))
        list.handle(.key(.backspace))
        list.handle(.key(.backspace))
        #expect(titles(list).count == 19)
    }

    /// The search is a field like any other: a paste longer than any name is cut to the limit.
    @Test func theQueryStopsAtItsLimit() {
        var list = countryList()
        list.handle(.paste(String(repeating: "x", count: 10_000)))
        #expect(list.query.count == SearchableList.maxQueryLength)
        list.handle(.key(.character("y")))
        #expect(list.query.count == SearchableList.maxQueryLength)
        #expect(titles(list).isEmpty)
    }

    /// Nothing on a grid of no cells; on small ones, the search field and as many rows as fit.
    @Test func smallSizesDrawWhatFits() {
        #expect(render(countryList(), Size(cols: 0, rows: 0)).textLines().isEmpty)
        for size in [Size(cols: 12, rows: 5), Size(cols: 40, rows: 12)] {
            assertSnapshot(of: render(countryList(), size), named: "country-list-\(size.cols)x\(size.rows)")
        }
    }
}
