import TerminalKit

/// What a click on a cell stands for. A click is always keys, so screens need no mouse code of
/// their own: the keys go through the same keymap and handlers as typed ones.
public enum HitTarget: Hashable, Sendable {
    /// A key: a footer hint's own, or Esc outside a sheet or panel.
    case key(Key)
    /// Where a list may be drawn (a screen's rows, a sheet's actions, a panel's entries): the
    /// click selects what is drawn there with the list's own ↑/↓, then presses Enter.
    case list
}

/// A rectangle of the screen and what a click inside it does.
public struct HitRegion: Hashable, Sendable {
    public var rect: Rect
    public var target: HitTarget

    public init(_ rect: Rect, _ target: HitTarget) {
        self.rect = rect
        self.target = target
    }

    public func contains(_ point: Point) -> Bool {
        point.x >= rect.x && point.x < rect.maxX && point.y >= rect.y && point.y < rect.maxY
    }
}

/// Where a click lands on what `render(state, size:)` draws, topmost last: the footer's hints,
/// an overlay's outside (Esc) and inside, or the screen's body.
public func hitRegions(_ state: AppState, size: Size) -> [HitRegion] {
    guard size.fits(.minimum) else { return [] }
    let (body, footer) = Rect(size: size).splitBottom(1)
    let hints = KeyHintFooter(keymap(for: state)).hints(in: footer, glyphs: state.context.glyphs)
    let footerRegions = hints.compactMap { hint in hint.binding.keys.first.map { HitRegion(hint.rect, .key($0)) } }
    switch state.overlay {
    case .help:
        // The help covers the screen: a click anywhere closes it, as Esc does.
        return [HitRegion(Rect(size: size), .key(.escape))]
    case .sheet(let sheet):
        return [
            HitRegion(body, .key(.escape)),
            HitRegion(sheet.sheet.frame(in: Size(cols: body.width, rows: body.height)), .list),
        ] + footerRegions
    case .outbox:
        return overlayRegions(frame: Rect(size: size).inset(horizontal: 4, vertical: 2), size: size, footerRegions)
    case .journal:
        return overlayRegions(frame: Rect(size: size).inset(horizontal: 2, vertical: 1), size: size, footerRegions)
    case .palette:
        let frame = Rect(
            x: (size.cols - min(size.cols - 4, 76)) / 2, y: 1, width: min(size.cols - 4, 76),
            height: min(size.rows - 3, 20))
        return overlayRegions(frame: frame, size: size, footerRegions)
    case .specNotes:
        // Text to read: the wheel scrolls it, a click presses only a footer hint.
        return footerRegions
    case nil:
        // A gallery preview is a picture of another state: nothing in it is pressed.
        let isPreview = state.top.is(ScreenType(PreviewScreen.self))
        return (isPreview ? [] : [HitRegion(body, .list)]) + footerRegions
    }
}

/// A panel drawn over the whole terminal (footer included): outside it is Esc, inside its list.
private func overlayRegions(frame: Rect, size: Size, _ footerRegions: [HitRegion]) -> [HitRegion] {
    [HitRegion(Rect(size: size), .key(.escape))] + footerRegions + [HitRegion(frame, .list)]
}

/// A mouse event as the keys it stands for. The wheel is ↑/↓ wherever they move something (a
/// list, a panel, a sheet's actions). A click is its region's key, or Enter on the list entry
/// drawn where it landed, selected first with ↑/↓. A click on nothing does nothing.
func reduceMouse(_ state: inout AppState, _ mouse: MouseEvent) -> [Effect] {
    switch mouse.kind {
    case .wheelUp: return reduce(&state, .input(.key(.up)))
    case .wheelDown: return reduce(&state, .input(.key(.down)))
    case .leftClick: break
    }
    let size = state.size ?? .standard
    switch hitRegions(state, size: size).last(where: { $0.contains(mouse.point) })?.target {
    case .key(let key)?:
        return reduce(&state, .input(.key(key)))
    case .list?:
        guard var effects = select(at: mouse.point, in: &state, size: size) else { return [] }
        effects += reduce(&state, .input(.key(.enter)))
        return effects
    case nil:
        return []
    }
}

/// Makes the entry drawn at `point` the selected one. The selection colour is drawn on the
/// selected entry of a list and nowhere else, so the screen itself says when it got there: ↓
/// (then, from the start again, ↑) on a copy of the state until it does, kept only then.
/// Bounded by the rows on screen, and a move that changes nothing ends that direction, so a
/// click on text, a blank line or a row the keys never reach (disabled) changes nothing.
/// Returns the moves' effects, or nil when the point holds no entry.
private func select(at point: Point, in state: inout AppState, size: Size) -> [Effect]? {
    if isSelection(at: point, state, size: size) { return [] }
    for direction in [Key.down, .up] {
        var copy = state
        var effects: [Effect] = []
        for _ in 0..<size.rows {
            let before = copy
            effects += reduce(&copy, .input(.key(direction)))
            if copy == before { break }
            if isSelection(at: point, copy, size: size) {
                state = copy
                return effects
            }
        }
    }
    return nil
}

private func isSelection(at point: Point, _ state: AppState, size: Size) -> Bool {
    let grid = render(state, size: size)
    guard point.x >= 0, point.y >= 0, point.x < size.cols, point.y < size.rows else { return false }
    return grid[point.x, point.y].style.background == .selection
}
