import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct ListRowTests {
    /// The hub with every control and state, one row block each, as designers see it.
    @Test func everyControlAndState() {
        let rows = [
            ListRow("Phone number", detail: "+995 511 100 000", control: .pencil),
            ListRow("Email & password", detail: "jdoe@mail.com", control: .chevron, isSelected: true),
            ListRow("Apple", detail: "Not connected", control: .pill("Connect")),
            ListRow("Phone number", detail: "Not set up", control: .pill("Add")),
            ListRow("Google", detail: "Not connected", control: .pill("Connect"), isDisabled: true),
            ListRow("Active sessions", detail: "Manage where you're signed in", control: .badge("Soon")),
            ListRow(
                "Two-factor authentication", detail: "Extra layer of security", control: .badge("Soon"),
                isDisabled: true),
            ListRow("Email & password", detail: "jdoe@mail.com", control: .chevron, isDisabled: true),
            ListRow("Delete account", control: .none),
        ]
        var grid = canvas(80, 25)
        var y = 0
        for row in rows {
            row.render(into: &grid, in: Rect(x: 0, y: y, width: 80, height: row.height))
            y += row.height + 1
        }
        assertSnapshot(of: grid, named: "listrow-states")
    }

    @Test func controlColumnIsFixedWhateverTheTitle() {
        var grid = canvas(40, 3)
        ListRow("🇬🇪 Georgia", control: .chevron).render(into: &grid, in: Rect(x: 0, y: 0, width: 40, height: 1))
        ListRow("Georgia", control: .chevron).render(into: &grid, in: Rect(x: 0, y: 1, width: 40, height: 1))
        ListRow("日本語", control: .pill("Add")).render(into: &grid, in: Rect(x: 0, y: 2, width: 40, height: 1))
        #expect(grid[37, 0].grapheme == "›")
        #expect(grid[37, 1].grapheme == "›")
        #expect(grid[37, 2].grapheme == "]")
    }

    @Test func selectedRowHasAMarkerAndSelectionBackground() {
        var grid = canvas(40, 2)
        ListRow("Apple", detail: "Connected", control: .chevron, isSelected: true)
            .render(into: &grid, in: Rect(x: 0, y: 0, width: 40, height: 2))
        #expect(grid[0, 0].grapheme == "▸")
        #expect(grid[10, 1].style.background == .selection)
        #expect(grid[2, 0].style.attributes.contains(.bold))
    }

    @Test func disabledPillLosesItsBracketsAndIsMuted() {
        let enabled = ListRow("Google", control: .pill("Connect"))
        let disabled = ListRow("Google", control: .pill("Connect"), isDisabled: true)
        #expect(enabled.controlText() == "[ Connect ]")
        #expect(disabled.controlText() == "  Connect  ")
        #expect(ListRow("Phone", control: .pencil, isDisabled: true).controlText() == "")
        #expect(ListRow("Phone", control: .chevron, isDisabled: true).controlText() == "")
        var grid = canvas(40, 1)
        disabled.render(into: &grid, in: grid.bounds)
        #expect(grid[2, 0].style.foreground == .muted)
    }

    @Test func longTitleIsTruncatedBeforeTheControl() {
        var grid = canvas(30, 1)
        ListRow("Two-factor authentication settings", control: .badge("Soon")).render(into: &grid, in: grid.bounds)
        #expect(grid.text(row: 0) == "  Two-factor authen…   Soon   ")
        // A badge, not bracketed text: the label sits on a reversed block, so it reads without colour.
        #expect(grid[23, 0].style.attributes.contains(.reverse))
    }
}
