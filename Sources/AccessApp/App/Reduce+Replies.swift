import AccessAPI
import Foundation

/// Hands a reply to whoever waits for its id (`AppState.pending`), as the case of its own `Reply` the
/// call named. A reply nobody waits for (its screen was left, its panel closed) changes nothing at
/// all: not the offline banner, not a sheet, not the session. What concerns the whole app whoever asked
/// (`AppWideFailure`) is done around the owner's own reply.
func deliver(_ result: Result<Answer, APIError>, for id: RequestID, in state: inout AppState) -> [Effect] {
    guard let pending = state.pending.removeValue(forKey: id) else { return [] }
    // The answer, or the deadline's "no answer": either way the other one finds nobody waiting.
    var effects: [Effect] = pending.call.deadline == nil ? [] : [.cancel(.deadline(id))]
    guard pending.call.accepts(result) else {
        state.defects.append("the reply to \(pending.call.key) is not its request's reply type: \(result)")
        return effects
    }
    let failure: APIError? = if case .failure(let failure) = result { failure } else { nil }
    var commands: [Command] = []
    if let failure, AppWideFailure.offline.matches(failure) {
        if AppWideFailure.offline.holds(for: pending, in: state) { commands += AppWideFailure.offline.commands }
    } else if pending.call.reachesBackend, pending.owner != .console, state.isOffline, failure?.isServerError != true {
        // Any answer from the backend says it is there again; not the admin API's, which a fault on every
        // call spares (issue 48 item 2: the strip's poll cleared the banner while every call got 503), nor a
        // 5xx, the server failing: it is not back for the app until it answers.
        commands.append(.setOffline(false))
    }
    // Before the owner, so a screen that asks again finds no grant to skip the picker with.
    if let failure, AppWideFailure.grantRefused.matches(failure),
        AppWideFailure.grantRefused.holds(for: pending, in: state)
    {
        effects += apply(AppWideFailure.grantRefused.commands, to: &state, for: nil)
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
    guard let failure else { return effects }
    for row in AppWideFailure.afterTheOwner where row.matches(failure) && row.holds(for: pending, in: state) {
        effects += apply(row.commands(for: failure), to: &state, for: row == .limitedAccess ? owner : nil)
    }
    return effects
}

/// The failures that concern the whole app, whoever asked: one row each, with the one guard that says
/// whether the app acts on it now (`holds`) and what it does (`commands`). Offline and a refused grant are
/// done before the owner's own commands (the banner is up, the grant gone, when they run); the others after,
/// in this order.
enum AppWideFailure: CaseIterable {
    /// No answer: the offline banner, and the probe that asks until the backend is back (Reduce+Probe).
    case offline
    /// The backend refused the re-auth grant sent (`reauth_required`: its window closed, or the session that
    /// earned it ended): the app forgets it, so no later action sends it again or skips "Verify it's you".
    /// The screen that asked says what happens next (most go back to the picker).
    case grantRefused
    /// A session with limited access asked for a change (seed 003): the same sheet as the screens that
    /// know it, for the screen that asked.
    case limitedAccess
    /// The session passed its first factor only (a stored one at start, or any call it made): the second
    /// step, alone on the stack.
    case secondFactorRequired
    /// The backend refused the session for good (a refused refresh): what was shown for that user goes, on
    /// screen and in the cache, not only the tokens, and the person is asked to sign in again (seed 002).
    case signedOut
    /// Another device signed this one out (issue 30): as `signedOut`, and the sign-in screen says why.
    case signedOutElsewhere

    static let afterTheOwner = allCases.filter { $0 != .offline && $0 != .grantRefused }

    func matches(_ failure: APIError) -> Bool {
        switch self {
        case .offline: if case .offline = failure { true } else { false }
        case .grantRefused: if case .reauthRequired = failure { true } else { false }
        case .limitedAccess: LimitedAccess.isRefusal(failure)
        case .secondFactorRequired: TwoFactor.isRequiredRefusal(failure)
        case .signedOut:
            switch failure {
            case .signedOut, .sessionEnded: true
            default: false
            }
        case .signedOutElsewhere: if case .signedOutElsewhere = failure { true } else { false }
        }
    }

    /// The one guard: whether the app acts on this failure of `pending`'s call now.
    ///
    /// - offline: a call that goes to the backend (reading the app's own journal says nothing of it).
    /// - a refused grant and the session's four: a call made with the app's session (not the console's: the admin API carries
    ///   none, and a switch signs in by itself), with no scenario or world switch under way (the session
    ///   went with the old world; the switch signs in again, and a sign-out now would forget its new
    ///   session), and where acting would change something: not already on the second step, not already
    ///   signed out (the screen may have taken the app to a signed-out screen by itself).
    func holds(for pending: PendingCall, in state: AppState) -> Bool {
        if self == .offline { return pending.call.reachesBackend }
        guard pending.owner != .console, state.console.switching == nil else { return false }
        switch self {
        case .offline, .grantRefused, .limitedAccess: return true
        case .secondFactorRequired: return state.stack[0].as(AuthenticatorCodeScreen.self)?.purpose != .signIn
        case .signedOut, .signedOutElsewhere: return !AppRoutes.isSignedOut(state.stack[0])
        }
    }

    var commands: [Command] {
        switch self {
        case .offline: [.setOffline(true)]
        case .grantRefused: [.forgetReauth]
        case .limitedAccess: [.showSheet(.limitedAccess)]
        case .secondFactorRequired: [.resetStack(AppRoutes.secondFactor)]
        case .signedOut: [.signOut, .resetStack(AppRoutes.sessionExpired)]
        case .signedOutElsewhere: [.signOut, .resetStack(AppRoutes.signedOutElsewhere)]
        }
    }

    /// `commands`, but a session that ended for a reason the backend gave is signed out saying it (issue 49 item 3).
    func commands(for failure: APIError) -> [Command] {
        guard self == .signedOut, case .sessionEnded(let reason) = failure else { return commands }
        return [.signOut, .resetStack(AppRoutes.sessionEnded(reason: reason))]
    }
}
