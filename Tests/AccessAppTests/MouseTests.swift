import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// A click is the keys it stands for: each test compares it with those keys, or with nothing.
@Suite struct MouseTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func runtime(_ id: String) -> HeadlessRuntime {
        HeadlessRuntime(state: Gallery.entry(id)!.makeState(now), size: .standard)
    }

    /// The cell where `text` starts on screen (columns counted by display width).
    func point(of text: String, in grid: CellGrid) -> Point? {
        for (y, line) in grid.textLines().enumerated() {
            guard let range = line.range(of: text) else { continue }
            return Point(x: DisplayWidth.of(String(line[..<range.lowerBound])), y: y)
        }
        return nil
    }

    func click(_ runtime: inout HeadlessRuntime, _ point: Point) {
        runtime.send(.input(.mouse(MouseEvent(.leftClick, at: point))))
    }

    @Test func aClickOnAHubRowOpensItAsArrowsAndEnterWould() throws {
        var clicked = runtime("hub:default")
        let row = try #require(point(of: "Email & password", in: clicked.screen))
        click(&clicked, row)
        var typed = runtime("hub:default")
        typed.send(.input(.key(.down)))
        typed.send(.input(.key(.enter)))
        #expect(clicked.state.stack.count == runtime("hub:default").state.stack.count + 1)
        #expect(clicked.state == typed.state)
        #expect(clicked.externalEffects == typed.externalEffects)
    }

    @Test func aClickOnARowsDetailLineOpensItToo() throws {
        var clicked = runtime("hub:default")
        let row = try #require(point(of: "Email & password", in: clicked.screen))
        click(&clicked, Point(x: 60, y: row.y + 1))
        var typed = runtime("hub:default")
        typed.send(.input(.key(.down)))
        typed.send(.input(.key(.enter)))
        #expect(clicked.state == typed.state)
    }

    @Test func aClickOnTheSelectedRowIsEnter() throws {
        var clicked = runtime("hub:default")
        let row = try #require(point(of: "Phone number", in: clicked.screen))
        click(&clicked, row)
        var typed = runtime("hub:default")
        typed.send(.input(.key(.enter)))
        #expect(clicked.state == typed.state)
        #expect(clicked.state.stack.count > runtime("hub:default").state.stack.count || clicked.state.overlay != nil)
    }

    @Test func aClickOutsideASheetClosesIt() {
        var clicked = runtime("hub:last-method")
        #expect(clicked.state.overlay != nil)
        click(&clicked, Point(x: 40, y: 2))
        #expect(clicked.state.overlay == nil)
    }

    @Test func aClickOnASheetsTextLeavesItOpen() throws {
        var clicked = runtime("hub:last-method")
        let before = clicked.state
        let title = try #require(point(of: "This is your only sign-in method", in: clicked.screen))
        click(&clicked, title)
        #expect(clicked.state == before)
    }

    @Test func aClickOnASheetsActionChoosesIt() throws {
        var clicked = runtime("hub:last-method")
        let cancel = try #require(point(of: "Cancel", in: clicked.screen))
        click(&clicked, cancel)
        var typed = runtime("hub:last-method")
        typed.send(.input(.key(.down)))
        typed.send(.input(.key(.down)))
        typed.send(.input(.key(.enter)))
        #expect(clicked.state.overlay == nil)
        #expect(clicked.state == typed.state)
    }

    @Test func aClickOnAFooterHintActsAsItsKey() throws {
        var clicked = runtime("hub:default")
        let footer = clicked.screen.text(row: 23)
        let help = try #require(footer.range(of: "?/F1 Help"))
        click(&clicked, Point(x: DisplayWidth.of(String(footer[..<help.lowerBound])) + 5, y: 23))
        #expect(clicked.state.overlay == .help)
    }

    @Test func theWheelMovesThroughTheCountryPickerAsArrowsDo() {
        var wheeled = runtime("country-picker:default")
        var typed = runtime("country-picker:default")
        for _ in 0..<3 { wheeled.send(.input(.mouse(MouseEvent(.wheelDown, at: Point(x: 10, y: 8))))) }
        wheeled.send(.input(.mouse(MouseEvent(.wheelUp, at: Point(x: 10, y: 8)))))
        for key in [Key.down, .down, .down, .up] { typed.send(.input(.key(key))) }
        #expect(wheeled.state.top != runtime("country-picker:default").state.top)
        #expect(wheeled.state == typed.state)
    }

    @Test func aClickOnACountryPicksIt() throws {
        var clicked = runtime("country-picker:default")
        let screen = clicked.screen
        let row = try #require(point(of: "United States", in: screen))
        click(&clicked, row)
        #expect(!clicked.state.top.is(ScreenType(CountryPickerScreen.self)))
    }

    @Test func aClickOnEmptySpaceDoesNothing() throws {
        var clicked = runtime("hub:default")
        let before = clicked.state
        let lines = clicked.screen.textLines()
        let blank = try #require((3..<23).last { lines[$0].isEmpty })
        click(&clicked, Point(x: 40, y: blank))
        click(&clicked, Point(x: 40, y: 0))  // the title
        #expect(clicked.state == before)
        #expect(clicked.externalEffects.isEmpty)
    }

    @Test func aClickAnywhereClosesTheHelp() {
        var clicked = runtime("settings:help")
        #expect(clicked.state.overlay == .help)
        click(&clicked, Point(x: 40, y: 12))
        #expect(clicked.state.overlay == nil)
    }

    @Test func aClickOnAPaletteEntryRunsItAsArrowsAndEnterWould() throws {
        var clicked = runtime("hub:default")
        clicked.send(.input(.key(.control("p"))))
        guard clicked.state.overlay?.as(CommandPalette.self) != nil else {
            Issue.record("Ctrl+P opened no palette")
            return
        }
        var typed = clicked
        let selected = try #require((0..<24).first { clicked.screen[10, $0].style.background == .selection })
        click(&clicked, Point(x: 10, y: selected + 2))
        typed.send(.input(.key(.down)))
        typed.send(.input(.key(.down)))
        typed.send(.input(.key(.enter)))
        #expect(clicked.state == typed.state)
        #expect(clicked.externalEffects == typed.externalEffects)
    }

    @Test func aClickOutsideThePaletteClosesIt() {
        var clicked = runtime("hub:default")
        clicked.send(.input(.key(.control("p"))))
        #expect(clicked.state.overlay != nil)
        click(&clicked, Point(x: 0, y: 22))
        #expect(clicked.state.overlay == nil)
    }

    @Test func hintRegionsCoverTheirHints() {
        let state = Gallery.entry("hub:default")!.makeState(now)
        let grid = render(state, size: .standard)
        let keys = hitRegions(state, size: .standard).filter { $0.rect.y == 23 }
        #expect(!keys.isEmpty)
        for region in keys {
            guard case .key(let key) = region.target else {
                Issue.record("a footer region that is not a key: \(region)")
                continue
            }
            let text = grid.text(row: 23, from: region.rect.x, to: region.rect.maxX)
            let binding = keymap(for: state).hint(for: key)
            #expect(text == "\(KeyHintFooter.label(for: binding!)) \(binding!.description)")
        }
    }
}

/// A recorded click replays as the click it was.
@Suite struct MouseTapeTests {
    @Test func clicksAndTheWheelAreTapeSteps() throws {
        let tape = try Tape(parsing: "click 12 4\nwheel-up 0 0\nwheel-down 79 23\n")
        #expect(
            tape.steps.map(\.step) == [
                .input(.mouse(MouseEvent(.leftClick, at: Point(x: 12, y: 4)))),
                .input(.mouse(MouseEvent(.wheelUp, at: Point(x: 0, y: 0)))),
                .input(.mouse(MouseEvent(.wheelDown, at: Point(x: 79, y: 23)))),
            ])
        #expect(throws: Tape.ParseError.self) { try Tape(parsing: "click 12\n") }
    }

    @Test func theRecorderWritesAClickAsItsStep() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let lines = TapeRecorder.lines(
            startedAt: start, events: [(.mouse(MouseEvent(.leftClick, at: Point(x: 3, y: 7))), start, nil)])
        #expect(lines.contains("click 3 7"))
    }
}
