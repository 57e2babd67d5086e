import AccessAPI
import Foundation
import TerminalKit

/// The whole app's logic: applies an action to the state and returns the effects to run.
/// Pure and synchronous; time comes in through `state.now`, set by whoever sends the action.
/// Input is in Reduce+Input, replies in Reduce+Replies, what commands do in Reduce+Commands.
public func reduce(_ state: inout AppState, _ action: Action) -> [Effect] {
    var effects: [Effect]
    switch action {
    case .input(.resize(let size)):
        state.size = size
        effects = []
    case .input(.key(.control("c"))):
        return [.quit]
    case .input(let event) where state.heldForWalk != nil:
        // The walk will replace the screens this key would act on: it waits for the one it lands on.
        if let held = state.heldForWalk, held.count < StartingScreen.pendingLimit { state.heldForWalk = held + [event] }
        return []
    case .input where state.console.switching != nil:
        // The old world is gone and the new one not there yet: no key may act on the old screens.
        return []
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
    case .openLink(let text) where state.isStarting:
        // The start is about to replace the stack: the link would lose its screens and calls to it.
        state.heldLinks.append(text)
        effects = []
    case .openLink(let text):
        effects = openLink(text, in: &state)
    case .identified:
        state.identifying = false
        effects = []
    case .started:
        effects = apply(state.stack[0].base.onAppear(state.context), to: &state, for: .screen(depth: 0))
    case .qaSignedIn(let methods, let profile):
        // Only where nobody signed in meanwhile: a signed-out app goes in as the scenario's user, where
        // its onboarding stands.
        effects =
            AppRoutes.isSignedOut(state.stack[0])
            ? apply(
                [.setMethods(methods), .setProfile(profile), .resetStack(AppRoutes.signedIn(profile: profile))],
                to: &state, for: nil) : []
    case .switchScenario, .moveClock, .setFaults, .startAt:
        effects = reduceConsole(&state, action)
    case .watchAdmin:
        effects = watchAdmin(&state)
    case .watchProxy:
        effects = watchProxy(&state)
    case .openFailed(let url):
        effects = apply([.showToast(Opening.failedText(url))], to: &state, for: nil)
    case .exported(let result):
        switch result {
        case .success(let name): effects = apply([.showToast("Saved \(name)")], to: &state, for: nil)
        case .failure(let failure):
            effects = apply([.showToast("Not saved: \(failure.message)")], to: &state, for: nil)
        }
    case .probe:
        effects = probeNow(&state)
    case .tick:
        state.clockTicking = false
        let context = state.context
        let commands = state.top.update { $0.tick(context) }
        effects = apply(commands, to: &state, for: .screen(depth: state.stack.count - 1))
    }
    return effects + openHeldLinks(&state) + scheduleTick(&state)
}

/// The links that came while the app was starting, once the start has landed on its screen.
private func openHeldLinks(_ state: inout AppState) -> [Effect] {
    guard !state.heldLinks.isEmpty, !state.isStarting else { return [] }
    let links = state.heldLinks
    state.heldLinks = []
    return links.flatMap { openLink($0, in: &state) }
}

/// A link opened from outside: the screen waiting for a link takes it; else the link's own kind
/// decides where it goes (LinkRouter); else the person is told nothing here waits for it.
func openLink(_ text: String, in state: inout AppState) -> [Effect] {
    let top = CallOwner.screen(depth: state.stack.count - 1)
    if state.overlay?.as(OutboxPanel.self) != nil { state.closeOverlay() }
    let context = state.context
    if let commands = state.top.update({ $0.openLink(text, context) }) ?? AppRoutes.link(pasted: text, context) {
        return apply(commands, to: &state, for: top)
    }
    return apply([.showToast(LinkRouter.nothingWaitingText)], to: &state, for: top)
}

/// Keeps one one-second timer running while anything on screen counts down.
private func scheduleTick(_ state: inout AppState) -> [Effect] {
    guard state.top.base.needsClock, !state.clockTicking else { return [] }
    state.clockTicking = true
    return [.after(seconds: 1, action: .tick, id: .clock)]
}
