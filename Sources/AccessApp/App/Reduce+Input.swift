import AccessAPI
import Foundation
import TerminalKit

/// A key or a paste: the overlay takes it when one is open; else the top screen's bindings, then its
/// field (typing), then the app's bindings. Only what a table lists is ever performed.
func reduceInput(_ state: inout AppState, _ event: InputEvent) -> [Effect] {
    if state.overlay != nil { return reduceOverlayInput(&state, event) }
    let top = CallOwner.screen(depth: state.stack.count - 1)
    let context = state.context
    guard case .key(let key) = event else {
        // A paste: the screen's field, or a link it waits for.
        if let commands = state.top.update({ $0.handle(event, context) }) {
            return apply(commands, to: &state, for: top)
        }
        // A link pasted where nothing takes text (Settings' "Verify your email" reminder): opened from
        // anywhere, as `accessdeck open-link` would (issue 27).
        if case .paste(let text) = event, PastedLink.isLink(text) { return openLink(text, in: &state) }
        return []
    }
    if let commands = state.top.update({ $0.perform(key: key, context) }) {
        return apply(commands, to: &state, for: top)
    }
    let screen = state.top.base
    // A screen that shows every key (the keyboard check) still lists the app's keys it leaves alone
    // (help, the panels): they act as listed, and every other key is the screen's.
    if screen.acceptsAnyKey, let intent = appBindings(state).intent(for: key) { return performApp(intent, in: &state) }
    if screen.acceptsAnyKey || (screen.takesText && event.isTextEditing),
        let commands = state.top.update({ $0.handle(event, context) })
    {
        return apply(commands, to: &state, for: top)
    }
    guard let intent = appBindings(state).intent(for: key) else { return [] }
    return performApp(intent, in: &state)
}

/// Keys and pastes while an overlay is open: its bindings, its field, then its help.
private func reduceOverlayInput(_ state: inout AppState, _ event: InputEvent) -> [Effect] {
    guard var overlay = state.overlay else { return [] }
    let context = state.overlayContext
    var commands: [Command]?
    if case .key(let key) = event {
        commands = overlay.update { $0.perform(key: key, context) }
        if commands == nil {
            let around = overlayAppBindings(overlay, context, hasReferenceBackend: state.options.hasReferenceBackend)
            switch around.intent(for: key) {
            case .help: return state.show(AnyOverlay(HelpPanel(covering: overlay)))
            case .app(let intent):
                // The overlay goes as Esc would take it (a sheet's question unanswered), and the key acts.
                state.closeOverlay()
                return performApp(intent, in: &state)
            case nil: break
            }
        }
    }
    if commands == nil, overlay.base.takesText || !event.isKey {
        commands = overlay.update { $0.handle(event, context) }
    }
    state.overlay = overlay
    let owner: CallOwner = overlay.base.actsForScreen ? .screen(depth: state.stack.count - 1) : .overlay
    return apply(commands ?? [], to: &state, for: owner)
}

extension InputEvent {
    var isKey: Bool {
        if case .key = self { return true }
        return false
    }
}
