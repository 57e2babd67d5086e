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
    /// The top screen's title (`Canvas.titleText`), for a tape's `expect title`.
    public var screenTitle: String?

    /// The text of every list row drawn, the screen's and the overlay's, for a tape's `expect row`.
    public var rowTexts: [String] {
        (screenRows + overlayRows).map { rect in
            let top = max(0, rect.y)
            let bottom = max(top, min(rect.maxY, grid.size.rows))
            return (top..<bottom).map { grid.text(row: $0, from: rect.x, to: rect.maxX) }.joined(separator: " ")
        }
    }
}

/// Draws the app: the top screen with its banner, the overlay over the dimmed screen, the key-hint
/// footer, and the toast over all of them. Pure: the same state and size give the same grid.
public func render(_ state: AppState, size: Size) -> CellGrid { renderFrame(state, size: size).grid }

public func renderFrame(_ state: AppState, size: Size) -> RenderedFrame {
    var grid = CellGrid(size: size)
    guard size.fits(.minimum) else {
        TooSmallNotice.render(into: &grid)
        return RenderedFrame(grid: grid)
    }
    if let preview = shownPreview(state), let shown = preview.shownState(looks: state.options) {
        return renderPreview(preview, shown, over: state, size: size)
    }
    let context = state.context
    var (body, footer) = Rect(size: size).splitBottom(1)
    let strip = StatusStrip.text(state, width: size.cols - 4).map { text in
        let split = body.splitBottom(1)
        body = split.rest
        return (text, split.bottom)
    }
    var content = body
    var banner = state.banner ?? state.top.base.banner(context)
    if banner == .offline, !state.top.base.showsSavedData(context) { banner = .offlineNothingSaved }
    // The grid moves into the canvas and back: a second reference to its cells would make the first write
    // on either side copy all of them (a 200×60 frame is 12,000 cells).
    let canvas = drawTop(state, context, banner: banner, in: &content, grid: consume grid)
    let bannerUnderTitle = banner != nil && content == body ? banner : nil
    let screenTitle = canvas.titleText
    var screenRows = canvas.listRows
    var selectedScreenRow = canvas.selectedRow
    if let focus = canvas.focus, focus.maxY > content.maxY {
        let bottom = canvas.cursorY
        grid = (consume canvas).grid
        let scrolled = drawScrolled(
            state.top.base, context, canGoBack: state.canGoBack, banner: bannerUnderTitle.map { ($0, state.now) },
            in: content, bottom: bottom, onto: &grid)
        screenRows = scrolled.rows
        selectedScreenRow = scrolled.selectedRow
    } else {
        // Unscrolled, a screen taller than the terminal still says there is more: the rows under the fold
        // (the re-auth picker's "Can't access any of these?" at 80x24) are found by moving down. Not under an
        // overlay, whose keys do not scroll the screen.
        let hidesMore = canvas.drawnBottom > content.maxY && state.overlay == nil
        grid = (consume canvas).grid
        if hidesMore {
            grid.putRight(context.glyphs.moreBelow, endingAt: content.maxX, row: content.maxY - 1, style: .muted)
        }
    }
    (screenRows, selectedScreenRow) = visible(screenRows, selected: selectedScreenRow, in: content)
    // A screen taller than the terminal is drawn past its area before it is scrolled or cut: what it drew on
    // these rows goes ("F1 Helplid for 4:57", issue 50).
    grid.fill(footer, style: .plain)
    KeyHintFooter(keymap(for: state)).render(into: &grid, in: footer)
    if let (text, rect) = strip {
        grid.fill(rect, style: .plain)
        StatusStrip.render(text, into: &grid, in: rect, switching: state.console.switching != nil)
    }
    var frame = RenderedFrame(grid: grid, screenRows: screenRows, selectedScreenRow: selectedScreenRow)
    frame.screenTitle = screenTitle
    drawOverlay(of: state, size: size, on: &frame)
    // Last, over any overlay: a toast is often what an overlay's key did ("Copied as curl" in the journal).
    // Over a bottom sheet, above it: drawn at the bottom it landed inside the sheet (issue 48 item 17).
    var toastArea = body
    if state.overlay?.base.actsForScreen == true, let sheet = frame.overlayFrame, sheet.y - body.y >= 3 {
        toastArea = Rect(x: body.x, y: body.y, width: body.width, height: sheet.y - body.y)
    }
    state.toast?.render(into: &frame.grid, in: toastArea, now: state.now, glyphs: context.glyphs)
    return frame
}

/// The top screen on the canvas, its banner under its title bar; a screen without one (Welcome, the session
/// check) is drawn again below the banner, which is then its first row.
private func drawTop(
    _ state: AppState, _ context: ScreenContext, banner: Banner?, in content: inout Rect, grid: consuming CellGrid
) -> Canvas {
    var canvas = Canvas(grid: grid, area: content, canGoBack: state.canGoBack, glyphs: context.glyphs)
    canvas.banner = banner.map { ($0, state.now) }
    state.top.base.view(into: &canvas, context)
    guard let (banner, now) = canvas.banner else { return canvas }
    var fresh = CellGrid(size: canvas.grid.size)
    let split = content.splitTop(banner.height)
    banner.render(into: &fresh, in: split.top, now: now)
    content = split.rest
    var plain = Canvas(grid: fresh, area: content, canGoBack: state.canGoBack, glyphs: context.glyphs)
    state.top.base.view(into: &plain, context)
    return plain
}

/// A screen taller than the terminal whose focus fell below the last row (its content ends at row
/// `bottom`): drawn again on a canvas that tall, then shown scrolled so the focus is in view, the title
/// bar kept at the top, with ↑/↓ at the right edge where more is hidden. Returns the list rows where
/// they ended up.
private func drawScrolled(
    _ screen: any ScreenModel, _ context: ScreenContext, canGoBack: Bool, banner: (Banner, Date)?,
    in content: Rect, bottom: Int, onto grid: inout CellGrid
) -> (rows: [Rect], selectedRow: Int?) {
    let bottom = max(bottom, content.maxY)
    var tall = Canvas(
        grid: CellGrid(size: Size(cols: grid.size.cols, rows: bottom)),
        area: Rect(x: content.x, y: content.y, width: content.width, height: bottom - content.y),
        canGoBack: canGoBack, glyphs: context.glyphs)
    tall.banner = banner
    screen.view(into: &tall, context)
    let pinned = min(tall.titleBottom, content.maxY - 1)
    let window = content.maxY - pinned
    guard let focus = tall.focus, window > 0 else { return (tall.listRows, tall.selectedRow) }
    // The least scroll that shows the whole focus with a row under it, never past the top of the focus.
    let wanted = focus.maxY + 1 - content.maxY
    let offset = max(0, min(wanted, focus.y - pinned, bottom - content.maxY))
    grid.fill(Rect(x: 0, y: pinned, width: grid.size.cols, height: window), style: .plain)
    grid.copyRows(from: tall.grid, source: pinned + offset, to: pinned, count: window)
    if offset > 0 { grid.putRight(context.glyphs.moreAbove, endingAt: content.maxX, row: pinned, style: .muted) }
    if pinned + offset + window < bottom {
        grid.putRight(context.glyphs.moreBelow, endingAt: content.maxX, row: content.maxY - 1, style: .muted)
    }
    let moved = tall.listRows.map { Rect(x: $0.x, y: $0.y - offset, width: $0.width, height: $0.height) }
    let shown = Rect(x: content.x, y: pinned, width: content.width, height: window)
    return visible(moved, selected: tall.selectedRow, in: shown)
}

/// The rows a click can reach: those inside the content area (clipped to it), the selection kept if shown.
private func visible(_ rows: [Rect], selected: Int?, in content: Rect) -> ([Rect], Int?) {
    var shown: [Rect] = []
    var selectedShown: Int?
    for (index, row) in rows.enumerated() {
        let top = max(row.y, content.y)
        let bottom = min(row.maxY, content.maxY)
        guard bottom > top else { continue }
        if index == selected { selectedShown = shown.count }
        shown.append(Rect(x: row.x, y: top, width: row.width, height: bottom - top))
    }
    return (shown, selectedShown)
}

/// The overlay over what is drawn, where its frame says.
private func drawOverlay(of state: AppState, size: Size, on frame: inout RenderedFrame) {
    guard let overlay = state.overlay else { return }
    // The size drawn at: a gallery state or `render` has no terminal of its own, and laid out for 80 columns it
    // ran past its frame at 160×45 (issue 50).
    var context = state.overlayContext
    context.size = size
    let rect = overlay.base.frame(context)
    overlay.base.render(into: &frame.grid, in: rect, context)
    frame.overlayFrame = rect
    frame.overlayRows = overlay.base.rows(in: rect, context)
    frame.screenRows = []
    frame.selectedScreenRow = nil
}

/// A gallery state as a person would see it: the whole terminal, or a chosen size centred on the dimmed
/// terminal with a caption under it; the preview's own footer line on the bottom row, and the app's
/// overlays (help, palette) still on top.
private func renderPreview(
    _ preview: PreviewScreen, _ shown: AppState, over state: AppState, size: Size
)
    -> RenderedFrame
{
    var grid: CellGrid
    if let chosen = preview.size {
        grid = CellGrid(size: size)
        let shownSize = Size(cols: min(chosen.cols, size.cols), rows: min(chosen.rows, size.rows - 2))
        let origin = Point(x: (size.cols - shownSize.cols) / 2, y: max(0, (size.rows - 2 - shownSize.rows) / 2))
        grid.draw(render(shown, size: shownSize), at: origin)
        grid.putCentered(
            preview.caption(shown), row: origin.y + shownSize.rows, in: Rect(size: size),
            style: Style.muted.with(.dim))
    } else {
        // The state's own footer lists its keys, which do not act here (`r` is Role, ← the previous
        // state): the preview's line takes its place.
        grid = render(shown, size: size)
    }
    let footer = Rect(size: size).splitBottom(1).bottom
    grid.fill(footer, style: .plain)
    grid.put(preview.position, at: Point(x: footer.x + 2, y: footer.y), style: .bold, maxX: footer.maxX - 2)
    let hints = footerHints(state, size: size)
    KeyHintFooter(keymap(for: state)).render(into: &grid, in: hints.rect, glyphs: hints.glyphs)
    // A picture of another state: nothing in it is pressed.
    var frame = RenderedFrame(grid: grid)
    drawOverlay(of: state, size: size, on: &frame)
    return frame
}

/// The preview on top, when it has a state to show (then it is drawn with its own footer line).
func shownPreview(_ state: AppState) -> PreviewScreen? {
    guard let preview = state.top.as(PreviewScreen.self), Gallery.entry(preview.entryID) != nil else { return nil }
    return preview
}

/// Where the footer's key hints are drawn, and in which glyphs, for the renderer and the mouse alike: the
/// bottom row; under a preview, what its position ("hub:default · 3 of 199") leaves, in its looks.
func footerHints(_ state: AppState, size: Size) -> (rect: Rect, glyphs: Glyphs) {
    let footer = Rect(size: size).splitBottom(1).bottom
    guard let preview = shownPreview(state) else { return (footer, state.context.glyphs) }
    let used = min(footer.width, 2 + DisplayWidth.of(preview.position))
    let glyphs: Glyphs = state.paintedLooks.ascii ? .ascii : .unicode
    return (Rect(x: footer.x + used, y: footer.y, width: footer.width - used, height: 1), glyphs)
}
