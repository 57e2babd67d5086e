import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct TitleBarTests {
    func render(_ bar: TitleBar) -> CellGrid {
        var grid = canvas(80, bar.height)
        bar.render(into: &grid, in: grid.bounds)
        return grid
    }

    @Test func withoutBack() {
        assertSnapshot(of: render(TitleBar("Account access")), named: "titlebar-plain")
    }

    @Test func withBack() {
        let grid = render(TitleBar("Email & password", canGoBack: true))
        #expect(grid.text(row: 0).hasPrefix("  ‹ Back"))
        assertSnapshot(of: grid, named: "titlebar-back")
    }

    @Test func withBackAndSubtitle() {
        let bar = TitleBar("New phone number", canGoBack: true, subtitle: "Current: +995 511 100 000")
        #expect(bar.height == 3)
        assertSnapshot(of: render(bar), named: "titlebar-back-subtitle")
    }

    @Test func longTitleIsCutBeforeTheBackLabel() {
        var grid = canvas(30, 2)
        TitleBar("A very long title that cannot fit", canGoBack: true).render(into: &grid, in: grid.bounds)
        #expect(grid.text(row: 0).contains("‹ Back"))
        #expect(grid.text(row: 0).contains("…"))
        assertSnapshot(of: grid, named: "titlebar-narrow")
    }

    @Test func asciiGlyphs() {
        var grid = canvas(40, 2)
        TitleBar("Verify it's you", canGoBack: true).render(into: &grid, in: grid.bounds, glyphs: .ascii)
        #expect(grid.textLines() == ["  < Back    Verify it's you", String(repeating: "-", count: 40)])
    }
}
