import AccessAppTesting
import Foundation
import SnapshotSupport
import TerminalKit
import Testing

@testable import AccessApp

/// Forms and lists at the smallest size, a small one and a wide one, after the keys that used to take
/// the focus off the screen: the focused field or the selected row is always drawn, and on a wide
/// terminal the content stays a readable column with the title bar and footer across the width.
@Suite struct LayoutSnapshotTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/layout", isDirectory: true)

    struct Case: Sendable, CustomTestStringConvertible {
        var state: String
        var size: Size
        var keys: [Key]
        /// Text that must be on screen once the keys are pressed (the focus).
        var shows: String

        /// "password-login__default__40x12__Tab", "sign-in__default__40x12__down5".
        var name: String {
            var runs: [(label: String, count: Int)] = []
            for key in keys {
                // A file name holds no "/".
                let label = key == .down ? "down" : key == .character("/") ? "slash" : key.label
                if runs.last?.label == label { runs[runs.count - 1].count += 1 } else { runs.append((label, 1)) }
            }
            let pressed = runs.map { $0.count == 1 ? $0.label : "\($0.label)\($0.count)" }.joined(separator: "-")
            return "\(state.replacingOccurrences(of: ":", with: "__"))__\(size.cols)x\(size.rows)"
                + (pressed.isEmpty ? "" : "__" + pressed)
        }
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(state: "password-login:default", size: .minimum, keys: [.tab], shows: "Password"),
        Case(state: "password-login:default", size: Size(cols: 80, rows: 20), keys: [.tab, .tab], shows: "Log in ]"),
        Case(state: "sign-in:default", size: .minimum, keys: Array(repeating: .down, count: 5), shows: "▸"),
        Case(state: "gallery:default", size: .minimum, keys: Array(repeating: .down, count: 12), shows: "▸"),
        Case(state: "hub:default", size: Size(cols: 200, rows: 60), keys: [], shows: "Phone number"),
        Case(state: "enter-phone:change", size: Size(cols: 200, rows: 60), keys: [], shows: "Send code"),
        Case(state: "set-password:reauth-expired", size: .standard, keys: [], shows: "Update password"),
        // Issue 29: the palette's placeholder is cut a space before its count; the journal's time column and
        // its filter's count at the narrowest size.
        Case(state: "hub:palette", size: .minimum, keys: [.control("u")], shows: "> Type"),
        Case(state: "hub:palette", size: .minimum, keys: [.control("u"), .end], shows: "of"),
        Case(state: "hub:journal", size: .minimum, keys: [.character("/"), .character("4")], shows: "1 of 2 match"),
    ]

    @Test(arguments: cases)
    func focusStaysOnScreen(_ layout: Case) throws {
        let harness = ReducerHarness(
            try #require(Gallery.entry(layout.state)).makeState(Self.start), exhaustivity: .off)
        harness.send(.input(.resize(layout.size)))
        for key in layout.keys { harness.send(.input(.key(key))) }
        let grid = render(harness.state, size: layout.size)
        let body = grid.textLines().dropLast().joined(separator: "\n")
        #expect(body.contains(layout.shows), "\(layout.name): \(layout.shows) is not drawn")
        assertSnapshot(of: grid, named: layout.name, in: Self.directory, mode: .fromEnvironment())
    }

    /// Issue 50 item 3: every overlay state at 120×30 and 160×45, as `render` and the gallery draw it (they laid
    /// overlays out for 80 columns whatever the size).
    static let wideOverlayCases: [Case] = OverlaySizeTests.overlayStates.flatMap { state in
        [Size(cols: 120, rows: 30), Size(cols: 160, rows: 45)].map { Case(state: state, size: $0, keys: [], shows: "") }
    }

    @Test(arguments: wideOverlayCases)
    func anOverlayAtAWideSize(_ layout: Case) throws {
        let state = try #require(Gallery.entry(layout.state)).makeState(Self.start)
        var live = state
        live.size = layout.size
        let frame = try #require(live.overlay?.base.frame(live.overlayContext))
        #expect(
            frame.x >= 0 && frame.y >= 0 && frame.maxX <= layout.size.cols && frame.maxY <= layout.size.rows,
            "\(layout.name): \(frame)")
        assertSnapshot(
            of: render(state, size: layout.size), named: layout.name, in: Self.directory, mode: .fromEnvironment())
    }

    /// Past `Canvas.maxContentWidth` the rows stay a column: a row's control sits beside its label.
    @Test func wideTerminalsKeepContentInAColumn() throws {
        let state = try #require(Gallery.entry("hub:default")).makeState(Self.start)
        let lines = render(state, size: Size(cols: 200, rows: 60)).textLines()
        let row = try #require(lines.first { $0.contains("Phone number") })
        let trimmed = row.trimmingCharacters(in: .whitespaces)
        #expect(DisplayWidth.of(trimmed) <= Canvas.maxContentWidth)
        // The title bar's rule still runs the whole width.
        #expect(lines.contains { $0.filter { $0 == "─" }.count == 200 })
    }
}
