import AccessAPI
import Foundation
import TerminalKit

/// The whole app's logic: applies an action to the state and returns the effects to run.
/// Pure and synchronous; time comes in through `state.now`, set by whoever sends the action.
public func reduce(_ state: inout AppState, _ action: Action) -> [Effect] {
    var effects: [Effect]
    switch action {
    case .input(.resize(let size)):
        state.size = size
        effects = []
    case .input(.key(.control("c"))):
        return [.quit]
    case .input(let event) where state.size.map { !$0.fits(.minimum) } ?? false:
        // Under the "Terminal too small" notice nothing reaches the hidden screen: q quits.
        return event == .key(.character("q")) ? [.quit] : []
    case .input(.mouse(let mouse)):
        effects = reduceMouse(&state, mouse)
    case .input(let event):
        effects = reduceInput(&state, event)
    case .response(let id, let result):
        effects = deliver(result, for: id, in: &state)
    case .toastExpired:
        if let toast = state.toast, !toast.isVisible(at: state.now) { state.toast = nil }
        effects = []
    case .openLink(let text):
        effects = openLink(text, in: &state)
    case .referenceBackendFound:
        state.options.hasReferenceBackend = true
        // The hub may have asked before the QA sign-in: it asks again.
        let hub = state.stack.count - 1
        effects =
            state.top.is(ScreenType(HubScreen.self))
            ? apply(state.top.base.onAppear(state.context), to: &state, from: hub) : []
    case .started:
        effects = apply(state.stack[0].base.onAppear(state.context), to: &state, from: 0)
    case .qaSignedIn(let methods, let profile):
        // Only where nobody signed in meanwhile: a signed-out app goes in as the scenario's user, where
        // its onboarding stands.
        effects =
            SignedOutRoots.contains(state.stack[0])
            ? apply(
                [.setMethods(methods), .setProfile(profile), .resetStack(AnyScreen(Onboarding.screen(for: profile)))],
                to: &state, from: nil) : []
    case .switchScenario, .moveClock:
        effects = reduceConsole(&state, action)
    case .exported(let result):
        switch result {
        case .success(let name): effects = apply([.showToast("Saved \(name)")], to: &state, from: nil)
        case .failure(let failure):
            effects = apply([.showToast("Not saved: \(failure.message)")], to: &state, from: nil)
        }
    case .tick:
        state.clockTicking = false
        let context = state.context
        let commands = state.top.update { $0.tick(context) }
        effects = apply(commands, to: &state, from: state.stack.count - 1)
    }
    return effects + scheduleTick(&state)
}

/// A link opened from outside: the screen waiting for a link takes it; else the link's own kind
/// decides where it goes (LinkRouter); else the person is told nothing here waits for it.
private func openLink(_ text: String, in state: inout AppState) -> [Effect] {
    let top = state.stack.count - 1
    if case .outbox = state.overlay { state.overlay = nil }
    let context = state.context
    if let commands = state.top.update({ $0.openLink(text, context) }) ?? LinkRouter.open(pasted: text, context) {
        return apply(commands, to: &state, from: top)
    }
    return apply([.showToast(LinkRouter.nothingWaitingText)], to: &state, from: top)
}

/// Keeps one one-second timer running while anything on screen counts down.
private func scheduleTick(_ state: inout AppState) -> [Effect] {
    guard state.top.base.needsClock, !state.clockTicking else { return [] }
    state.clockTicking = true
    return [.after(seconds: 1, action: .tick, id: .clock)]
}

private func reduceInput(_ state: inout AppState, _ event: InputEvent) -> [Effect] {
    let top = state.stack.count - 1
    switch state.overlay {
    case .help:
        if case .key(let key) = event, [.escape, .enter, .character("?"), .character("q"), .function(1)].contains(key) {
            state.overlay = nil
        }
        return []
    case .sheet(var sheet):
        guard case .key(let key) = event else { return [] }
        switch key {
        case .up, .left, .backTab:
            sheet.sheet.move(by: -1)
            state.overlay = .sheet(sheet)
        case .down, .right, .tab:
            sheet.sheet.move(by: 1)
            state.overlay = .sheet(sheet)
        case .enter:
            // The sheet's actions act for the screen it covers.
            return apply(
                [.dismissOverlay] + sheet.commands(choosing: sheet.sheet.selectedAction), to: &state, from: top)
        case .escape:
            state.overlay = nil
        default:
            break
        }
        return []
    case .outbox(var panel):
        guard case .key(let key) = event else { return [] }
        switch panel.handle(key) {
        case .stay:
            state.overlay = .outbox(panel)
            return []
        case .close:
            state.overlay = nil
            return []
        case .reload:
            return loadOutbox(&state, panel)
        case .use(let message):
            state.overlay = nil
            let context = state.context
            if let commands = state.top.update({ $0.use(message, context) }) ?? LinkRouter.open(message, context) {
                return apply(commands, to: &state, from: top)
            }
            return apply(
                [.showToast("Nothing on this screen takes that \(message.code == nil ? "link" : "code").")],
                to: &state, from: top)
        }
    case .palette(var palette):
        switch palette.handle(event) {
        case .stay:
            state.overlay = .palette(palette)
            return []
        case .close:
            state.overlay = nil
            return []
        case .run(let action):
            state.overlay = nil
            return runPaletteAction(action, in: &state)
        }
    case .journal(var panel):
        guard case .key(let key) = event else { return [] }
        switch panel.handle(key, baseURL: state.options.backendURL) {
        case .stay:
            state.overlay = .journal(panel)
            return []
        case .close:
            state.overlay = nil
            return []
        case .reload:
            return loadJournal(&state, panel)
        case .copy(let curl):
            state.overlay = .journal(panel)
            return [.copy(curl)] + apply([.showToast("Copied as curl (secrets redacted)")], to: &state, from: nil)
        case .faultEndpoint(let path):
            let effects = openPalette(&state)
            if case .palette(var palette) = state.overlay {
                palette.search("fault \(path)")
                state.overlay = .palette(palette)
            }
            return effects
        }
    case .specNotes(var panel):
        guard case .key(let key) = event else { return [] }
        let stays = panel.handle(key, size: state.size ?? .standard)
        state.overlay = stays ? .specNotes(panel) : nil
        return []
    case nil:
        break
    }
    if case .key(let key) = event, JournalPanel.keys.contains(key) {
        return loadJournal(&state, JournalPanel())
    }
    if case .key(let key) = event, OutboxPanel.keys.contains(key), state.options.hasReferenceBackend {
        return loadOutbox(&state, OutboxPanel())
    }
    // Before the keymap's door: the notes open over any screen, one that takes text included.
    if case .key(let key) = event, SpecNotesPanel.keys.contains(key) {
        state.overlay = .specNotes(SpecNotesPanel(over: state.top, now: state.now))
        return []
    }
    let takesText = state.top.base.takesText
    if case .key(let key) = event, CommandPalette.keys.contains(key) || (key == CommandPalette.shortKey && !takesText) {
        return openPalette(&state)
    }
    // The keymap is the door: a key it does not list reaches nobody (typing on a text screen
    // is not a shortcut and always goes to the field).
    if case .key(let key) = event, !state.top.base.acceptsAnyKey, !(takesText && event.isTextEditing),
        keymap(for: state).binding(for: key) == nil
    {
        return []
    }
    let context = state.context
    if let commands = state.top.update({ $0.handle(event, context) }) {
        return apply(commands, to: &state, from: top)
    }
    guard case .key(let key) = event else { return [] }
    switch key {
    case .character("?") where !takesText, .function(1):
        state.overlay = .help
        return []
    case .escape,
        .left where !takesText:
        return apply([.pop], to: &state, from: top)
    case .character("q") where !takesText:
        return [.quit]
    default:
        return []
    }
}

private func loadOutbox(_ state: inout AppState, _ panel: OutboxPanel) -> [Effect] {
    var panel = panel
    let id = mintRequestID(&state)
    panel.isLoading = true
    panel.awaiting = id
    state.overlay = .outbox(panel)
    return [.request(AnyRequest(LoadOutbox()), id: id)]
}

private func loadJournal(_ state: inout AppState, _ panel: JournalPanel) -> [Effect] {
    var panel = panel
    let id = mintRequestID(&state)
    panel.isLoading = true
    panel.awaiting = id
    var effects: [Effect] = [.request(AnyRequest(LoadJournal()), id: id)]
    if state.options.hasReferenceBackend {
        let rules = mintRequestID(&state)
        panel.awaitingRules = rules
        effects.append(.request(AnyRequest(LoadBackendJournal()), id: rules))
    }
    state.overlay = .journal(panel)
    return effects
}

private func mintRequestID(_ state: inout AppState) -> RequestID {
    defer { state.nextRequestID += 1 }
    return RequestID(state.nextRequestID)
}

/// Hands a reply to the screen that waits for its id; a screen that was left took its ids
/// with it, so a late reply finds nobody and is dropped.
private func deliver(_ result: Result<AnyValue, APIError>, for id: RequestID, in state: inout AppState) -> [Effect] {
    // The journal is read from the app's own memory: its reply says nothing of whether the backend is there.
    if case .journal(var panel) = state.overlay, panel.awaiting == id || panel.awaitingRules == id {
        if panel.awaiting == id { panel.receive(result) } else { panel.receiveRules(result) }
        state.console.noteEndpoints(panel.rows.map(\.record.path))
        state.overlay = .journal(panel)
        return []
    }
    var commands: [Command] = []
    if case .failure(.offline) = result {
        commands.append(.setOffline(true))
    } else if state.isOffline {
        commands.append(.setOffline(false))
    }
    var owner: Int?
    var consoleEffects: [Effect] = []
    if receiveConsole(result, for: id, in: &state, effects: &consoleEffects) {
        return apply(commands, to: &state, from: nil) + consoleEffects
    }
    if case .outbox(var panel) = state.overlay, panel.awaiting == id {
        panel.receive(result)
        state.overlay = .outbox(panel)
    } else if let index = state.stack.lastIndex(where: { $0.awaiting[id] != nil }) {
        let tag = state.stack[index].awaiting.removeValue(forKey: id) ?? ""
        let context = state.context
        commands += state.stack[index].update { $0.receive(tag, result, context) }
        owner = index
    }
    var effects = apply(commands, to: &state, from: owner)
    // The backend refused the session for good (a refused refresh): what was shown for that user goes,
    // on screen and in the cache, not only the tokens, and the person is asked to sign in again (seed
    // 002) — unless the screen already took the app to a signed-out screen.
    // A session with limited access asked for a change: the same sheet as the screens that know it.
    if case .failure(let failure) = result, LimitedAccess.isRefusal(failure) {
        effects += apply([.showSheet(.limitedAccess)], to: &state, from: owner)
    }
    if case .failure(.signedOut) = result, !SignedOutRoots.contains(state.stack[0]) {
        effects += apply(
            [.signOut, .resetStack(SignInScreen(notice: SignInScreen.sessionExpiredText))], to: &state, from: nil)
    }
    return effects
}

/// Carries out what a screen asked for. `owner` is the stack index of the screen the commands
/// came from: its requests are kept there. It stops owning anything once it leaves the stack.
func apply(_ commands: [Command], to state: inout AppState, from owner: Int?) -> [Effect] {
    var effects: [Effect] = []
    var owner = owner
    func ownerLeft(ifAbove count: Int) {
        if let index = owner, index >= count { owner = nil }
    }
    for command in commands {
        switch command {
        case .push(let screen):
            state.stack.append(screen)
            effects += apply(screen.base.onAppear(state.context), to: &state, from: state.stack.count - 1)
        case .pop:
            if state.canGoBack { state.stack.removeLast() }
            ownerLeft(ifAbove: state.stack.count)
        case .popTo(let target):
            guard let index = state.stack.lastIndex(where: { $0.is(target) }) else {
                state.defects.append("popTo(\(target)): no such screen on the stack \(state.stack.map(\.id))")
                continue
            }
            state.stack.removeSubrange((index + 1)...)
            ownerLeft(ifAbove: state.stack.count)
        case .popToNearest(let targets):
            guard let index = state.stack.lastIndex(where: { screen in targets.contains { screen.is($0) } }) else {
                continue
            }
            state.stack.removeSubrange((index + 1)...)
            ownerLeft(ifAbove: state.stack.count)
        case .replaceTop(let screen):
            if owner == state.stack.count - 1 { owner = nil }
            state.top = screen
            effects += apply(screen.base.onAppear(state.context), to: &state, from: state.stack.count - 1)
        case .resetStack(let screen):
            owner = nil
            state.stack = [screen]
            state.overlay = nil
            effects += apply(screen.base.onAppear(state.context), to: &state, from: 0)
        case .showToast(let message):
            state.toast = Toast(message, shownAt: state.now)
            effects.append(.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast))
        case .showSheet(let sheet):
            state.overlay = .sheet(sheet)
        case .dismissOverlay:
            state.overlay = nil
        case .request(let request, let tag):
            let id = mintRequestID(&state)
            if let index = owner { state.stack[index].awaiting[id] = tag }
            effects.append(.request(request, id: id))
        case .setMethods(let methods):
            state.methods = methods
            state.methodsFetchedAt = state.now
        case .setProfile(let profile):
            state.profile = profile
        case .setOffline(let offline):
            state.isOffline = offline
            if offline {
                state.banner = .offline
            } else if state.banner == .offline {
                state.banner = nil
            }
        case .grantReauth(let grant):
            state.reauth = grant
        case .signOut:
            state.methods = nil
            state.methodsFetchedAt = nil
            state.profile = nil
            state.reauth = nil
            effects.append(.signOutLocally)
        case .signedIn(let signedIn):
            state.reauth = nil
            state.isOffline = false
            if state.banner == .offline { state.banner = nil }
            effects += apply(
                [
                    .setMethods(signedIn.authMethods), .setProfile(signedIn.profile),
                    .resetStack(AnyScreen(SignedInLanding.root(for: signedIn))),
                ],
                to: &state, from: nil)
            owner = nil
        case .continueFlow(let flow):
            effects += apply(flow.base.start(state.context), to: &state, from: owner)
        case .run(let effect):
            effects.append(effect)
        case .setLooks(let theme, let ascii):
            state.options.theme = theme
            state.options.ascii = ascii
        case .returnTo(let target, let value):
            guard let index = state.stack.lastIndex(where: { $0.is(target) }) else {
                state.defects.append("returnTo(\(target)): no such screen on the stack \(state.stack.map(\.id))")
                continue
            }
            state.stack.removeSubrange((index + 1)...)
            ownerLeft(ifAbove: state.stack.count)
            let context = state.context
            let commands = state.stack[index].update { $0.receiveChoice(value, context) }
            effects += apply(commands, to: &state, from: index)
        case .deliverBelow(let choice):
            guard state.stack.count >= 2 else { break }
            let below = state.stack.count - 2
            let context = state.context
            let commands = state.stack[below].update { $0.receiveChoice(choice, context) }
            effects += apply(commands, to: &state, from: below)
        }
    }
    return effects
}

/// The keys the top screen answers to, then the ones that work everywhere: one list feeds
/// the footer and the `?` help.
public func keymap(for state: AppState) -> Keymap {
    if case .outbox = state.overlay {
        return Keymap([
            KeyBinding([.up, .down], "Choose"), KeyBinding([.enter], "Use here"),
            KeyBinding([.character("r")], "Reload"),
            KeyBinding([.escape], "Close"),
        ])
    }
    if case .journal(let panel) = state.overlay {
        let list = [
            KeyBinding([.up, .down], panel.showsDetail ? "Scroll" : "Choose"),
            KeyBinding([.enter], panel.showsDetail ? "List" : "Details"), KeyBinding([.character("c")], "Copy as curl"),
            KeyBinding([.character("f")], "Fault it"), KeyBinding([.character("a")], "Admin calls"),
            KeyBinding([.character("r")], "Reload"), KeyBinding([.escape], panel.showsDetail ? "Back" : "Close"),
        ]
        return Keymap(list)
    }
    if case .palette = state.overlay {
        return Keymap([
            KeyBinding([.up, .down], "Choose"), KeyBinding([.enter], "Run"), KeyBinding([.escape], "Close"),
        ])
    }
    if case .specNotes = state.overlay { return SpecNotesPanel.keymap }
    if case .sheet = state.overlay {
        return Keymap([
            KeyBinding([.up, .down], "Choose"), KeyBinding([.enter], "Confirm"), KeyBinding([.escape], "Close"),
        ])
    }
    let takesText = state.top.base.takesText
    let screen = state.top.base.keymap(state.context).bindings
    var app: [KeyBinding] = []
    if state.canGoBack { app.append(KeyBinding(takesText ? [.escape] : [.escape, .left], "Back")) }
    if state.options.hasReferenceBackend { app.append(KeyBinding(OutboxPanel.keys, "Outbox", inFooter: false)) }
    app.append(KeyBinding(JournalPanel.keys, "Requests (HTTP journal)", inFooter: false))
    app.append(
        KeyBinding(
            CommandPalette.keys, "Command palette", inFooter: false,
            aliases: takesText ? [] : [CommandPalette.shortKey]))
    app.append(KeyBinding(SpecNotesPanel.keys, "Spec notes", inFooter: false))
    app.append(KeyBinding(takesText ? [.function(1)] : [.character("?"), .function(1)], "Help"))
    if !takesText { app.append(KeyBinding([.character("q")], "Quit")) }
    app.append(KeyBinding([.control("c")], "Quit from anywhere", inFooter: false))
    // A key the screen lists means what the screen says (the keyboard check's Esc, the code
    // screen's outbox): the app's binding for it is left out, so no key is listed twice.
    let taken = Set(screen.flatMap(\.allKeys))
    let free = app.compactMap { binding -> KeyBinding? in
        var binding = binding
        binding.keys.removeAll(where: taken.contains)
        binding.aliases.removeAll(where: taken.contains)
        return binding.keys.isEmpty ? nil : binding
    }
    return Keymap(screen + free)
}
