import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct SkeletonRowsTests {
    @Test func fourRowsLikeTheHub() {
        let skeleton = SkeletonRows(count: 4)
        #expect(skeleton.height == 11)
        var grid = canvas(80, skeleton.height)
        skeleton.render(into: &grid, in: grid.bounds)
        #expect(grid.text(row: 0).hasPrefix("  ░░░░░░░░░░░░░░░░ "))
        #expect(grid[2, 0].style.attributes.contains(.dim))
        assertSnapshot(of: grid, named: "skeleton-rows")
    }

    @Test func clippedToTheRect() {
        var grid = canvas(20, 3)
        SkeletonRows(count: 4).render(into: &grid, in: grid.bounds)
        #expect(grid.text(row: 2) == String(repeating: " ", count: 20))
    }
}
