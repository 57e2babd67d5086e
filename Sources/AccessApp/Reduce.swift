import Foundation
import TerminalKit

/// The whole app's logic: applies an action to the state and returns the effects to run.
/// Pure and synchronous; time comes in through `state.now`, set by whoever sends the action.
public func reduce(_ state: inout AppState, _ action: Action) -> [Effect] {
    switch action {
    case .input(.resize):
        return []
    case .input(.key(.control("c"))):
        return [.quit]
    case .input(let event):
        return reduceInput(&state, event)
    case .settings(let screenAction):
        guard case .settings(var screen) = state.top else { return [] }
        let commands = SettingsScreen.reduce(&screen, screenAction)
        state.top = .settings(screen)
        return apply(commands, to: &state)
    case .gallery(let screenAction):
        guard case .gallery(var screen) = state.top else { return [] }
        let commands = GalleryScreen.reduce(&screen, screenAction)
        state.top = .gallery(screen)
        return apply(commands, to: &state)
    case .toastExpired:
        if let toast = state.toast, toast.expiresAt <= state.now { state.toast = nil }
        return []
    }
}

private func reduceInput(_ state: inout AppState, _ event: InputEvent) -> [Effect] {
    guard case .key(let key) = event else { return [] }
    if state.overlay == .help {
        if [.escape, .enter, .character("?"), .character("q")].contains(key) { state.overlay = nil }
        return []
    }
    if let action = screenAction(for: key, on: state.top) {
        return reduce(&state, action)
    }
    switch key {
    case .character("?"), .function(1):
        state.overlay = .help
        return []
    case .escape, .left, .backspace:
        return apply([.pop], to: &state)
    case .character("q"):
        return [.quit]
    default:
        return []
    }
}

/// Asks the top screen what a key means there; nil lets the app-wide keys decide.
private func screenAction(for key: Key, on screen: Screen) -> Action? {
    switch screen {
    case .settings(let state): return SettingsScreen.action(for: key, in: state).map(Action.settings)
    case .gallery(let state): return GalleryScreen.action(for: key, in: state).map(Action.gallery)
    case .preview: return nil
    }
}

private func apply(_ commands: [Command], to state: inout AppState) -> [Effect] {
    var effects: [Effect] = []
    for command in commands {
        switch command {
        case .push(let screen):
            state.stack.append(screen)
        case .pop:
            if state.canGoBack { state.stack.removeLast() }
        case .showToast(let message):
            state.toast = Toast(message: message, expiresAt: state.now + Toast.lifetime)
            effects.append(.after(seconds: Toast.lifetime, action: .toastExpired, id: .toast))
        case .run(let effect):
            effects.append(effect)
        }
    }
    return effects
}

/// The keys the top screen answers to, then the ones that work everywhere: one list feeds
/// the footer and the `?` help.
public func keymap(for state: AppState) -> Keymap {
    var bindings: [KeyBinding]
    switch state.top {
    case .settings: bindings = SettingsScreen.keymap.bindings
    case .gallery: bindings = GalleryScreen.keymap.bindings
    case .preview: bindings = []
    }
    if state.canGoBack { bindings.append(KeyBinding([.escape, .left], "Back")) }
    bindings.append(KeyBinding([.character("?"), .function(1)], "Help"))
    bindings.append(KeyBinding([.character("q")], "Quit"))
    bindings.append(KeyBinding([.control("c")], "Quit from anywhere", inFooter: false))
    return Keymap(bindings)
}
