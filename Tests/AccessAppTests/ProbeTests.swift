import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

extension AppState {
    /// The probe (Reduce+Probe) is on its way as request `id`, the app itself waiting for it.
    mutating func probing(_ id: Int) {
        pending[RequestID(id)] = waiting(.app, ProbeBackend.self, ProbeReply.answer)
        nextRequestID = id + 1
    }
}

/// Issue 27: while offline the app asks by itself whether the backend is back, 1 s after the banner
/// went up, then 2, 4, 8, 16 and at most 30 s apart, on the app clock; the first answer clears the
/// banner; `r` asks at once.
@Suite struct ProbeTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A start on saved data whose session check got no answer: Settings under the banner, the first
    /// probe set (and the check's clock tick, due at the same second: received here so each test's
    /// first probe is the next thing a clock move delivers).
    func offlineOnSettings() -> ReducerHarness {
        var state = AppState(root: SessionCheckScreen(), now: now)
        state.methods = SampleData.everyMethod
        state.methodsFetchedAt = now - 60
        let harness = ReducerHarness(state.topWaiting(CheckSession.self, SessionCheckScreen.Reply.me))
        harness.send(.failure(.offline(reason: "connection refused")), effects: [.firstProbe]) {
            $0.answered()
            $0.wentOffline()
            $0.stack = [AnyScreen(SettingsScreen())]
        }
        return harness
    }

    @Test func theProbeBacksOffFromOneSecondToThirtyThenClearsTheBannerWhenTheBackendAnswers() {
        let harness = offlineOnSettings()
        var id = 1
        var wait = Probe.firstWait
        var waits: [TimeInterval] = []
        for _ in 0..<7 {
            // Not a moment early.
            harness.advance(by: wait - 0.5)
            harness.advance(by: 0.5)
            harness.receive(.probe, effects: [.request(ProbeBackend(signedIn: true), id: id)]) { $0.probing(id) }
            #expect(harness.state.banner == .offline)
            let next = Probe.wait(after: wait)
            harness.send(
                .failure(.offline(reason: "connection refused"), to: RequestID(id)),
                effects: [.after(seconds: next, action: .probe, id: .probe)]
            ) {
                $0.answered(RequestID(id))
                $0.probeWait = next
            }
            waits.append(wait)
            wait = next
            id += 1
        }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30])
        harness.advance(by: wait)
        harness.receive(.probe, effects: [.request(ProbeBackend(signedIn: true), id: id)]) { $0.probing(id) }
        let me = CurrentUser(userId: "usr_athlete", deviceId: "dvc_1", authMethods: SampleData.phoneOnly)
        harness.send(.reply(ProbeBackend.Answer.me(me), to: RequestID(id)), effects: [.cancel(.probe)]) {
            $0.answered(RequestID(id))
            $0.isOffline = false
            $0.banner = nil
            $0.probeWait = nil
            $0.methods = SampleData.phoneOnly
            $0.methodsFetchedAt = harness.now
        }
        #expect(!render(harness.state, size: .standard).text().contains("You're offline"))
    }

    /// Any answer but a 5xx means the backend is there, a refusal included (a 5xx: ServerErrorTests).
    @Test func anAnswerThatIsARefusalStillClearsTheBanner() {
        let harness = offlineOnSettings()
        harness.advance(by: 1)
        harness.receive(.probe, effects: [.request(ProbeBackend(signedIn: true), id: 1)]) { $0.probing(1) }
        let server = APIError.server(status: 404, code: "not_found", message: "Not found.")
        harness.send(.failure(server, to: RequestID(1)), effects: [.cancel(.probe)]) {
            $0.answered(RequestID(1))
            $0.isOffline = false
            $0.banner = nil
            $0.probeWait = nil
        }
    }

    /// Issue 48 item 2: a fault on every call spares the admin API, whose answers (the status strip's poll)
    /// cleared the banner while every call of the app got 503. The console's calls say nothing of the API the
    /// app uses: the banner stays until the probe has an answer.
    @Test func theConsolesAnswersDoNotClearTheBanner() {
        var state = AppState(root: SettingsScreen(), now: now)
        state.methods = SampleData.everyMethod
        state.wentOffline()
        state.pending[.inFlight] = state.waiting(.console, Endpoint.AdminListScenarios.self, ConsoleReply.scenarios)
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.reply([ScenarioSummary](), to: .inFlight))
        #expect(harness.state.isOffline)
        #expect(harness.state.banner == .offline)
    }

    @Test func rProbesAtOnceAndOnlyOnceAtATime() {
        let harness = offlineOnSettings()
        #expect(keymap(for: harness.state).hints.contains { $0.description == "Reconnect" })
        harness.send(
            .input(.key(.character("r"))), effects: [.cancel(.probe), .request(ProbeBackend(signedIn: true), id: 1)]
        ) { $0.probing(1) }
        // Asked already: a second r waits for that answer.
        harness.send(.input(.key(.character("r"))))
        harness.send(
            .failure(.offline(reason: "connection refused"), to: RequestID(1)),
            effects: [.after(seconds: 2, action: .probe, id: .probe)]
        ) {
            $0.answered(RequestID(1))
            $0.probeWait = 2
        }
        harness.expectRunning(.after(seconds: 2, action: .probe, id: .probe))
    }

    /// Signed out (Welcome), the probe asks `/health`: there is no session to check.
    @Test func signedOutTheProbeAsksForHealth() {
        var state = AppState(root: WelcomeScreen(), now: now)
        state.wentOffline()
        let harness = ReducerHarness(state)
        harness.send(.probe, effects: [.request(ProbeBackend(signedIn: false), id: 1)]) { $0.probing(1) }
        harness.send(.reply(ProbeBackend.Answer.health, to: RequestID(1)), effects: [.cancel(.probe)]) {
            $0.answered(RequestID(1))
            $0.isOffline = false
            $0.banner = nil
            $0.probeWait = nil
        }
    }

    /// Online, a probe that was due does nothing; "r" is not bound.
    @Test func onlineThereIsNothingToProbe() {
        let harness = ReducerHarness(AppState(root: SettingsScreen(), now: now))
        harness.send(.probe)
        #expect(!keymap(for: harness.state).hints.contains { $0.description == "Reconnect" })
    }
}
