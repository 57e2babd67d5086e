import AccessAPI
import Foundation

/// While offline the app asks the backend, by itself, whether it is back: 1 s after the banner went up,
/// then after 2, 4, 8… seconds, never more than 30 apart, on the app clock (an `.after` timer). The first
/// answer that is not a 5xx clears the banner (`deliver`); `r` asks at once (AppKeymap).
public enum Probe {
    public static let firstWait: TimeInterval = 1
    public static let longestWait: TimeInterval = 30

    public static func wait(after previous: TimeInterval) -> TimeInterval { min(previous * 2, longestWait) }
}

/// Signed in, the probe is the session check (`GET /auth/me`: the saved data is refreshed, and a session
/// the backend ended while the app was offline ends here too); signed out, `GET /health`.
struct ProbeBackend: APIRequest {
    var signedIn: Bool

    enum Answer: Equatable, Sendable {
        case me(CurrentUser)
        case health
    }

    func perform(_ api: APIContext) async throws -> Answer {
        if signedIn { return .me(try await api.client.me(cache: api.cache, now: api.now)) }
        _ = try await api.client.health()
        return .health
    }
}

enum ProbeReply: Equatable, Sendable {
    case answer(Result<ProbeBackend.Answer, APIError>)
}

extension AppState {
    /// The banner went up: the first probe in a second.
    mutating func startProbing() -> [Effect] {
        probeWait = Probe.firstWait
        return [.after(seconds: Probe.firstWait, action: .probe, id: .probe)]
    }

    /// The backend answered: no banner, no probe.
    mutating func backOnline() -> [Effect] {
        let wasOffline = isOffline
        isOffline = false
        if banner == .offline { banner = nil }
        guard wasOffline else { return [] }
        probeWait = nil
        return [.cancel(.probe)]
    }
}

/// Asks now, unless the app is online or a probe is already on its way.
func probeNow(_ state: inout AppState) -> [Effect] {
    guard state.isOffline, !state.awaits(ProbeBackend.self, for: .app) else { return [] }
    // A switch under way signs in to the new world: a probe now would ask with the old world's session. The
    // switch's answer decides the banner; the probe comes back after it if the banner stays.
    if state.console.switching != nil {
        return [.after(seconds: state.probeWait ?? Probe.firstWait, action: .probe, id: .probe)]
    }
    let signedIn = !AppRoutes.isSignedOut(state.stack[0])
    return state.send(Call(ProbeBackend(signedIn: signedIn), ProbeReply.answer), for: .app)
}

/// The probe's answer (the banner is already cleared or kept by `deliver`): still no answer, the next
/// try waits twice as long; the session check's answer refreshes what is shown.
func receiveProbe(_ reply: ProbeReply, in state: inout AppState) -> [Command] {
    // A start that found no backend and nothing saved checks the stored session now.
    if case .answer(.success) = reply, state.stack.count == 1,
        state.top.as(SessionCheckScreen.self)?.unreachable == true
    {
        return [.resetStack(SessionCheckScreen())]
    }
    switch reply {
    case .answer(.success(.me(let me))):
        return [.setMethods(me.authMethods), .setProfile(me.profile)]
    // A 5xx is the server failing, not back (issue 48 item 2): the probe and the calls agree on it.
    case .answer(.failure(let failure)) where failure.gotNoAnswer || failure.isServerError:
        let wait = Probe.wait(after: state.probeWait ?? Probe.firstWait)
        state.probeWait = wait
        return [.run(.after(seconds: wait, action: .probe, id: .probe))]
    case .answer:
        return []
    }
}
