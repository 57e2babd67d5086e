import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

@Suite struct CountryPickerTests {
    typealias F = PhoneFixture

    func ids(_ picker: CountryPickerScreen) -> [String] { picker.list.visibleItems.map(\.id) }

    @Test func popularLeadsWithTheLocaleThenGeorgiaUSAndUK() {
        let picker = CountryPickerScreen(localeRegion: "DE")
        #expect(picker.list.sections.map(\.title) == ["Popular", "All countries"])
        #expect(picker.list.sections[0].items.map(\.id) == ["DE", "GE", "US", "GB"])
        #expect(picker.list.sections[1].items.count == CountryCatalog.bundled.all.count)
        #expect(picker.list.sections[1].items.count == 245)
        #expect(CountryPickerScreen(localeRegion: "GE").list.sections[0].items.map(\.id) == ["GE", "US", "GB"])
        #expect(CountryPickerScreen(localeRegion: nil).list.sections[0].items.map(\.id) == ["GE", "US", "GB"])
    }

    @Test func rowsShowFlagNameAndDialCode() throws {
        let georgia = try #require(CountryPickerScreen(localeRegion: "GE").list.sections[0].items.first)
        #expect(georgia.leading == "🇬🇪")
        #expect(georgia.title == "Georgia")
        #expect(georgia.trailing == "+995")
    }

    @Test func searchFiltersAsYouTypeByNameIsoOrDialCode() {
        let start = F.state([F.phone(), AnyScreen(CountryPickerScreen(localeRegion: "GE"))])
        let harness = ReducerHarness(start)
        harness.send(.input(.key(.character("g")))) {
            $0.top = AnyScreen(CountryPickerScreen(localeRegion: "GE", query: "g"))
        }
        harness.send(.input(.key(.character("e")))) {
            $0.top = AnyScreen(CountryPickerScreen(localeRegion: "GE", query: "ge"))
        }
        let found = ids(harness.state.top.as(CountryPickerScreen.self)!)
        #expect(found.first == "GE")
        #expect(found.contains("DE"))  // Germany by name
        #expect(!found.contains("AR"))  // "ge" is inside Argentina, not at a word's start
        #expect(Set(found).count == found.count)  // Georgia once, though it is in both sections

        #expect(ids(CountryPickerScreen(localeRegion: "GE", query: "+995")) == ["GE"])
        #expect(ids(CountryPickerScreen(localeRegion: "GE", query: "995")) == ["GE"])
        #expect(ids(CountryPickerScreen(localeRegion: "GE", query: "gb")).contains("GB"))
        #expect(ids(CountryPickerScreen(localeRegion: "GE", query: "zzz")).isEmpty)
    }

    @Test func arrowsMoveTheSelectionAndEnterPicksIt() {
        let harness = ReducerHarness(
            F.state([F.phone("7911 123456"), AnyScreen(CountryPickerScreen(localeRegion: "GE"))]))
        var moved = CountryPickerScreen(localeRegion: "GE")
        moved.list.move(by: 1)
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(moved) }
        moved.list.move(by: 1)
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(moved) }
        harness.send(.input(.key(.enter))) {
            $0.stack.removeLast()
            $0.top = F.phone("7911 123456", country: "GB")
        }
    }

    @Test func enterWithNothingFoundDoesNothing() {
        let harness = ReducerHarness(
            F.state([F.phone(), AnyScreen(CountryPickerScreen(localeRegion: "GE", query: "zzz"))]))
        harness.send(.input(.key(.enter)))
        #expect(F.rendered(harness.state).contains("No results"))
    }

    @Test func ctrlSOpensContactSupport() {
        let harness = ReducerHarness(F.state([F.phone(), AnyScreen(CountryPickerScreen(localeRegion: "GE"))]))
        harness.send(
            .input(.key(.control("s"))),
            effects: [.request(LoadLastError(), id: harness.state.nextRequestID)]
        ) {
            $0.supportPushed(.user("usr_7G8H9K2L"))
        }
    }

    @Test func lettersAreSearchTextNotShortcuts() {
        let harness = ReducerHarness(F.state([F.phone(), AnyScreen(CountryPickerScreen(localeRegion: "GE"))]))
        harness.send(.input(.key(.character("q")))) {
            $0.top = AnyScreen(CountryPickerScreen(localeRegion: "GE", query: "q"))
        }
        #expect(ids(harness.state.top.as(CountryPickerScreen.self)!).contains("QA"))
    }

    @Test func asciiModeShowsIsoCodesInsteadOfFlags() {
        var state = F.state([F.phone(), AnyScreen(CountryPickerScreen(localeRegion: "GE"))])
        state.options.ascii = true
        let text = F.rendered(state)
        #expect(text.contains("GE   Georgia"))
        #expect(!text.contains("🇬🇪"))
        #expect(text.contains("Don't see your country? Contact support"))
    }
}
