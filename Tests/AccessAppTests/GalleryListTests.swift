import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// The gallery's 199 states and the 248 rows of the country picker are long lists: either end, where
/// the selection stands, and (the gallery) `/` to narrow the list.
@Suite struct GalleryListTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func gallery() -> AppState {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(GalleryScreen()))
        return state
    }

    static func press(_ keys: [Key], _ state: inout AppState) {
        for key in keys { _ = reduce(&state, .input(.key(key))) }
    }

    static func screen(_ state: AppState) -> GalleryScreen? { state.top.as(GalleryScreen.self) }

    @Test func endsAndThePositionLine() {
        var state = Self.gallery()
        let count = Gallery.entries.count
        Self.press([.end], &state)
        #expect(Self.screen(state)?.selection == count - 1)
        #expect(render(state, size: .standard).text().contains("\(count) of \(count)"))
        Self.press([.character("g")], &state)
        #expect(Self.screen(state)?.selection == 0)
        Self.press([.character("G")], &state)
        #expect(Self.screen(state)?.selection == count - 1)
        Self.press([.home], &state)
        #expect(render(state, size: .standard).text().contains("1 of \(count)"))
    }

    @Test func slashNarrowsByIdAndSummaryThenEnterShowsTheChoice() throws {
        var state = Self.gallery()
        Self.press([.character("/")], &state)
        #expect(state.top.base.takesText)
        for character in "hub off" { Self.press([.character(character)], &state) }
        let shown = try #require(Self.screen(state)).entries.map(\.id)
        #expect(shown == ["hub:offline"])
        #expect(render(state, size: .standard).text().contains("/ hub off"))
        // How many of the states the filter keeps, as the journal's does (issue 29 item 11).
        #expect(render(state, size: .standard).text().contains("1 of \(Gallery.entries.count) match"))
        // q is text while the filter is typed, not Quit.
        Self.press([.character("q")], &state)
        #expect(Self.screen(state)?.entries.isEmpty == true)
        #expect(render(state, size: .standard).text().contains("No state matches the filter."))
        Self.press([.backspace, .enter], &state)
        #expect(Self.screen(state)?.filter.isEditing == false)
        Self.press([.enter], &state)
        #expect(state.top.as(PreviewScreen.self)?.entryID == "hub:offline")
    }

    @Test func escClearsTheFilterAndKeepsTheChosenState() throws {
        var state = Self.gallery()
        Self.press([.character("/")], &state)
        for character in "country" { Self.press([.character(character)], &state) }
        Self.press([.down, .escape], &state)
        let gallery = try #require(Self.screen(state))
        #expect(!gallery.filter.isActive)
        #expect(Gallery.entries[gallery.selection].id.hasPrefix("country-picker:"))
        Self.press([.escape], &state)
        #expect(Self.screen(state) == nil)
    }

    @Test func homeAndEndGoToEitherEndOfTheCountries() throws {
        var state = SampleData.state([CountryPickerScreen(localeRegion: nil)], now: Self.start)
        Self.press([.end], &state)
        let picker = try #require(state.top.as(CountryPickerScreen.self))
        #expect(picker.list.selectedItem?.id == CountryCatalog.bundled.all.last?.iso)
        #expect(
            render(state, size: .standard).text().contains(
                "\(picker.list.position.count) of \(picker.list.position.count)"))
        Self.press([.home], &state)
        #expect(state.top.as(CountryPickerScreen.self)?.list.selectedIndex == 0)
    }
}
