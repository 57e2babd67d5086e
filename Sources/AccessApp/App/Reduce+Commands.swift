import AccessAPI
import Foundation
import TerminalKit

/// Carries out what a screen or an overlay asked for. `owner` is who gave the commands (a screen by its
/// depth on the stack, or the overlay): its calls are noted for it in `AppState.pending`. A screen stops
/// owning anything once it leaves the stack, and what it waited for is forgotten with it.
func apply(_ commands: [Command], to state: inout AppState, for owner: CallOwner?) -> [Effect] {
    var effects: [Effect] = []
    var owner = owner
    /// The stack is shorter: screens above it are gone, and so is what they waited for (`AppState.stack`).
    func stackShrank() {
        if case .screen(let depth) = owner, depth >= state.stack.count { owner = nil }
    }
    for command in commands {
        switch command {
        case .push(let screen):
            state.stack.append(screen)
            effects += apply(
                screen.base.onAppear(state.context), to: &state, for: .screen(depth: state.stack.count - 1))
        case .contactSupport(let typed):
            let who = state.methods.map { SupportTicket.Who.user($0.userId) } ?? typed ?? .signedOut
            let ticket = SupportTicket(who: who, flow: state.stack.map(\.id))
            effects += apply([.push(ContactSupportScreen(ticket: ticket))], to: &state, for: owner)
        case .pop:
            if state.canGoBack { state.stack.removeLast() }
            stackShrank()
        case .popTo(let target):
            guard let index = state.stack.lastIndex(where: { $0.is(target) }) else {
                state.defects.append("popTo(\(target)): no such screen on the stack \(state.stack.map(\.id))")
                continue
            }
            state.stack.removeSubrange((index + 1)...)
            stackShrank()
        case .popToNearest(let targets):
            guard let index = state.stack.lastIndex(where: { screen in targets.contains { screen.is($0) } }) else {
                continue
            }
            state.stack.removeSubrange((index + 1)...)
            stackShrank()
        case .replaceTop(let screen):
            let top = state.stack.count - 1
            state.forgetCalls(ofScreensFrom: top)
            if owner == .screen(depth: top) { owner = nil }
            state.top = screen
            effects += apply(screen.base.onAppear(state.context), to: &state, for: .screen(depth: top))
        case .resetStack(let screen):
            owner = nil
            state.forgetCalls(ofScreensFrom: 0)
            state.stack = [screen]
            state.closeOverlay()
            effects += apply(screen.base.onAppear(state.context), to: &state, for: .screen(depth: 0))
        case .showToast(let message):
            state.toast = Toast(message, shownAt: state.now)
            effects.append(.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast))
        case .showSheet(let sheet):
            effects += state.show(AnyOverlay(sheet))
        case .showOverlay(let overlay):
            effects += state.show(overlay)
        case .showOutbox:
            if state.options.hasReferenceBackend { effects += state.show(.outbox(OutboxPanel())) }
        case .showPalette(let search):
            effects += openPalette(&state, search: search)
        case .dismissOverlay:
            if owner == .overlay { owner = nil }
            state.closeOverlay()
        case .call(let call):
            effects += state.send(call, for: owner)
        case .callIgnoringReply(let request):
            effects += state.send(Call(ignoringReply: request), for: nil)
        case .useOutboxMessage(let message):
            let top = state.stack.count - 1
            let context = state.context
            let commands =
                state.top.update({ $0.use(message, context) }) ?? AppRoutes.link(message, context)
                ?? [.showToast(OutboxPanel.unusableText(message))]
            effects += apply(commands, to: &state, for: .screen(depth: top))
        case .runPalette(let action):
            effects += runPaletteAction(action, in: &state)
        case .noteEndpoints(let paths):
            state.console.noteEndpoints(paths)
        case .setMethods(let methods):
            state.methods = methods
            state.methodsFetchedAt = state.now
        case .setSessions(let sessions):
            state.sessions = sessions
        case .setProfile(let profile):
            state.profile = profile
        case .setOffline(let offline):
            if offline {
                if !state.isOffline { effects += state.startProbing() }
                state.isOffline = true
                state.banner = .offline
            } else {
                effects += state.backOnline()
            }
        case .grantReauth(let grant):
            state.reauth = grant
        case .forgetReauth:
            state.reauth = nil
        case .signOut:
            state.forgetUser()
            effects.append(.signOutLocally)
        case .logOut:
            state.forgetUser()
            effects.append(.logOut)
            effects += apply([.resetStack(AppRoutes.loggedOut)], to: &state, for: nil)
            owner = nil
        case .signedIn(let signedIn):
            state.reauth = nil
            effects += state.backOnline()
            effects += apply(
                [
                    .setMethods(signedIn.authMethods), .setProfile(signedIn.profile),
                    .resetStack(AppRoutes.signedIn(signedIn)),
                ],
                to: &state, for: nil)
            owner = nil
        case .continueFlow(let flow):
            effects += apply(flow.base.start(state.context), to: &state, for: owner)
        case .run(let effect):
            effects.append(effect)
        case .setLooks(let theme, let ascii):
            state.options.theme = theme
            state.options.ascii = ascii
        case .returnTo(let delivery):
            guard let index = state.stack.lastIndex(where: { $0.is(delivery.target) }) else {
                state.defects.append(
                    "returnTo(\(delivery.target)): no such screen on the stack \(state.stack.map(\.id))")
                continue
            }
            state.stack.removeSubrange((index + 1)...)
            stackShrank()
            let context = state.context
            let commands = delivery.hand(to: &state.stack[index], context) ?? []
            effects += apply(commands, to: &state, for: .screen(depth: index))
        case .deliverBelow(let delivery):
            guard state.stack.count >= 2 else { break }
            let below = state.stack.count - 2
            let context = state.context
            guard let commands = delivery.hand(to: &state.stack[below], context) else { break }
            effects += apply(commands, to: &state, for: .screen(depth: below))
        }
    }
    return effects
}

extension AppState {
    /// What was shown for the user who signed out here: their methods, profile and re-auth grant.
    mutating func forgetUser() {
        methods = nil
        methodsFetchedAt = nil
        sessions = nil
        profile = nil
        reauth = nil
    }

    /// Shows an overlay in place of the one shown (whose calls are forgotten) and starts what it loads.
    mutating func show(_ overlay: AnyOverlay) -> [Effect] {
        closeOverlay()
        self.overlay = overlay
        let commands = overlay.base.onAppear(overlayContext)
        return apply(commands, to: &self, for: .overlay)
    }

    /// No overlay, and nothing it waited for.
    mutating func closeOverlay() {
        overlay = nil
        forgetOverlayCalls()
    }

    /// What an overlay reads of the app: the screen's context, the terminal's size and, for the help,
    /// the keys of what it covers.
    var overlayContext: OverlayContext {
        OverlayContext(screen: context, size: size ?? .standard, keymapBelow: helpListing(self))
    }
}
