import AccessAppTesting
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

    static func press(_ keys: [Key], _ harness: ReducerHarness) {
        for key in keys { harness.send(.input(.key(key))) }
    }

    static func screen(_ state: AppState) -> GalleryScreen? { state.top.as(GalleryScreen.self) }

    @Test func endsAndThePositionLine() {
        let harness = ReducerHarness(Self.gallery(), exhaustivity: .off)
        let count = Gallery.entries.count
        Self.press([.end], harness)
        #expect(Self.screen(harness.state)?.selection == count - 1)
        #expect(render(harness.state, size: .standard).text().contains("\(count) of \(count)"))
        Self.press([.character("g")], harness)
        #expect(Self.screen(harness.state)?.selection == 0)
        Self.press([.character("G")], harness)
        #expect(Self.screen(harness.state)?.selection == count - 1)
        Self.press([.home], harness)
        #expect(render(harness.state, size: .standard).text().contains("1 of \(count)"))
    }

    @Test func slashNarrowsByIdAndSummaryThenEnterShowsTheChoice() throws {
        let harness = ReducerHarness(Self.gallery(), exhaustivity: .off)
        Self.press([.character("/")], harness)
        #expect(harness.state.top.base.takesText)
        for character in "hub off" { Self.press([.character(character)], harness) }
        let shown = try #require(Self.screen(harness.state)).entries.map(\.id)
        #expect(shown == ["hub:offline"])
        #expect(render(harness.state, size: .standard).text().contains("/ hub off"))
        // How many of the states the filter keeps, as the journal's does (issue 29 item 11).
        #expect(render(harness.state, size: .standard).text().contains("1 of \(Gallery.entries.count) match"))
        // q is text while the filter is typed, not Quit.
        Self.press([.character("q")], harness)
        #expect(Self.screen(harness.state)?.entries.isEmpty == true)
        #expect(render(harness.state, size: .standard).text().contains("No state matches the filter."))
        Self.press([.backspace, .enter], harness)
        #expect(Self.screen(harness.state)?.filter.isEditing == false)
        Self.press([.enter], harness)
        #expect(harness.state.top.as(PreviewScreen.self)?.entryID == "hub:offline")
    }

    @Test func escClearsTheFilterAndKeepsTheChosenState() throws {
        let harness = ReducerHarness(Self.gallery(), exhaustivity: .off)
        Self.press([.character("/")], harness)
        for character in "country" { Self.press([.character(character)], harness) }
        Self.press([.down, .escape], harness)
        let gallery = try #require(Self.screen(harness.state))
        #expect(!gallery.filter.isActive)
        #expect(Gallery.entries[gallery.selection].id.hasPrefix("country-picker:"))
        Self.press([.escape], harness)
        #expect(Self.screen(harness.state) == nil)
    }

    @Test func homeAndEndGoToEitherEndOfTheCountries() throws {
        let harness = ReducerHarness(
            SampleData.state([CountryPickerScreen(localeRegion: nil)], now: Self.start), exhaustivity: .off)
        Self.press([.end], harness)
        let picker = try #require(harness.state.top.as(CountryPickerScreen.self))
        #expect(picker.list.selectedItem?.id == CountryCatalog.bundled.all.last?.iso)
        #expect(
            render(harness.state, size: .standard).text().contains(
                "\(picker.list.position.count) of \(picker.list.position.count)"))
        Self.press([.home], harness)
        #expect(harness.state.top.as(CountryPickerScreen.self)?.list.selectedIndex == 0)
    }
}
