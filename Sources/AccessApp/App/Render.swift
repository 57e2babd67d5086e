import Foundation
import TerminalKit

/// Draws the app: the top screen with its banner and toast, the overlay over the dimmed
/// screen, and the key-hint footer. Pure: the same state and size give the same grid.
public func render(_ state: AppState, size: Size) -> CellGrid {
    var grid = CellGrid(size: size)
    guard size.fits(.minimum) else {
        TooSmallNotice.render(into: &grid)
        return grid
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
    grid = (consume canvas).grid
    let keys = keymap(for: state)
    KeyHintFooter(keys).render(into: &grid, in: footer)
    state.toast?.render(into: &grid, in: body, now: state.now, glyphs: context.glyphs)
    switch state.overlay {
    case .help: HelpOverlay(keymap(for: stateWithoutOverlay(state))).render(into: &grid, glyphs: context.glyphs)
    case .sheet(let sheet):
        // The sheet sits above the footer, which shows the sheet's own keys.
        var above = CellGrid(size: Size(cols: body.width, rows: body.height))
        above.draw(grid, at: Point(x: 0, y: 0))
        sheet.sheet.render(into: &above, glyphs: context.glyphs)
        grid.draw(above, at: Point(x: 0, y: 0))
    case .outbox(let panel): panel.render(into: &grid, now: state.now, glyphs: context.glyphs)
    case .palette(let palette): palette.render(into: &grid, glyphs: context.glyphs)
    case .journal(let panel): panel.render(into: &grid, baseURL: state.options.backendURL, glyphs: context.glyphs)
    case .specNotes(let panel): panel.render(into: &grid, glyphs: context.glyphs)
    case nil: break
    }
    return grid
}

/// A gallery state as a person would see it: the whole terminal, or a chosen size centred on the dimmed
/// terminal with a caption under it; the app's overlays (help, palette) still go on top.
private func renderPreview(_ preview: PreviewScreen, _ shown: AppState, over state: AppState, size: Size) -> CellGrid {
    guard let chosen = preview.size else { return drawOverlay(of: state, on: render(shown, size: size)) }
    var grid = CellGrid(size: size)
    let shownSize = Size(cols: min(chosen.cols, size.cols), rows: min(chosen.rows, size.rows - 1))
    let origin = Point(x: (size.cols - shownSize.cols) / 2, y: max(0, (size.rows - 1 - shownSize.rows) / 2))
    grid.draw(render(shown, size: shownSize), at: origin)
    grid.putCentered(
        preview.caption(shown), row: min(size.rows - 1, origin.y + shownSize.rows), in: Rect(size: size),
        style: Style.muted.with(.dim))
    return drawOverlay(of: state, on: grid)
}

/// Only the overlays that belong to the app around a preview: the help, the palette and the spec notes.
private func drawOverlay(of state: AppState, on grid: CellGrid) -> CellGrid {
    var grid = grid
    let glyphs = state.context.glyphs
    switch state.overlay {
    case .help: HelpOverlay(keymap(for: stateWithoutOverlay(state))).render(into: &grid, glyphs: glyphs)
    case .palette(let palette): palette.render(into: &grid, glyphs: glyphs)
    case .specNotes(let panel): panel.render(into: &grid, glyphs: glyphs)
    default: break
    }
    return grid
}

private func stateWithoutOverlay(_ state: AppState) -> AppState {
    var copy = state
    copy.overlay = nil
    return copy
}
