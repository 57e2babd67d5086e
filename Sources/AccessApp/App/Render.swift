import Foundation
import TerminalKit

/// A drawn frame and where its parts are: what a click is matched against.
public struct RenderedFrame {
    public var grid: CellGrid
    /// The screen's list rows as drawn, and which is selected (empty under an overlay or a preview).
    public var screenRows: [Rect] = []
    public var selectedScreenRow: Int?
    /// The open overlay's frame and its list rows.
    public var overlayFrame: Rect?
    public var overlayRows: [Rect] = []
}

/// Draws the app: the top screen with its banner and toast, the overlay over the dimmed
/// screen, and the key-hint footer. Pure: the same state and size give the same grid.
public func render(_ state: AppState, size: Size) -> CellGrid { renderFrame(state, size: size).grid }

public func renderFrame(_ state: AppState, size: Size) -> RenderedFrame {
    var grid = CellGrid(size: size)
    guard size.fits(.minimum) else {
        TooSmallNotice.render(into: &grid)
        return RenderedFrame(grid: grid)
    }
    if let preview = state.top.as(PreviewScreen.self), let shown = preview.shownState(state.now, looks: state.options) {
        return renderPreview(preview, shown, over: state, size: size)
    }
    let context = state.context
    let (body, footer) = Rect(size: size).splitBottom(1)
    var content = body
    if let banner = state.banner ?? state.top.base.banner(context) {
        let split = content.splitTop(banner.height)
        banner.render(into: &grid, in: split.top, now: state.now)
        content = split.rest
    }
    // The grid moves into the canvas and back: a second reference to its cells would make the first write
    // on either side copy all of them (a 200×60 frame is 12,000 cells).
    var canvas = Canvas(grid: consume grid, area: content, canGoBack: state.canGoBack, glyphs: context.glyphs)
    state.top.base.view(into: &canvas, context)
    let screenRows = canvas.listRows
    let selectedScreenRow = canvas.selectedRow
    grid = (consume canvas).grid
    KeyHintFooter(keymap(for: state)).render(into: &grid, in: footer)
    state.toast?.render(into: &grid, in: body, now: state.now, glyphs: context.glyphs)
    var frame = RenderedFrame(grid: grid, screenRows: screenRows, selectedScreenRow: selectedScreenRow)
    drawOverlay(of: state, size: size, on: &frame)
    return frame
}

/// The overlay over what is drawn, where its frame says.
private func drawOverlay(of state: AppState, size: Size, on frame: inout RenderedFrame) {
    guard let overlay = state.overlay else { return }
    let context = state.overlayContext
    let rect = overlay.base.frame(context)
    overlay.base.render(into: &frame.grid, in: rect, context)
    frame.overlayFrame = rect
    frame.overlayRows = overlay.base.rows(in: rect, context)
    frame.screenRows = []
    frame.selectedScreenRow = nil
}

/// A gallery state as a person would see it: the whole terminal, or a chosen size centred on the dimmed
/// terminal with a caption under it; the app's overlays (help, palette) still go on top.
private func renderPreview(
    _ preview: PreviewScreen, _ shown: AppState, over state: AppState, size: Size
)
    -> RenderedFrame
{
    var frame: RenderedFrame
    if let chosen = preview.size {
        var grid = CellGrid(size: size)
        let shownSize = Size(cols: min(chosen.cols, size.cols), rows: min(chosen.rows, size.rows - 1))
        let origin = Point(x: (size.cols - shownSize.cols) / 2, y: max(0, (size.rows - 1 - shownSize.rows) / 2))
        grid.draw(render(shown, size: shownSize), at: origin)
        grid.putCentered(
            preview.caption(shown), row: min(size.rows - 1, origin.y + shownSize.rows), in: Rect(size: size),
            style: Style.muted.with(.dim))
        frame = RenderedFrame(grid: grid)
    } else {
        // A picture of another state: nothing in it is pressed.
        frame = RenderedFrame(grid: render(shown, size: size))
    }
    drawOverlay(of: state, size: size, on: &frame)
    return frame
}
