import AccessAPI
import AccessAppTesting
import Foundation
import Testing

@testable import AccessApp

/// Issue 48 item 14: `serve` restarted under running apps, and both said "Session expired, please login" with
/// nothing about the restart. On a temporary database the restarted backend's epochs start over, so the app
/// tells a restart by the run of the server the admin state names, goes over to the restarted backend's world
/// as for a reset by another tool, and says it was a restart, whichever it noticed first: the refused session
/// or the admin state.
@Suite struct BackendRestartTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let restartedText = "The backend was restarted: starting over on scenario default"

    func admin(instance: String?, epoch: Int64 = 1) -> AdminState {
        AdminState(
            scenario: "default", epoch: epoch, faults: FaultSettings(), clock: ClockState(now: start, frozen: false),
            clockOffsetSeconds: 0, instance: instance)
    }

    func switchID(_ effects: [Effect]) -> RequestID? {
        effects.lazy.compactMap { effect -> RequestID? in
            guard case .request(let request, let id) = effect, request.base is SwitchScenario else { return nil }
            return id
        }.first
    }

    /// The hub of a `--backend` app whose admin watch has seen run `run-1` at epoch 1.
    func watched() -> ReducerHarness {
        var state = SampleData.state([], now: start)
        state.console.scenario = "default"
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.watchAdmin)
        harness.send(.reply(admin(instance: "run-1"), to: RequestID(1)))
        #expect(harness.state.console.instance == "run-1")
        return harness
    }

    @Test func theSameRunChangesNothing() {
        let harness = watched()
        harness.send(.watchAdmin)
        let effects = harness.send(.reply(admin(instance: "run-1"), to: RequestID(2)))
        #expect(switchID(effects) == nil)
        #expect(harness.state.console.switching == nil)
        #expect(harness.state.stack.map(\.id) == ["settings", "hub"])
    }

    /// The admin state is the first to tell: the epoch is the one the app knew, the run another.
    @Test func anotherRunAtTheSameEpochStartsOverAndSaysTheBackendRestarted() throws {
        let harness = watched()
        harness.send(.watchAdmin)
        let effects = harness.send(.reply(admin(instance: "run-2"), to: RequestID(2)))
        let id = try #require(switchID(effects))
        #expect(effects.contains(.request(SwitchScenario(name: "default", alreadyLoaded: true), id: id.value)))
        #expect(harness.state.console.switching == "default")
        harness.send(
            .reply(
                ScenarioSwitched(
                    name: "default", signedIn: QASignedIn(methods: SampleData.everyMethod, profile: nil)), to: id))
        #expect(harness.state.stack.map(\.id) == ["settings"])
        #expect(harness.state.toast?.message == restartedText)
        #expect(render(harness.state, size: .standard).text().contains(restartedText))
        #expect(harness.state.console.instance == "run-2")
    }

    /// The refused session comes first ("Session expired, please login"); the next look at the admin state
    /// says why, and the app goes over to the restarted backend instead of staying on an expiry.
    @Test func aSessionRefusedByTheRestartedBackendIsNotLeftAsAnExpiry() throws {
        let harness = watched()
        let reload = harness.send(.input(.key(.character("r"))))
        let reloadID = try #require(
            reload.lazy.compactMap { effect -> RequestID? in
                if case .request(_, let id) = effect { return id }
                return nil
            }.first)
        harness.send(.failure(.signedOut, to: reloadID))
        #expect(render(harness.state, size: .standard).text().contains(SignInScreen.sessionExpiredText))
        harness.send(.watchAdmin)
        let adminID = RequestID(reloadID.value + 1)
        let effects = harness.send(.reply(admin(instance: "run-2"), to: adminID))
        let id = try #require(switchID(effects))
        harness.send(
            .reply(
                ScenarioSwitched(
                    name: "default", signedIn: QASignedIn(methods: SampleData.everyMethod, profile: nil)), to: id))
        #expect(harness.state.stack.map(\.id) == ["settings"])
        #expect(harness.state.toast?.message == restartedText)
        #expect(!render(harness.state, size: .standard).text().contains(SignInScreen.sessionExpiredText))
    }

    /// A backend that does not name its run (another implementation of the admin API) is never taken as restarted.
    @Test func aBackendThatDoesNotNameItsRunIsNeverTakenAsRestarted() {
        let harness = watched()
        harness.send(.watchAdmin)
        #expect(switchID(harness.send(.reply(admin(instance: nil), to: RequestID(2)))) == nil)
        #expect(harness.state.console.instance == "run-1")
    }
}
