import Foundation
import SnapshotSupport
import Testing

@testable import AccessApp

/// Every screen in every named state, as a person sees it at 80×24.
@Suite struct ScreenSnapshotTests {
    @Test(arguments: Gallery.entries.map(\.id))
    func galleryEntry(id: String) throws {
        let entry = try #require(Gallery.entry(id))
        let grid = render(entry.makeState(Date(timeIntervalSince1970: 1_800_000_000)), size: .standard)
        assertSnapshot(of: grid, named: id.replacingOccurrences(of: ":", with: "__"))
    }

    @Test func tooSmall() {
        let grid = render(AppState(now: Date(timeIntervalSince1970: 1_800_000_000)), size: .init(cols: 30, rows: 8))
        assertSnapshot(of: grid, named: "too-small__30x8")
    }
}
