import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct SpinnerTests {
    @Test func centredWithLabel() {
        var grid = canvas(80, 24)
        Spinner("Verifying your link…", tick: 0).render(into: &grid, in: grid.bounds)
        assertSnapshot(of: grid, named: "spinner")
    }

    @Test func framesFollowTheTick() {
        let frames = (0..<11).map { Spinner("x", tick: $0).frame() }
        #expect(frames[0] == "⠋")
        #expect(frames[1] == "⠙")
        #expect(frames[10] == frames[0])
        #expect(Spinner("x", tick: -1).frame() == "⠏")
        #expect(Spinner("x", tick: 5).frame(glyphs: .ascii) == "/")
    }

    @Test func tinyRectShowsOnlyTheSpinner() {
        var grid = canvas(10, 1)
        Spinner("Deleting your account…", tick: 2).render(into: &grid, in: grid.bounds)
        #expect(grid.textLines() == ["    ⠹"])
    }
}
