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

    static let tooSmallName = "too-small__30x8"

    @Test func tooSmall() {
        let grid = render(AppState(now: Date(timeIntervalSince1970: 1_800_000_000)), size: .init(cols: 30, rows: 8))
        assertSnapshot(of: grid, named: Self.tooSmallName)
    }
}

/// Snapshots and gallery states stay one-to-one, and no screen goes without a state.
@Suite struct SnapshotHygieneTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__")
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AccessApp")

    @Test func everySnapshotFileHasAGalleryState() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.snapshots.path).filter {
            $0.hasSuffix(".txt")
        }
        let named = Set(Gallery.entries.map { $0.id.replacingOccurrences(of: ":", with: "__") + ".txt" })
            .union([ScreenSnapshotTests.tooSmallName + ".txt"])
        let orphans = files.filter { !named.contains($0) }
        #expect(orphans.isEmpty, "snapshots without a gallery state (delete them or restore the state): \(orphans)")
    }

    @Test func galleryStateIdsAreUnique() {
        let ids = Gallery.entries.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func everyRegisteredScreenHasAGalleryStateUnderItsOwnName() {
        for screen in Features.screens {
            #expect(!screen.gallery.isEmpty, "\(screen) has no gallery state")
        }
    }

    /// A screen written but never registered would have no state and no snapshot: find every
    /// `struct …: ScreenModel` in the sources (or of a protocol that refines it) and check it is in
    /// `Features.all`. A screen of one kind (`struct LinkSentScreen<Flow: LinkSentFlow>: ScreenModel`) is
    /// registered once per flow: every type declared as one of its flows must be.
    @Test func everyScreenInTheSourcesIsRegistered() throws {
        let registered = Set(Features.screens.map { "\($0)" })
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path))
        var text = ""
        for case let path as String in files where path.hasSuffix(".swift") {
            text += try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
        }
        /// `base` and the protocols declared as refining it.
        func refinements(of base: String) -> Set<String> {
            Set(
                [base]
                    + text.matches(of: /protocol (\w+): (\w+)/).filter { $0.output.2 == base }.map {
                        String($0.output.1)
                    })
        }
        let screenKinds = refinements(of: "ScreenModel")
        var declared: [String] = []
        for match in text.matches(of: /struct (\w+)(?:<\w+: (\w+)>)?: (\w+)/)
        where screenKinds.contains(String(match.output.3)) {
            let name = String(match.output.1)
            guard let flowKind = match.output.2 else {
                declared.append(name)
                continue
            }
            let kinds = refinements(of: String(flowKind))
            let flows = text.matches(of: /(?:struct|enum) (\w+): (\w+)/).filter { kinds.contains(String($0.output.2)) }
            #expect(!flows.isEmpty, "\(name) has no flow")
            declared += flows.map { "\(name)<\($0.output.1)>" }
        }
        #expect(declared.count >= 40)
        for name in declared { #expect(registered.contains(name), "\(name) is not in any feature's screens") }
    }
}
