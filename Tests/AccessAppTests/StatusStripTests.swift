import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

private let start = Date(timeIntervalSince1970: 1_800_000_000)

private func admin(
    scenario: String = "default", epoch: Int64 = 1, faults: FaultSettings = FaultSettings(), frozen: Bool = false,
    offset: Double = 0
) -> AdminState {
    AdminState(
        scenario: scenario, epoch: epoch, faults: faults, clock: ClockState(now: start + offset, frozen: frozen),
        clockOffsetSeconds: offset)
}

private func text(_ state: AppState, size: Size = .standard) -> String { render(state, size: size).text() }

/// The hub, as the embedded backend's app shows it, with the admin watch's first look answered.
private func watchedHub(epoch: Int64 = 1) -> AppState {
    var state = SampleData.state([], now: start)
    state.console.scenario = "default"
    let effects = reduce(&state, .watchAdmin)
    #expect(
        effects == [
            .request(Endpoint.AdminState(), id: 1),
            .after(seconds: AdminWatch.interval, action: .watchAdmin, id: .adminWatch),
        ])
    _ = reduce(&state, .reply(admin(epoch: epoch), to: RequestID(1)))
    return state
}

/// Issue 29 §3: one line says what is not as the app starts; §4: a switch is shown and takes no keys, and
/// another tool's reset is said as such.
@Suite struct StatusStripTests {
    @Test func nothingNotDefaultShowsNoStrip() {
        var state = watchedHub()
        #expect(StatusStrip.text(state, width: 78) == nil)
        #expect(!text(state).contains("scenario"))
        // A scenario chosen at the start is not worth a row a form needs at 80×24: its switch was toasted.
        state.console.scenario = "no-email"
        #expect(StatusStrip.text(state, width: 78) == nil)
    }

    @Test func aFaultFromAnotherToolShowsOnTheNextLookAndGoesWithIt() {
        var state = watchedHub()
        _ = reduce(&state, .watchAdmin)
        _ = reduce(&state, .reply(admin(faults: FaultSettings(latencyMs: 2000)), to: RequestID(2)))
        #expect(StatusStrip.text(state, width: 78) == "scenario default · faults: +2000 ms on every call")
        let lines = text(state).split(separator: "\n", omittingEmptySubsequences: false)
        // Above the footer.
        #expect(lines[lines.count - 2].contains("faults: +2000 ms on every call"))
        _ = reduce(&state, .watchAdmin)
        _ = reduce(&state, .reply(admin(faults: FaultSettings(latencyMs: 0)), to: RequestID(3)))
        #expect(StatusStrip.text(state, width: 78) == nil)
    }

    @Test func theClockMovedOrFrozenAndAnotherBackendShow() {
        var state = watchedHub()
        _ = reduce(&state, .watchAdmin)
        _ = reduce(&state, .reply(admin(scenario: "coach", offset: 300), to: RequestID(2)))
        #expect(StatusStrip.text(state, width: 78) == "scenario coach · clock +5 min")
        _ = reduce(&state, .watchAdmin)
        _ = reduce(&state, .reply(admin(scenario: "coach", frozen: true, offset: 300), to: RequestID(3)))
        #expect(StatusStrip.text(state, width: 78) == "scenario coach · clock frozen")
        state.options.backendIsEmbedded = false
        state.options.backendURL = "http://127.0.0.1:8080"
        #expect(
            StatusStrip.text(state, width: 78)
                == "scenario coach · clock frozen · backend http://127.0.0.1:8080")
    }

    /// Issue 33: the world the app works in (`--world`, or a base URL ending in /w/NAME) is named.
    @Test func theWorldIsNamed() {
        var state = watchedHub()
        state.options.backendIsEmbedded = false
        state.options.backendURL = "http://127.0.0.1:8080/w/alice"
        state.options.world = "alice"
        #expect(
            StatusStrip.text(state, width: 100)
                == "scenario default · world alice · backend http://127.0.0.1:8080/w/alice")
    }

    @Test func itIsCutToTheWidthAndAsciiKeepsToAscii() {
        var state = watchedHub()
        state.console.faults = FaultSettings(latencyMs: 2000)
        #expect(StatusStrip.text(state, width: 20) == "scenario default ·…")
        state.options.ascii = true
        #expect(StatusStrip.text(state, width: 78) == "scenario default | faults: +2000 ms on every call")
        #expect(StatusStrip.text(state, width: 20) == "scenario default...")
    }

    @Test func theWatchLooksOnlyOnAReferenceBackendAndNeverTwiceAtOnce() {
        var foreign = AppState(now: start, options: AppOptions(hasReferenceBackend: false))
        #expect(reduce(&foreign, .watchAdmin) == [])
        var state = AppState(now: start)
        _ = reduce(&state, .watchAdmin)
        // The first look has not answered: only the next one is scheduled.
        #expect(
            reduce(&state, .watchAdmin) == [.after(seconds: AdminWatch.interval, action: .watchAdmin, id: .adminWatch)])
    }

    @Test func aSwitchUnderWayIsShownAndTheOldScreensTakeNoKeys() {
        var state = watchedHub()
        _ = reduce(&state, .switchScenario("phone-only"))
        #expect(state.console.switching == "phone-only")
        #expect(text(state).contains("Switching to phone-only…"))
        // Enter on the old hub would open "New phone number" in the old world.
        #expect(reduce(&state, .input(.key(.enter))) == [])
        #expect(reduce(&state, .input(.key(.control("p")))) == [])
        #expect(state.stack.map(\.id) == ["settings", "hub"])
        #expect(state.overlay == nil)
        // A look at the admin state meanwhile starts nothing: the switch is this app's own.
        #expect(
            reduce(&state, .watchAdmin) == [.after(seconds: AdminWatch.interval, action: .watchAdmin, id: .adminWatch)])
        _ = reduce(
            &state,
            .reply(
                ScenarioSwitched(
                    name: "phone-only", signedIn: QASignedIn(methods: SampleData.phoneOnly, profile: nil), epoch: 2),
                to: RequestID(2)))
        #expect(state.console.switching == nil)
        #expect(state.console.epoch == 2)
        #expect(state.stack.map(\.id) == ["settings"])
        #expect(state.toast?.message == "Scenario: phone-only")
        // A look sent before the switch, answered after it, is old news, not another tool.
        _ = reduce(&state, .watchAdmin)
        #expect(reduce(&state, .reply(admin(epoch: 1), to: RequestID(3))) == [])
        #expect(state.console.switching == nil)
    }

    @Test func aResetByAnotherToolIsSaidAndLandsOnTheNewWorldNotOnSessionExpired() {
        var state = watchedHub()
        _ = reduce(&state, .watchAdmin)
        let effects = reduce(&state, .reply(admin(scenario: "coach", epoch: 2), to: RequestID(2)))
        #expect(effects == [.request(SwitchScenario(name: "coach", alreadyLoaded: true), id: 3)])
        #expect(state.console.switching == "coach")
        #expect(text(state).contains("Switching to coach…"))
        // The old session is gone with the old world: a call of the old hub answered 401 meanwhile.
        state.topAwaits(4, LoadAuthMethods.self)
        _ = reduce(&state, .failure(.signedOut, to: RequestID(4)))
        #expect(state.stack.map(\.id) == ["settings", "hub"])
        _ = reduce(
            &state,
            .reply(
                ScenarioSwitched(name: "coach", signedIn: QASignedIn(methods: SampleData.appleOnly, profile: nil)),
                to: RequestID(3)))
        #expect(state.stack.map(\.id) == ["settings"])
        #expect(state.toast?.message == "Scenario reset by another tool: coach")
        #expect(state.console.scenario == "coach")
        #expect(state.methods == SampleData.appleOnly)
    }

    @Test func theHubShowsAReloadUnderWay() {
        var state = SampleData.state([], now: start)
        _ = reduce(&state, .input(.key(.character("r"))))
        #expect(text(state).contains("Refreshing…"))
        _ = reduce(&state, .reply(SampleData.everyMethod, to: RequestID(1)))
        #expect(!text(state).contains("Refreshing…"))
    }
}
