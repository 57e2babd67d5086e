import AccessAPI
import Foundation
import TerminalKit

/// How far QA moves the reference backend's clock (the palette's "Clock" commands, a tape's `clock`).
public enum ClockMove: Equatable, Sendable {
    case by(seconds: TimeInterval)
    case toNextDeadline

    /// The palette's choices, in order.
    public static let presets: [ClockMove] = [
        .by(seconds: 30), .by(seconds: 5 * 60), .by(seconds: 15 * 60), .by(seconds: 24 * 3600), .toNextDeadline,
    ]

    public var label: String {
        switch self {
        case .toNextDeadline: return "to the next deadline"
        case .by(let seconds): return "+" + Self.duration(seconds)
        }
    }

    /// "30 s", "5 min", "24 h", "1 h 30 min".
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s" }
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
    }
}

/// The QA console beside the screens: what it knows of the reference backend (its scenarios, the scenario
/// in use, the faults it reported) and the console's requests in flight, which belong to no screen.
public struct ConsoleState: Equatable, Sendable {
    /// The reference backend's scenarios, loaded the first time the palette opens.
    public var scenarios: [ScenarioSummary]?
    /// The scenario the app started on or last switched to (nil: not known, e.g. `--backend`).
    public var scenario: String?
    /// The faults as the backend last reported them after a change from here.
    public var faults: FaultSettings?
    /// Endpoints the app called lately (from the journal), newest first: the palette offers faults for them.
    public var endpoints: [String] = []
    var awaiting: [RequestID: Pending] = [:]

    static let endpointLimit = 8

    /// Paths from the journal, newest first; the admin API is never faulted.
    mutating func noteEndpoints(_ paths: [String]) {
        var seen: [String] = []
        for path in paths where !path.hasPrefix("/_admin") && !seen.contains(path) {
            seen.append(path)
            if seen.count == Self.endpointLimit { break }
        }
        endpoints = seen
    }

    enum Pending: Equatable, Sendable {
        case scenarios
        case switchScenario(String)
        case clock(ClockMove)
        case faults(String)
    }

    public init(scenario: String? = nil) { self.scenario = scenario }

    /// A short description of the faults on, for the palette and the toast; nil when there are none.
    public var faultSummary: String? { faults.flatMap(Self.describe) }

    static func describe(_ faults: FaultSettings) -> String? {
        var parts: [String] = []
        switch faults.offline {
        case "refused": parts.append("connection refused")
        case "503": parts.append("every call answers 503")
        case "drop": parts.append("connections dropped")
        default: break
        }
        if let latency = faults.latencyMs, latency > 0 { parts.append("+\(latency) ms on every call") }
        for fault in faults.endpoints ?? [] {
            let target = fault.path == "*" ? "every call" : fault.path
            parts.append(
                "\(FaultChoice.label(fault.kind, latency: fault.latencyMs, status: fault.status)) on \(target)")
        }
        for fault in faults.statuses ?? [] { parts.append("\(fault.status) on \(fault.path)") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

/// The faults the palette offers: every kind the reference backend knows, for every call or one path.
public struct FaultChoice: Equatable, Sendable {
    public var kind: Components.Schemas.EndpointFault.KindPayload
    public var latencyMs: Int?
    public var status: Int?

    public static let all: [FaultChoice] = [
        FaultChoice(kind: .unavailable), FaultChoice(kind: .offline), FaultChoice(kind: .latency, latencyMs: 2000),
        FaultChoice(kind: .timeout), FaultChoice(kind: .commitThenFail), FaultChoice(kind: .status, status: 429),
        FaultChoice(kind: .status, status: 500),
    ]

    public var label: String { Self.label(kind, latency: latencyMs, status: status) }

    static func label(_ kind: Components.Schemas.EndpointFault.KindPayload, latency: Int?, status: Int?) -> String {
        switch kind {
        case .unavailable: return "503 unavailable"
        case .offline: return "connection dropped"
        case .latency: return "\(ClockMove.duration(Double(latency ?? 0) / 1000)) latency"
        case .timeout: return "no answer (timeout)"
        case .commitThenFail: return "commit then fail"
        case .status: return "status \(status ?? 0)"
        }
    }

    func fault(on path: String) -> Components.Schemas.EndpointFault {
        .init(path: path, kind: kind, latencyMs: latencyMs, status: status)
    }
}

// MARK: - Requests

/// The reference backend's scenarios with their one-line descriptions.
struct LoadScenarios: APIRequest {
    func perform(_ api: APIContext) async throws -> [ScenarioSummary] { try await api.client.adminScenarios() }
}

/// Reloads the reference backend's world from a scenario, then signs in as its user as the app's start
/// does (a scenario that starts signed out leaves the app signed out: the old session went with the old
/// database either way).
struct SwitchScenario: APIRequest {
    let name: String

    func perform(_ api: APIContext) async throws -> ScenarioSwitched {
        _ = try await api.client.adminLoadScenario(name)
        api.cache?.clear()
        do {
            try await api.client.adminSignIn()
        } catch APIError.server(409, ErrorCode.signedOutScenario.rawValue, _) {
            await api.client.signOutLocally()
            return ScenarioSwitched(name: name, signedIn: nil)
        }
        let methods = try await api.client.authMethods(cache: api.cache, now: api.now)
        return ScenarioSwitched(
            name: name, signedIn: QASignedIn(methods: methods, profile: await QASignedIn.profile(api.client)))
    }
}

struct ScenarioSwitched: Equatable, Sendable {
    var name: String
    /// nil: the scenario starts signed out.
    var signedIn: QASignedIn?
}

/// Moves the reference backend's clock; the reply lists what fell due on the way.
struct MoveClock: APIRequest {
    let move: ClockMove

    func perform(_ api: APIContext) async throws -> ClockAdvanced {
        switch move {
        case .by(let seconds): return try await api.client.adminAdvanceClock(seconds: seconds)
        case .toNextDeadline: return try await api.client.adminAdvanceClockToNextDeadline()
        }
    }
}

/// Sets faults (only the members given) or, with `nil`, clears them all.
struct ChangeFaults: APIRequest {
    let faults: FaultSettings?

    func perform(_ api: APIContext) async throws -> FaultSettings {
        guard let faults else {
            // A refusal closes the port the admin API is on; the embedded backend is ended in process.
            await api.embedded?.endRefusal()
            return try await api.client.adminClearFaults()
        }
        return try await api.client.adminSetFaults(faults)
    }
}

// MARK: - Reducing

/// What a clock move fired, in words: "code expired, re-auth window closed". Several of a kind count once.
enum DeadlineWords {
    static func describe(_ events: [DeadlineEvent]) -> String {
        var seen: [String] = []
        for event in events {
            let words = phrase(event.kind)
            if !seen.contains(words) { seen.append(words) }
        }
        return seen.isEmpty ? "nothing fell due" : seen.joined(separator: ", ")
    }

    static func phrase(_ kind: String) -> String {
        switch kind {
        case "otp_expired": return "code expired"
        case "resend_cooldown_over": return "resend allowed again"
        case "resend_slot_freed": return "a resend freed"
        case "daily_slot_freed": return "a daily send freed"
        case "password_slot_freed": return "a password try freed"
        case "reauth_expired": return "re-auth window closed"
        case "link_expired": return "link expired"
        case "access_token_expired": return "access token expired"
        case "refresh_token_expired": return "session expired"
        case "account_purged": return "account purged"
        case "identity_hold_released": return "phone/email released"
        case "payout_hold_released": return "payout released"
        case "automatic_payout": return "payout paid"
        case "scheduled_item_started": return "a session started"
        default: return kind.replacingOccurrences(of: "_", with: " ")
        }
    }
}

extension AppState {
    /// Sends a console request; its reply comes back to `receiveConsole`.
    mutating func consoleRequest(_ request: some APIRequest, _ pending: ConsoleState.Pending) -> [Effect] {
        let id = RequestID(nextRequestID)
        nextRequestID += 1
        console.awaiting[id] = pending
        return [.request(AnyRequest(request), id: id)]
    }
}

/// The console's own actions: a scenario switch and a clock move (from the palette or a tape).
func reduceConsole(_ state: inout AppState, _ action: Action) -> [Effect] {
    switch action {
    case .switchScenario(let name):
        return state.consoleRequest(SwitchScenario(name: name), .switchScenario(name))
    case .moveClock(let move):
        return state.consoleRequest(MoveClock(move: move), .clock(move))
    default:
        return []
    }
}

/// A reply to a console request; false when the id is not the console's.
func receiveConsole(
    _ result: Result<AnyValue, APIError>, for id: RequestID, in state: inout AppState, effects: inout [Effect]
) -> Bool {
    guard let pending = state.console.awaiting.removeValue(forKey: id) else { return false }
    switch pending {
    case .scenarios:
        if let scenarios = result.reply([ScenarioSummary].self) {
            state.console.scenarios = scenarios
            if case .palette(var palette) = state.overlay {
                palette.refresh(CommandPalette.commands(for: state))
                state.overlay = .palette(palette)
            }
        }
    case .switchScenario(let name):
        guard let switched = result.reply(ScenarioSwitched.self) else {
            effects += apply([.showToast("Scenario \(name) not loaded: \(failureText(result))")], to: &state, from: nil)
            break
        }
        state.console.scenario = name
        // Everything shown belonged to the old world: cached data, a re-auth window, the offline banner.
        state.reauth = nil
        state.isOffline = false
        if state.banner == .offline { state.banner = nil }
        let root: any ScreenModel = switched.signedIn.map { Onboarding.screen(for: $0.profile) } ?? WelcomeScreen()
        if let methods = switched.signedIn?.methods {
            effects += apply([.setMethods(methods)], to: &state, from: nil)
        } else {
            state.methods = nil
            state.methodsFetchedAt = nil
        }
        effects += apply(
            [.setProfile(switched.signedIn?.profile), .resetStack(AnyScreen(root)), .showToast("Scenario: \(name)")],
            to: &state, from: nil)
    case .clock(let move):
        guard let advanced = result.reply(ClockAdvanced.self) else {
            effects += apply([.showToast("Clock not moved: \(failureText(result))")], to: &state, from: nil)
            break
        }
        let moved = advanced.now.timeIntervalSince(advanced.from)
        let label = move == .toNextDeadline ? "+" + ClockMove.duration(moved) : move.label
        // Countdowns on screen read the clock now; the screen gets its tick at once, not a second later.
        let context = state.context
        let commands = state.top.update { $0.tick(context) }
        effects += apply(commands, to: &state, from: state.stack.count - 1)
        effects += apply(
            [.showToast("Clock \(label): \(DeadlineWords.describe(advanced.events))")], to: &state, from: nil)
    case .faults(let label):
        guard let faults = result.reply(FaultSettings.self) else {
            effects += apply([.showToast("Faults not changed: \(failureText(result))")], to: &state, from: nil)
            break
        }
        state.console.faults = faults
        effects += apply([.showToast(label)], to: &state, from: nil)
    }
    return true
}

private func failureText(_ result: Result<AnyValue, APIError>) -> String {
    if case .failure(let failure) = result { return failure.message }
    return "unexpected reply"
}

// MARK: - The palette

/// Opens the palette; the reference backend's scenarios are asked for the first time.
func openPalette(_ state: inout AppState) -> [Effect] {
    state.overlay = .palette(CommandPalette(commands: CommandPalette.commands(for: state)))
    guard state.options.hasReferenceBackend, state.console.scenarios == nil,
        !state.console.awaiting.values.contains(.scenarios)
    else { return [] }
    return state.consoleRequest(LoadScenarios(), .scenarios)
}

/// Carries out the command chosen in the palette (which is closed by now).
func runPaletteAction(_ action: PaletteAction, in state: inout AppState) -> [Effect] {
    switch action {
    case .key(let key):
        return reduce(&state, .input(.key(key)))
    case .showState(let id):
        return apply([.push(AnyScreen(PreviewScreen(entryID: id)))], to: &state, from: nil)
    case .switchScenario(let name):
        return reduceConsole(&state, .switchScenario(name))
    case .moveClock(let move):
        return reduceConsole(&state, .moveClock(move))
    case .setFaults(let faults, let label):
        return state.consoleRequest(ChangeFaults(faults: faults), .faults(label))
    case .clearFaults:
        return state.consoleRequest(ChangeFaults(faults: nil), .faults("Faults cleared"))
    case .theme(let name):
        return apply(
            [.setLooks(theme: name, ascii: state.options.ascii), .showToast("Theme: \(name.rawValue)")], to: &state,
            from: nil)
    case .platform(let platform):
        state.options.platform = platform
        return apply([.showToast("Platform: \(platform == .ios ? "iOS" : "Android")")], to: &state, from: nil)
    case .ascii(let on):
        return apply(
            [.setLooks(theme: state.options.theme, ascii: on), .showToast(on ? "ASCII on" : "ASCII off")], to: &state,
            from: nil)
    case .export(let format):
        return [.export(format)]
    case .none:
        return []
    }
}
