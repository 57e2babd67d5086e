import AccessAPI
import Foundation

/// Hands a reply to whoever waits for its id (`AppState.pending`), as the case of its own `Reply` the
/// call named. A reply nobody waits for (its screen was left, its panel closed) changes nothing at
/// all: not the offline banner, not a sheet, not the session.
func deliver(_ result: Result<Answer, APIError>, for id: RequestID, in state: inout AppState) -> [Effect] {
    guard let pending = state.pending.removeValue(forKey: id) else { return [] }
    // The answer, or the deadline's "no answer": either way the other one finds nobody waiting.
    var effects: [Effect] = pending.call.deadline == nil ? [] : [.cancel(.deadline(id))]
    guard pending.call.accepts(result) else {
        state.defects.append("the reply to \(pending.call.key) is not its request's reply type: \(result)")
        return effects
    }
    var commands: [Command] = []
    if pending.call.reachesBackend {
        if case .failure(.offline) = result {
            commands.append(.setOffline(true))
        } else if state.isOffline {
            commands.append(.setOffline(false))
        }
    }
    var owner: CallOwner?
    switch pending.owner {
    case .console:
        effects += apply(commands, to: &state, for: nil)
        guard let reply = pending.call.reply(to: result, as: ConsoleReply.self) else { return effects }
        return effects + receiveConsole(reply, in: &state)
    case .app:
        if let reply = pending.call.reply(to: result, as: ProbeReply.self) {
            commands += receiveProbe(reply, in: &state)
        }
    case .overlay:
        let context = state.overlayContext
        if var overlay = state.overlay, let received = overlay.update({ $0.receive(result, of: pending.call, context) })
        {
            state.overlay = overlay
            commands += received
            owner = .overlay
        }
    case .screen(let depth):
        let context = state.context
        if state.stack.indices.contains(depth),
            let received = state.stack[depth].update({ $0.receive(result, of: pending.call, context) })
        {
            commands += received
            owner = .screen(depth: depth)
        } else {
            state.defects.append("the reply to \(pending.call.key) found no screen that asked for it at \(depth)")
        }
    }
    effects += apply(commands, to: &state, for: owner)
    // A session with limited access asked for a change: the same sheet as the screens that know it.
    if case .failure(let failure) = result, LimitedAccess.isRefusal(failure) {
        effects += apply([.showSheet(.limitedAccess)], to: &state, for: owner)
    }
    // The session passed its first factor only (a stored one at start, or any call it made): the second
    // step, alone on the stack, unless it is already there.
    if case .failure(let failure) = result, TwoFactor.isRequiredRefusal(failure),
        state.stack[0].as(AuthenticatorCodeScreen.self)?.purpose != .signIn
    {
        effects += apply([.resetStack(AppRoutes.secondFactor)], to: &state, for: nil)
    }
    // The backend refused the session for good (a refused refresh): what was shown for that user goes,
    // on screen and in the cache, not only the tokens, and the person is asked to sign in again (seed
    // 002) — unless the screen already took the app to a signed-out screen.
    // While a scenario switch is under way the session went with the old world: the switch signs in again.
    if case .failure(.signedOut) = result, !AppRoutes.isSignedOut(state.stack[0]), state.console.switching == nil {
        effects += apply(
            [.signOut, .resetStack(AppRoutes.sessionExpired)], to: &state,
            for: nil)
    }
    // Another device signed this one out (issue 30): the same, and the sign-in screen says why.
    if case .failure(.signedOutElsewhere) = result, !AppRoutes.isSignedOut(state.stack[0]) {
        effects += apply([.signOut, .resetStack(AppRoutes.signedOutElsewhere)], to: &state, for: nil)
    }
    return effects
}
