import TerminalKit

/// The keys that work around every screen: back, the panels, the palette, help and quit.
enum AppIntent: Sendable {
    case back, logOut, reconnect, outbox, journal, palette, specNotes, help, quit, quitFromAnywhere
}

/// The app's own bindings around the top screen, in the footer's order after the screen's. Keys the
/// screen binds itself are left out: a key the screen lists means what the screen says (the keyboard
/// check's Esc, the code screen's outbox), so no key is listed twice.
func appBindings(_ state: AppState) -> [KeyBinding<AppIntent>] {
    let takesText = state.top.base.takesText
    var app: [KeyBinding<AppIntent>] = []
    if state.canGoBack {
        app.append(KeyBinding(takesText ? [.escape] : [.escape, .left], "Back", .back))
    } else if AppRoutes.isOnboarding(state.top) {
        // Onboarding's steps stand alone with nothing to go back to: Esc is the way out.
        app.append(KeyBinding([.escape], "Log out", .logOut))
    }
    // Offline, the probe asks by itself every few seconds; `r` asks now.
    if state.isOffline, !takesText { app.append(KeyBinding([.character("r")], "Reconnect", .reconnect)) }
    if state.options.hasReferenceBackend {
        app.append(KeyBinding(OutboxPanel.keys, "Outbox", inFooter: false, .outbox))
    }
    app.append(KeyBinding(JournalPanel.keys, "Requests (HTTP journal)", inFooter: false, .journal))
    app.append(
        KeyBinding(
            CommandPalette.keys, "Command palette", inFooter: false,
            aliases: takesText ? [] : [CommandPalette.shortKey], .palette))
    app.append(KeyBinding(SpecNotesPanel.keys, "Spec notes", inFooter: false, .specNotes))
    app.append(KeyBinding(takesText ? [.function(1)] : [.character("?"), .function(1)], "Help", .help))
    if !takesText { app.append(KeyBinding([.character("q")], "Quit", .quit)) }
    app.append(KeyBinding([.control("c")], "Quit from anywhere", inFooter: false, .quitFromAnywhere))
    let taken = Set(state.top.base.keymap(state.context).hints.flatMap(\.allKeys))
    return app.compactMap { binding in
        var binding = binding
        binding.hint.keys.removeAll(where: taken.contains)
        binding.hint.aliases.removeAll(where: taken.contains)
        for key in taken { binding.intents[key] = nil }
        return binding.hint.keys.isEmpty ? nil : binding
    }
}

/// Does what an app key stands for.
func performApp(_ intent: AppIntent, in state: inout AppState) -> [Effect] {
    switch intent {
    case .back: return apply([.pop], to: &state, for: .screen(depth: state.stack.count - 1))
    case .logOut: return apply([.showSheet(.confirmLogout)], to: &state, for: nil)
    case .reconnect:
        let probe = probeNow(&state)
        return probe.isEmpty ? [] : [.cancel(.probe)] + probe
    case .outbox: return apply([.showOutbox], to: &state, for: nil)
    case .journal: return state.show(.journal(JournalPanel()))
    case .palette: return openPalette(&state)
    case .specNotes: return state.show(.specNotes(SpecNotesPanel(over: state.top)))
    case .help: return state.show(.help)
    case .quit, .quitFromAnywhere: return [.quit]
    }
}

/// The keys around an open overlay: its help, and the console's keys, which act from anywhere (the
/// qa-guide's promise): over a sheet or a panel, each opens its panel in the overlay's place, as the same
/// key does over a screen. Only keys no overlay types (Ctrl and function keys), and none the overlay binds.
enum OverlayAppIntent: Equatable, Sendable {
    case help
    case app(AppIntent)
}

func overlayAppBindings(
    _ overlay: AnyOverlay, _ context: OverlayContext, hasReferenceBackend: Bool
) -> [KeyBinding<OverlayAppIntent>] {
    guard !(overlay.base is HelpPanel) else { return [] }
    let taken = Set(overlay.keymap(context).hints.flatMap(\.allKeys))
    let helpKeys: [Key] = (overlay.base.takesText ? [] : [.character("?")]) + [.function(1)]
    var all: [KeyBinding<OverlayAppIntent>] = [KeyBinding(helpKeys, "Help", inFooter: false, .help)]
    if hasReferenceBackend { all.append(KeyBinding(OutboxPanel.keys, "Outbox", inFooter: false, .app(.outbox))) }
    all += [
        KeyBinding(JournalPanel.keys, "Requests (HTTP journal)", inFooter: false, .app(.journal)),
        KeyBinding(CommandPalette.keys, "Command palette", inFooter: false, .app(.palette)),
        KeyBinding(SpecNotesPanel.keys, "Spec notes", inFooter: false, .app(.specNotes)),
        KeyBinding([.control("c")], "Quit from anywhere", inFooter: false, .app(.quitFromAnywhere)),
    ]
    return all.compactMap { binding in
        var binding = binding
        binding.hint.keys.removeAll(where: taken.contains)
        for key in taken { binding.intents[key] = nil }
        return binding.hint.keys.isEmpty ? nil : binding
    }
}

/// The keys of what is on top, as the footer shows them: the overlay's own (with its help), or the
/// screen's followed by the app's.
public func keymap(for state: AppState) -> Keymap {
    if let overlay = state.overlay {
        let context = state.overlayContext
        let around = overlayAppBindings(overlay, context, hasReferenceBackend: state.options.hasReferenceBackend)
        return Keymap(overlay.keymap(context).hints + around.map(\.hint))
    }
    return Keymap(state.top.base.keymap(state.context).hints + appBindings(state).map(\.hint))
}

/// What the help lists: the keys of the overlay it covers, or of the screen with the app's.
func helpListing(_ state: AppState) -> Keymap {
    var below = state
    below.overlay = state.overlay?.as(HelpPanel.self)?.covering
    return keymap(for: below)
}
