import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The replies to the console's calls: each keeps what was asked, for the toast that answers it.
enum ConsoleReply: Equatable, Sendable {
    case scenarios(Result<[ScenarioSummary], APIError>)
    case switched(String, ScenarioLoader, Result<ScenarioSwitched, APIError>)
    case adminState(Result<AdminState, APIError>)
    case clockMoved(ClockMove, Result<ClockAdvanced, APIError>)
    case faultsChanged(String, Result<FaultSettings, APIError>)
    case otherDeviceSignedIn(OtherDevice, Result<String, APIError>)
    case authenticatorCode(Result<AuthenticatorCode, APIError>)
    case signedOutElsewhere(Result<String, APIError>)
    case devicePasskey(DevicePasskeyAction, Result<String, APIError>)
    case worlds(Result<[WorldSummary], APIError>)
    case worldEntered(EnterWorld, Result<WorldEntered, APIError>)
    case arrived(String, Result<Arrival, APIError>)
    case presetDone(StatePreset, Result<PresetOutcome, APIError>)
    case proxyFindings(Result<ProxyFindingsDigest?, APIError>)
}

/// The console's own actions: a scenario switch, a clock move and faults (from the palette or a tape).
func reduceConsole(_ state: inout AppState, _ action: Action) -> [Effect] {
    switch action {
    case .switchScenario(let name):
        return beginSwitch(to: name, loadedBy: .app, in: &state)
    case .moveClock(let move):
        return state.send(Call(MoveClock(move: move)) { ConsoleReply.clockMoved(move, $0) }, for: .console)
    case .setFaults(let faults, let label):
        return runPaletteAction(.setFaults(faults, label: label), in: &state)
    case .startAt(let id):
        StartAt.holdKeys(in: &state)
        return state.send(Call(StartAt(id: id)) { ConsoleReply.arrived(id, $0) }, for: .console)
    default:
        return []
    }
}

/// A reply to one of the console's calls.
func receiveConsole(_ reply: ConsoleReply, in state: inout AppState) -> [Effect] {
    switch reply {
    case .scenarios(let result):
        guard case .success(let scenarios) = result else { return [] }
        state.console.scenarios = scenarios
        if var palette = state.overlay?.as(CommandPalette.self) {
            palette.refresh(CommandPalette.commands(for: state))
            state.overlay = .palette(palette)
        }
        return []
    case .adminState(.success(let admin)):
        return receiveAdminState(admin, in: &state)
    case .proxyFindings(let result):
        return receiveProxyFindings(result, in: &state)
    case .adminState(.failure):
        // The offline banner (`deliver`) says what there is to say; the next look tries again.
        return []
    case .switched(let name, let loader, .failure(let failure)):
        state.console.switching = nil
        let toast =
            loader == .app
            ? "Scenario \(name) not loaded: \(failure.message)"
            : "\(ScenarioLoader.landedText(loader, name)); signing in failed: \(failure.message)"
        return apply([.showToast(toast)], to: &state, for: nil)
    case .switched(let name, let loader, .success(let switched)):
        state.console.switching = nil
        state.console.scenario = name
        if let epoch = switched.epoch { state.console.epoch = max(state.console.epoch ?? epoch, epoch) }
        let toast = ScenarioLoader.landedText(loader, name)
        return land(signedIn: switched.signedIn, dataUnanswered: switched.dataUnanswered, toast: toast, in: &state)
    case .worlds(let result):
        guard case .success(let worlds) = result else { return [] }
        state.console.worlds = worlds
        if var palette = state.overlay?.as(CommandPalette.self) {
            palette.refresh(CommandPalette.commands(for: state))
            state.overlay = .palette(palette)
        }
        return []
    case .worldEntered(let request, .failure(let failure)):
        state.console.switching = nil
        let answered = !failure.gotNoAnswer
        guard let name = request.name, let scenario = request.newFrom, answered else {
            return apply([.showToast("World not entered: \(failure.message)")], to: &state, for: nil)
        }
        // The backend refused the new world (taken, over the cap, a bad name): back in the palette as typed,
        // the reason above it, nothing lost.
        let effects = openPalette(&state, search: "\(TypedCommand.world.rawValue) \(name) \(scenario)")
        if var palette = state.overlay?.as(CommandPalette.self) {
            palette.pin("World \(name) not made: \(failure.message)")
            state.overlay = .palette(palette)
        }
        return effects
    case .worldEntered(_, .success(let entered)):
        state.console.switching = nil
        state.options.world = entered.name
        state.options.backendURL = state.options.backendURL.map { url in
            let server = WorldNames.serverURL(of: url)
            return entered.name.map { WorldNames.baseURL(server, world: $0) } ?? server
        }
        // The new world's scenario, epoch, clock and faults come with the next look at its admin state.
        state.console.epoch = nil
        state.console.scenario = nil
        state.console.worlds = nil
        let title = entered.name ?? WorldNames.defaultWorld
        let toast = entered.problem.map { "World: \(title) (signed out: \($0))" } ?? "World: \(title)"
        return land(signedIn: entered.signedIn, toast: toast, in: &state) + watchAdmin(&state)
    case .clockMoved(_, .failure(let failure)):
        return apply([.showToast("Clock not moved: \(failure.message)")], to: &state, for: nil)
    case .clockMoved(let move, .success(let advanced)):
        let moved = advanced.now.timeIntervalSince(advanced.from)
        // The strip says this app's own move with its answer (issue 48 item 19), not up to `AdminWatch.interval`
        // later with the next look; a look sent before the move could still bring the old offset back, so it is
        // forgotten (the next one goes out on time).
        state.console.clockOffset += moved
        if case .frozen(let frozen) = move { state.console.clockFrozen = frozen }
        state.forget(Endpoint.AdminState.self, for: .console)
        let toast: String
        switch move {
        case .frozen(let frozen): toast = frozen ? "Clock frozen" : "Clock running"
        case .toNextDeadline: toast = "Clock +\(ClockMove.duration(moved)): \(DeadlineWords.describe(advanced.events))"
        case .by, .to: toast = "Clock \(move.label): \(DeadlineWords.describe(advanced.events))"
        }
        // Countdowns on screen read the clock now; the screen gets its tick at once, not a second later.
        let context = state.context
        let commands = state.top.update { $0.tick(context) }
        return apply(commands, to: &state, for: .screen(depth: state.stack.count - 1))
            + apply([.showToast(toast)], to: &state, for: nil)
    case .faultsChanged(_, .failure(let failure)):
        return apply([.showToast("Faults not changed: \(failure.message)")], to: &state, for: nil)
    case .faultsChanged(let label, .success(let faults)):
        state.console.faults = faults
        return apply([.showToast(label)], to: &state, for: nil)
    case .otherDeviceSignedIn(let device, .success):
        return apply(
            [.showToast("\(device.name) signed in. Reload Active sessions (r) to see it.")], to: &state, for: nil)
    case .otherDeviceSignedIn(let device, .failure(let failure)):
        return apply([.showToast("\(device.name) not signed in: \(failure.message)")], to: &state, for: nil)
    case .authenticatorCode(.success(let code)):
        // Longer than a toast's usual 3 s: long enough to read six digits and type them.
        state.toast = Toast(code.toastText, shownAt: state.now, duration: AuthenticatorCode.toastDuration)
        return [.after(seconds: AuthenticatorCode.toastDuration, action: .toastExpired, id: .toast)]
    case .authenticatorCode(.failure(.server(404, _, _))):
        return apply([.showToast(AuthenticatorCode.noTwoFactorText)], to: &state, for: nil)
    case .authenticatorCode(.failure(let failure)):
        return apply([.showToast("No authenticator code: \(failure.message)")], to: &state, for: nil)
    case .signedOutElsewhere(.success):
        return apply([.showToast(SignThisDeviceOutElsewhere.doneText)], to: &state, for: nil)
    case .signedOutElsewhere(.failure(let failure)):
        return apply([.showToast("This device was not signed out: \(failure.message)")], to: &state, for: nil)
    case .devicePasskey(_, .success(let done)):
        return apply([.showToast(done)], to: &state, for: nil)
    case .devicePasskey(let action, .failure(let failure)):
        return apply([.showToast("\(action.notDone): \(failure.message)")], to: &state, for: nil)
    case .arrived(let id, .failure(let failure)):
        let effects = apply([.showToast(StartAt.notStartedText(id, failure))], to: &state, for: nil)
        return effects + StartAt.releaseKeys(in: &state)
    case .arrived(_, .success(let arrival)):
        guard let root = arrival.stack.first else { return StartAt.releaseKeys(in: &state) }
        var commands: [Command] = arrival.methods.map { [.setMethods($0)] } ?? []
        commands += arrival.grant.map { [Command.grantReauth($0)] } ?? []
        commands += [Command.resetStack(root)] + arrival.stack.dropFirst().map { Command.push($0) }
        let landed = apply(commands, to: &state, for: nil)
        var answered: [Effect] = []
        if let code = arrival.stack.last?.as(EnterCodeScreen.self) {
            answered = feedCodeReplies(arrival.codeReplies, toDestination: code.step.destination, in: &state)
        }
        return landed + answered + StartAt.releaseKeys(in: &state)
    case .presetDone(let preset, let result):
        return receivePreset(preset, result, in: &state)
    }
}

/// The app's start in the world it went over to (a scenario switch, another world): signed in as QA there or
/// signed out, on the root screen, with `toast`. `dataUnanswered`: signed in, but the new world's data found
/// no answer; its first screen all the same, with nothing of the old world's, under the offline banner, whose
/// probe (the session check) fetches the data once the backend answers.
private func land(
    signedIn: QASignedIn?, dataUnanswered: Bool = false, toast: String, in state: inout AppState
) -> [Effect] {
    // Everything shown belonged to the old world: cached data, a re-auth window, the offline banner, and every
    // answer still to come to what its screens or the probe asked (issue 48 item 1).
    state.forgetTheOldWorld()
    state.reauth = nil
    state.isOffline = false
    if state.banner == .offline { state.banner = nil }
    var effects: [Effect] = []
    let root =
        dataUnanswered
        ? AppRoutes.signedIn(profile: nil)
        : signedIn.map { AppRoutes.signedIn(profile: $0.profile) } ?? AppRoutes.signedOut
    if let methods = signedIn?.methods {
        effects += apply([.setMethods(methods)], to: &state, for: nil)
    } else {
        state.methods = nil
        state.methodsFetchedAt = nil
    }
    return effects
        + apply(
            [.setProfile(signedIn?.profile), .resetStack(root), .showToast(toast)]
                + (dataUnanswered ? [.setOffline(true)] : []),
            to: &state, for: nil)
}

/// Issue 33: from here until the answer the old world is gone, as in a scenario switch. A look at the old
/// world's admin state still under way is forgotten: its epoch is not the new world's.
func beginWorldSwitch(_ request: EnterWorld, in state: inout AppState) -> [Effect] {
    state.console.switching = "world \(request.name ?? WorldNames.defaultWorld)"
    state.forget(Endpoint.AdminState.self, for: .console)
    return state.send(Call(request) { ConsoleReply.worldEntered(request, $0) }, for: .console)
}

// MARK: - The palette

/// Opens the palette (on a search, as the journal's "fault it" does); the reference backend's
/// scenarios are asked for the first time.
func openPalette(_ state: inout AppState, search: String? = nil) -> [Effect] {
    var palette = CommandPalette(commands: CommandPalette.commands(for: state))
    if let search { palette.search(search) }
    state.forgetOverlayCalls()
    state.overlay = .palette(palette)
    guard state.options.hasReferenceBackend else { return [] }
    var effects: [Effect] = []
    if state.console.scenarios == nil, !state.awaits(Endpoint.AdminListScenarios.self, for: .console) {
        effects += state.send(Call(Endpoint.AdminListScenarios(), ConsoleReply.scenarios), for: .console)
    }
    // Asked at each opening: another tool may have made or deleted one.
    if !state.awaits(Endpoint.AdminListWorlds.self, for: .console) {
        effects += state.send(Call(Endpoint.AdminListWorlds(), ConsoleReply.worlds), for: .console)
    }
    return effects
}

/// Carries out the command chosen in the palette (which is closed by now).
func runPaletteAction(_ action: PaletteAction, in state: inout AppState) -> [Effect] {
    switch action {
    case .key(let key):
        return reduce(&state, .input(.key(key)))
    case .showState(let id):
        return apply([.push(AnyScreen(PreviewScreen(entryID: id)))], to: &state, for: nil)
    case .switchScenario(let name):
        return reduceConsole(&state, .switchScenario(name))
    case .moveClock(let move):
        return reduceConsole(&state, .moveClock(move))
    case .switchWorld(let name):
        return beginWorldSwitch(EnterWorld(name: name), in: &state)
    case .newWorld(let name, let scenario):
        return beginWorldSwitch(EnterWorld(name: name, newFrom: scenario), in: &state)
    case .setFaults(let faults, let label):
        return state.send(Call(ChangeFaults(faults: faults)) { ConsoleReply.faultsChanged(label, $0) }, for: .console)
    case .signInOtherDevice(let device):
        return state.send(
            Call(SignInOtherDevice(device: device)) { ConsoleReply.otherDeviceSignedIn(device, $0) }, for: .console)
    case .authenticatorCode:
        return state.send(Call(LoadAuthenticatorCode(), ConsoleReply.authenticatorCode), for: .console)
    case .timeline(let user):
        return apply([.showOverlay(TimelinePanel(user: user))], to: &state, for: nil)
    case .signOutThisDeviceElsewhere:
        return state.send(Call(SignThisDeviceOutElsewhere(), ConsoleReply.signedOutElsewhere), for: .console)
    case .devicePasskey(let action):
        return state.send(
            Call(ActOnThisDevicesPasskey(action: action)) { ConsoleReply.devicePasskey(action, $0) }, for: .console)
    case .runConformance:
        let target = ConformPanel.target(
            baseURL: state.options.backendURL ?? "", world: state.options.world,
            isReference: state.options.hasReferenceBackend)
        return apply([.showOverlay(ConformPanel(target: target))], to: &state, for: nil)
    case .clearFaults:
        return state.send(
            Call(ChangeFaults(faults: nil)) { ConsoleReply.faultsChanged("Faults cleared", $0) }, for: .console)
    case .theme(let name):
        return apply(
            [.setLooks(theme: name, ascii: state.options.ascii), .showToast("Theme: \(name.rawValue)")], to: &state,
            for: nil)
    case .platform(let platform):
        state.options.platform = platform
        return apply([.showToast("Platform: \(platform == .ios ? "iOS" : "Android")")], to: &state, for: nil)
    case .ascii(let on):
        return apply(
            [.setLooks(theme: state.options.theme, ascii: on), .showToast(on ? "ASCII on" : "ASCII off")], to: &state,
            for: nil)
    case .export(let format):
        return [.export(format)]
    case .saveBugReport:
        return [.saveBugReport]
    case .showJournal(let words):
        return state.show(.journal(JournalPanel(filter: words)))
    case .preset(let preset):
        return runPreset(preset, in: &state)
    case .none, .typed:
        return []
    }
}
