import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct BottomSheetTests {
    func render(_ sheet: BottomSheet) -> CellGrid {
        var grid = hubScreen()
        sheet.render(into: &grid)
        return grid
    }

    static let disconnect = BottomSheet(
        title: "Disconnect Google?",
        body: "You'll no longer be able to sign in with Google. You can reconnect it later at any time.",
        actions: [.init("Disconnect", isDestructive: true), .init("Cancel")])

    @Test func oneAction() {
        let sheet = BottomSheet(
            title: "Can't disconnect Apple",
            body: "This is your only sign-in method. Add a phone number, email, or another provider first — "
                + "then you can disconnect Apple.",
            actions: [.init("Got it")])
        assertSnapshot(of: render(sheet), named: "sheet-one-action")
    }

    @Test func twoActions() {
        let sheet = BottomSheet(
            title: "This is your only sign-in method",
            body: "Changing your phone number without a backup means if something goes wrong — wrong code, "
                + "lost SIM — you could lose access. We recommend adding another method first.",
            actions: [.init("Add another method"), .init("Change anyway")])
        assertSnapshot(of: render(sheet), named: "sheet-two-actions")
    }

    @Test func destructiveSelected() {
        let grid = render(Self.disconnect)
        assertSnapshot(of: grid, named: "sheet-destructive")
        let frame = Self.disconnect.frame(in: grid.size)
        let actionRow = frame.maxY - 4
        #expect(grid.text(row: actionRow).contains("▸ Disconnect"))
        let label = grid[frame.x + 3, actionRow]
        #expect(label.style.foreground == .danger)
        #expect(label.style.attributes.contains(.bold))
    }

    @Test func secondActionSelected() {
        var sheet = Self.disconnect
        sheet.move(by: 1)
        #expect(sheet.selected?.title == "Cancel")
        sheet.move(by: 5)
        #expect(sheet.selectedAction == 1)
        sheet.move(by: -9)
        #expect(sheet.selectedAction == 0)
        sheet.move(by: 1)
        assertSnapshot(of: render(sheet), named: "sheet-destructive-cancel-selected")
    }

    @Test func screenBelowIsDimmedAndSheetIsNot() {
        let grid = render(Self.disconnect)
        let frame = Self.disconnect.frame(in: grid.size)
        let above = cells(of: grid, in: Rect(x: 0, y: 0, width: 80, height: frame.y))
        #expect(above.allSatisfy { $0.style.attributes.contains(.dim) && $0.style.foreground == .muted })
        let inside = cells(of: grid, in: frame.inset(by: 1))
        #expect(inside.allSatisfy { !$0.style.attributes.contains(.dim) })
        #expect(grid.text(row: 3).contains("Phone number"))
    }

    /// Smaller than the app ever draws (`Size.minimum`): nothing rather than a broken frame. At the minimum,
    /// the whole sheet, its actions too.
    @Test func tinyGridsDrawWhatFits() {
        var none = CellGrid(size: Size(cols: 0, rows: 0))
        Self.disconnect.render(into: &none)
        #expect(none.textLines().isEmpty)
        var smallest = CellGrid(size: .minimum)
        Self.disconnect.render(into: &smallest)
        #expect(smallest.text().contains("▸ Disconnect"))
        #expect(smallest.text().contains("Cancel"))
        for size in [Size(cols: 10, rows: 3), Size(cols: 3, rows: 30), .minimum] {
            var grid = CellGrid(size: size)
            Self.disconnect.render(into: &grid)
            assertSnapshot(of: grid, named: "sheet-tiny-\(size.cols)x\(size.rows)")
        }
    }
}
