import Foundation
import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct ToastTests {
    let shown = Date(timeIntervalSince1970: 1_000_000)

    @Test func visibleThenExpired() {
        let toast = Toast("Copied support@321.fit to clipboard", shownAt: shown)
        #expect(toast.isVisible(at: shown))
        #expect(toast.isVisible(at: shown.addingTimeInterval(2.9)))
        #expect(!toast.isVisible(at: shown.addingTimeInterval(3)))
        #expect(!toast.isVisible(at: shown.addingTimeInterval(-1)))
        #expect(Toast("x", shownAt: shown, duration: 5).isVisible(at: shown.addingTimeInterval(4)))
    }

    @Test func visibleSnapshot() {
        var grid = hubScreen()
        let toast = Toast("Password updated. You're signed out on other devices.", shownAt: shown)
        toast.render(into: &grid, in: Rect(x: 0, y: 0, width: 80, height: 22), now: shown.addingTimeInterval(1))
        assertSnapshot(of: grid, named: "toast-visible")
    }

    @Test func expiredDrawsNothing() {
        let before = hubScreen()
        var grid = before
        Toast("Phone updated", shownAt: shown).render(into: &grid, in: grid.bounds, now: shown.addingTimeInterval(3))
        #expect(grid == before)
        assertSnapshot(of: grid, named: "toast-expired")
    }
}
