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
    let harness = ReducerHarness(state, exhaustivity: .off)
    let effects = harness.send(.watchAdmin)
    #expect(
        effects == [
            .request(Endpoint.AdminState(), id: 1),
            .after(seconds: AdminWatch.interval, action: .watchAdmin, id: .adminWatch),
        ])
    harness.send(.reply(admin(epoch: epoch), to: RequestID(1)))
    return harness.state
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
        let harness = ReducerHarness(watchedHub(), exhaustivity: .off)
        harness.send(.watchAdmin)
        harness.send(.reply(admin(faults: FaultSettings(latencyMs: 2000)), to: RequestID(2)))
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario default · faults: +2000 ms on every call")
        let lines = text(harness.state).split(separator: "\n", omittingEmptySubsequences: false)
        // Above the footer.
        #expect(lines[lines.count - 2].contains("faults: +2000 ms on every call"))
        harness.send(.watchAdmin)
        harness.send(.reply(admin(faults: FaultSettings(latencyMs: 0)), to: RequestID(3)))
        #expect(StatusStrip.text(harness.state, width: 78) == nil)
    }

    @Test func theClockMovedOrFrozenAndAnotherBackendShow() {
        let harness = ReducerHarness(watchedHub(), exhaustivity: .off)
        harness.send(.watchAdmin)
        harness.send(.reply(admin(scenario: "coach", offset: 300), to: RequestID(2)))
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario coach · clock +5 min")
        harness.send(.watchAdmin)
        harness.send(.reply(admin(scenario: "coach", frozen: true, offset: 300), to: RequestID(3)))
        // Issue 48 item 19: frozen, the offset is still said.
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario coach · clock frozen +5 min")
        // The same admin state, as an app started on another backend shows it.
        var elsewhere = harness.state
        elsewhere.options.backendIsEmbedded = false
        elsewhere.options.backendURL = "http://127.0.0.1:8080"
        #expect(
            StatusStrip.text(elsewhere, width: 78)
                == "scenario coach · clock frozen +5 min · backend http://127.0.0.1:8080")
        // Issue 48 item 19: a long move reads in days, not "+796 h".
        harness.send(.watchAdmin)
        harness.send(.reply(admin(scenario: "coach", offset: 796 * 3600), to: RequestID(4)))
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario coach · clock +33 d 4 h")
    }

    /// Issue 48 item 19: the palette's own clock move shows on the strip with its answer, not up to 2 s later
    /// with the next look; a look sent before the move and answered after it does not put the old offset back.
    @Test func thePalettesOwnClockMoveShowsAtOnce() {
        let harness = ReducerHarness(watchedHub(), exhaustivity: .off)
        harness.send(.watchAdmin)  // a look in flight (request 2) as the move goes out
        harness.send(.moveClock(.by(seconds: 300)))
        harness.send(.reply(ClockAdvanced(from: start, now: start + 300, events: []), to: RequestID(3)))
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario default · clock +5 min")
        #expect(harness.send(.reply(admin(offset: 0), to: RequestID(2))) == [])
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario default · clock +5 min")
        // The next look sends again: the forgotten one does not hold it back.
        #expect(harness.send(.watchAdmin).contains(.request(Endpoint.AdminState(), id: 4)))
        harness.send(.moveClock(.frozen(true)))
        harness.send(.reply(ClockAdvanced(from: start + 300, now: start + 300, events: []), to: RequestID(5)))
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario default · clock frozen +5 min")
        harness.send(.moveClock(.by(seconds: 2 * 86_400)))
        harness.send(
            .reply(ClockAdvanced(from: start + 300, now: start + 300 + 2 * 86_400, events: []), to: RequestID(6)))
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario default · clock frozen +2 d")
        harness.send(.moveClock(.frozen(false)))
        harness.send(.reply(ClockAdvanced(from: start, now: start, events: []), to: RequestID(7)))
        #expect(StatusStrip.text(harness.state, width: 78) == "scenario default · clock +2 d")
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
        let foreignHarness = ReducerHarness(
            AppState(now: start, options: AppOptions(hasReferenceBackend: false)), exhaustivity: .off)
        #expect(foreignHarness.send(.watchAdmin) == [])
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.watchAdmin)
        // The first look has not answered: only the next one is scheduled.
        #expect(
            harness.send(.watchAdmin) == [.after(seconds: AdminWatch.interval, action: .watchAdmin, id: .adminWatch)])
    }

    @Test func aSwitchUnderWayIsShownAndTheOldScreensTakeNoKeys() {
        let harness = ReducerHarness(watchedHub(), exhaustivity: .off)
        harness.send(.switchScenario("phone-only"))
        #expect(harness.state.console.switching == "phone-only")
        #expect(text(harness.state).contains("Switching to phone-only…"))
        // Enter on the old hub would open "New phone number" in the old world.
        #expect(harness.send(.input(.key(.enter))) == [])
        #expect(harness.send(.input(.key(.control("p")))) == [])
        #expect(harness.state.stack.map(\.id) == ["settings", "hub"])
        #expect(harness.state.overlay == nil)
        // A look at the admin state meanwhile starts nothing: the switch is this app's own.
        #expect(
            harness.send(.watchAdmin) == [.after(seconds: AdminWatch.interval, action: .watchAdmin, id: .adminWatch)])
        harness.send(
            .reply(
                ScenarioSwitched(
                    name: "phone-only", signedIn: QASignedIn(methods: SampleData.phoneOnly, profile: nil), epoch: 2),
                to: RequestID(2)))
        #expect(harness.state.console.switching == nil)
        #expect(harness.state.console.epoch == 2)
        #expect(harness.state.stack.map(\.id) == ["settings"])
        #expect(harness.state.toast?.message == "Scenario: phone-only")
        // A look sent before the switch, answered after it, is old news, not another tool.
        harness.send(.watchAdmin)
        #expect(harness.send(.reply(admin(epoch: 1), to: RequestID(3))) == [])
        #expect(harness.state.console.switching == nil)
    }

    @Test func aResetByAnotherToolIsSaidAndLandsOnTheNewWorldNotOnSessionExpired() {
        let harness = ReducerHarness(watchedHub(), exhaustivity: .off)
        // A call of the old hub, still in flight when the world is reset.
        #expect(harness.send(.input(.key(.character("r")))).contains(.request(LoadAuthMethods(), id: 2)))
        harness.send(.watchAdmin)
        let effects = harness.send(.reply(admin(scenario: "coach", epoch: 2), to: RequestID(3)))
        #expect(effects == [.request(SwitchScenario(name: "coach", alreadyLoaded: true), id: 4)])
        #expect(harness.state.console.switching == "coach")
        #expect(text(harness.state).contains("Switching to coach…"))
        // The old session is gone with the old world: the old hub's call is answered 401 meanwhile.
        harness.send(.failure(.signedOut, to: RequestID(2)))
        #expect(harness.state.stack.map(\.id) == ["settings", "hub"])
        harness.send(
            .reply(
                ScenarioSwitched(name: "coach", signedIn: QASignedIn(methods: SampleData.appleOnly, profile: nil)),
                to: RequestID(4)))
        #expect(harness.state.stack.map(\.id) == ["settings"])
        #expect(harness.state.toast?.message == "Scenario reset by another tool: coach")
        #expect(harness.state.console.scenario == "coach")
        #expect(harness.state.methods == SampleData.appleOnly)
    }

    @Test func theHubShowsAReloadUnderWay() {
        let harness = ReducerHarness(SampleData.state([], now: start), exhaustivity: .off)
        harness.send(.input(.key(.character("r"))))
        #expect(text(harness.state).contains("Refreshing…"))
        harness.send(.reply(SampleData.everyMethod, to: RequestID(1)))
        #expect(!text(harness.state).contains("Refreshing…"))
    }
}
