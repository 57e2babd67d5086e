import TerminalKit

/// What a click on a cell stands for. A click is always keys, so screens need no mouse code of
/// their own: the keys go through the same bindings as typed ones.
public enum HitTarget: Hashable, Sendable {
    /// A key: a footer hint's own, or Esc outside a sheet or panel.
    case key(Key)
    /// Row `index` of the screen's list, as the screen drew it: selected with the list's own ↑/↓, then Enter.
    case screenRow(Int)
    /// Row `index` of the overlay's list: selected, then Enter.
    case overlayRow(Int)
    /// Inside an overlay but on none of its rows (a sheet's text): nothing.
    case inert
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

/// Where a click lands on what `renderFrame(state, size:)` draws, topmost last: an overlay's outside
/// and inside, the footer's hints, the rows of the overlay's or the screen's list. Every rectangle is
/// one the renderer drew at.
public func hitRegions(_ state: AppState, size: Size) -> [HitRegion] {
    guard size.fits(.minimum) else { return [] }
    let frame = renderFrame(state, size: size)
    let footer = footerHints(state, size: size)
    let hints = KeyHintFooter(keymap(for: state)).hints(in: footer.rect, glyphs: footer.glyphs)
    let footerRegions = hints.compactMap { hint in hint.binding.keys.first.map { HitRegion(hint.rect, .key($0)) } }
    guard let overlay = state.overlay, let overlayFrame = frame.overlayFrame else {
        return footerRegions + frame.screenRows.enumerated().map { HitRegion($1, .screenRow($0)) }
    }
    var regions: [HitRegion] = []
    if let outside = overlay.base.clickOutside { regions.append(HitRegion(Rect(size: size), .key(outside))) }
    regions.append(HitRegion(overlayFrame, overlay.base.clickInside.map(HitTarget.key) ?? .inert))
    return regions + footerRegions + frame.overlayRows.enumerated().map { HitRegion($1, .overlayRow($0)) }
}

/// A mouse event as the keys it stands for. The wheel is ↑/↓ wherever they move something (a
/// list, a panel, a sheet's actions). A click is its region's key, or Enter on the list row drawn
/// where it landed, selected first. A click on nothing does nothing.
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
    case .overlayRow(let row)?:
        let context = state.overlayContext
        state.overlay?.update { $0.select(row: row, context) }
        return reduce(&state, .input(.key(.enter)))
    case .screenRow?:
        guard var effects = selectScreenRow(at: mouse.point, in: &state, size: size) else { return [] }
        effects += reduce(&state, .input(.key(.enter)))
        return effects
    case .inert?, nil:
        return []
    }
}

/// Makes the row drawn at `point` the selected one with the list's own keys: ↓ (then, from the start
/// again, ↑) on a copy of the state until the screen draws its selection there, kept only then (a list
/// that scrolls moves its rows, so the place is what counts). Bounded by the rows on screen, and a move
/// that changes nothing ends that direction, so a row the keys never reach (disabled) changes nothing.
/// Returns the moves' effects, or nil.
private func selectScreenRow(at point: Point, in state: inout AppState, size: Size) -> [Effect]? {
    func selectionIsThere(_ state: AppState) -> Bool {
        let frame = renderFrame(state, size: size)
        guard let selected = frame.selectedScreenRow else { return false }
        return HitRegion(frame.screenRows[selected], .screenRow(selected)).contains(point)
    }
    if selectionIsThere(state) { return [] }
    for direction in [Key.down, .up] {
        var copy = state
        var effects: [Effect] = []
        for _ in 0..<size.rows {
            let before = copy
            effects += reduce(&copy, .input(.key(direction)))
            if copy == before { break }
            if selectionIsThere(copy) {
                state = copy
                return effects
            }
        }
    }
    return nil
}
