import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 50 item 3: `render` and the gallery laid every overlay out for 80 columns whatever the size asked (F4's
/// text past its frame at 160×45, the outbox, palette, journal and conform panels pinned to columns 2–76), while
/// the live app, which knows its terminal's size, drew them right. Drawn at a size, an overlay state is what the
/// live app shows at that size; sheets and the spec notes keep to the content column.
@Suite struct OverlaySizeTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let sizes = [Size(cols: 100, rows: 30), Size(cols: 120, rows: 30), Size(cols: 160, rows: 45)]

    static var overlayStates: [String] {
        Gallery.entries.filter { $0.makeState(start).overlay != nil }.map(\.id)
    }

    @Test(arguments: overlayStates)
    func anOverlayStateIsDrawnAtTheSizeAskedAsTheLiveAppDrawsIt(id: String) throws {
        let state = try #require(Gallery.entry(id)).makeState(Self.start)
        for size in Self.sizes {
            var live = state
            live.size = size
            #expect(
                render(state, size: size).text() == render(live, size: size).text(),
                "\(id) at \(size.cols)x\(size.rows)")
        }
    }

    /// Enter the code, a wrong code, 80×16: the footer read "F1 Helplid for 4:57", the code's lifetime drawn on
    /// its row before the screen was scrolled. On a short terminal the last row of every screen is its keys alone.
    @Test(arguments: [Size(cols: 80, rows: 16), Size(cols: 60, rows: 14), Size(cols: 40, rows: 12)])
    func theFooterRowHoldsOnlyTheKeysOnAShortTerminal(size: Size) {
        var bled: [String] = []
        for entry in Gallery.entries {
            var state = entry.makeState(Self.start)
            guard state.overlay == nil, state.top.as(PreviewScreen.self) == nil else { continue }
            state.size = size
            var footer = CellGrid(size: Size(cols: size.cols, rows: 1))
            KeyHintFooter(keymap(for: state)).render(into: &footer, in: Rect(size: footer.size))
            if render(state, size: size).textLines().last != footer.textLines().first { bled.append(entry.id) }
        }
        #expect(bled.isEmpty, "the screen drew on the footer row at \(size.cols)x\(size.rows): \(bled)")
    }

    @Test func aSheetAndTheSpecNotesKeepToTheContentColumnOnAWideTerminal() throws {
        let size = Size(cols: 160, rows: 45)
        let column = Canvas.maxContentWidth
        for id in ["hub:limited-access-sheet", "reauth-picker:social-sheet", "enter-code:spec-notes"] {
            var state = try #require(Gallery.entry(id)).makeState(Self.start)
            state.size = size
            let frame = try #require(state.overlay?.base.frame(state.overlayContext))
            #expect(frame.x >= (size.cols - column) / 2 && frame.maxX <= (size.cols + column) / 2, "\(id): \(frame)")
        }
    }
}
