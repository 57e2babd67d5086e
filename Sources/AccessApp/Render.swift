import Foundation
import TerminalKit

/// Draws the app: the top screen, its banner and toast, the overlay over the dimmed screen,
/// and the key-hint footer. Pure: the same state and size give the same grid.
public func render(_ state: AppState, size: Size) -> CellGrid {
    guard size.fits(.minimum) else { return renderTooSmall(size) }
    if case .preview(let preview) = state.top, let entry = Gallery.entry(preview.entryID) {
        return render(entry.makeState(state.now), size: size)
    }
    var grid = CellGrid(size: size)
    let (body, footer) = Rect(size: size).splitBottom(1)
    var content = body
    if let banner = state.banner {
        let split = content.splitTop(1)
        drawBanner(banner, now: state.now, in: split.top, grid: &grid)
        content = split.rest
    }
    var canvas = Canvas(grid: grid, area: content, canGoBack: state.canGoBack)
    switch state.top {
    case .settings(let screen): SettingsScreen.view(screen, into: &canvas)
    case .gallery(let screen): GalleryScreen.view(screen, into: &canvas)
    case .preview(let preview): canvas.paragraph("No screen named \(preview.entryID).", style: .danger)
    }
    grid = canvas.grid
    let keys = keymap(for: state)
    drawFooter(keys, in: footer, grid: &grid)
    if let toast = state.toast, toast.expiresAt > state.now {
        drawToast(toast.message, above: footer, grid: &grid)
    }
    if state.overlay == .help { drawHelp(keys, grid: &grid) }
    return grid
}

func renderTooSmall(_ size: Size) -> CellGrid {
    var grid = CellGrid(size: size)
    let lines = ["Terminal too small", "Need \(Size.minimum), have \(size)", "q quits"]
    let top = max(0, (size.rows - lines.count) / 2)
    for (offset, line) in lines.enumerated() {
        let x = max(0, (size.cols - DisplayWidth.of(line)) / 2)
        grid.put(line, at: Point(x: x, y: top + offset), style: offset == 0 ? .bold : .muted)
    }
    return grid
}

private func drawBanner(_ banner: Banner, now: Date, in rect: Rect, grid: inout CellGrid) {
    let text: String
    switch banner {
    case .offline:
        text = "You're offline. Showing saved info; changes are off until you reconnect."
    case .rateLimited(let until):
        text = "Too many attempts. Try again in \(countdown(from: now, to: until))."
    }
    let style = Style(foreground: .onAccent, background: .warning, attributes: .bold)
    grid.fill(rect, style: style)
    grid.put("! " + text, at: Point(x: rect.x + 2, y: rect.y), style: style, maxX: rect.maxX - 1)
}

/// "0:27" from now to a deadline, rounding up so the display reaches 0:00 exactly at it.
public func countdown(from now: Date, to deadline: Date) -> String {
    let seconds = max(0, Int(ceil(deadline.timeIntervalSince(now))))
    return "\(seconds / 60):" + String(format: "%02d", seconds % 60)
}

private func drawFooter(_ keymap: Keymap, in rect: Rect, grid: inout CellGrid) {
    var x = rect.x + 2
    for binding in keymap.footer {
        let label = binding.keyLabel
        let width = DisplayWidth.of(label) + 1 + DisplayWidth.of(binding.description)
        guard x + width <= rect.maxX - 1 else { break }
        x = grid.put(label, at: Point(x: x, y: rect.y), style: .bold)
        x = grid.put(" " + binding.description, at: Point(x: x, y: rect.y), style: .muted) + 2
    }
}

private func drawToast(_ message: String, above footer: Rect, grid: inout CellGrid) {
    let width = min(DisplayWidth.of(message) + 4, footer.width - 4)
    let rect = Rect(x: footer.x + (footer.width - width) / 2, y: footer.y - 2, width: width, height: 1)
    let style = Style(foreground: .text, background: .surface, attributes: .bold)
    grid.fill(rect, style: style)
    grid.put(message, at: Point(x: rect.x + 2, y: rect.y), style: style, maxX: rect.maxX - 2)
}

private func drawHelp(_ keymap: Keymap, grid: inout CellGrid) {
    grid.restyle(grid.bounds) { style in
        style.attributes.insert(.dim)
        style.foreground = .muted
    }
    let labelWidth = keymap.bindings.map { DisplayWidth.of($0.keyLabel) }.max() ?? 0
    let box = grid.bounds.centered(width: 48, height: keymap.bindings.count + 4)
    let style = Style(foreground: .text, background: .surface)
    grid.fill(box, style: style)
    grid.put("Keys", at: Point(x: box.x + 2, y: box.y + 1), style: style.with(.bold))
    for (index, binding) in keymap.bindings.enumerated() {
        let y = box.y + 2 + index
        grid.put(binding.keyLabel, at: Point(x: box.x + 2, y: y), style: style.with(.bold))
        grid.put(binding.description, at: Point(x: box.x + 4 + labelWidth, y: y), style: style, maxX: box.maxX - 1)
    }
}
