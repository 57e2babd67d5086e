import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 48 item 2: with `fault 503 every`, `r` on the hub put up the offline banner for under a second, then the
/// probe counted the 503 as "back" and left stale data with no error and no retry. A 5xx is the server answering
/// with an error (seed 004: show it and offer retry): never the offline banner, never "back" for the probe, and
/// said in one wording (`OnScreenMessage.serverError`) where the call was made.
@Suite struct ServerErrorTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let unavailable = APIError.server(
        status: 503, code: "offline", message: OnScreenMessage.serverError.text)

    @Test func aFiveHundredOnTheHubSaysTheServerErrorWithRetryAndNotOffline() {
        var state = SampleData.state([], now: now)
        state.stack[state.stack.count - 1] = AnyScreen(HubScreen(isLoading: true))
        state = state.topWaiting(LoadAuthMethods.self, HubScreen.Reply.methods)
        let harness = ReducerHarness(state)
        harness.send(.failure(Self.unavailable)) {
            $0.answered()
            $0.top = AnyScreen(HubScreen(loadError: OnScreenMessage.serverError.text))
        }
        #expect(!harness.state.isOffline)
        #expect(harness.state.banner == nil)
        let screen = render(harness.state, size: .standard).text()
        #expect(screen.contains(OnScreenMessage.serverError.text))
        #expect(!screen.contains("offline"))
        // The way to try again is on screen, and it asks again.
        #expect(keymap(for: harness.state).hints.contains { $0.description == "Reload" })
        harness.send(.input(.key(.character("r"))), effects: [.request(LoadAuthMethods(), id: 1)]) {
            $0.top = AnyScreen(HubScreen(isLoading: true, loadError: OnScreenMessage.serverError.text))
            $0.topAwaits(1, LoadAuthMethods.self)
        }
    }

    /// Offline (the backend refused), the probe then gets a 503: the server is there but failing, so the banner
    /// stays and the probe asks again later, as for no answer.
    @Test func aFiveHundredToTheProbeIsNotBack() {
        var state = AppState(root: SettingsScreen(), now: now)
        state.methods = SampleData.everyMethod
        state.wentOffline()
        let harness = ReducerHarness(state)
        harness.send(.probe, effects: [.request(ProbeBackend(signedIn: true), id: 1)]) { $0.probing(1) }
        harness.send(
            .failure(Self.unavailable, to: RequestID(1)),
            effects: [.after(seconds: Probe.wait(after: Probe.firstWait), action: .probe, id: .probe)]
        ) {
            $0.answered(RequestID(1))
            $0.probeWait = Probe.wait(after: Probe.firstWait)
        }
        #expect(harness.state.isOffline)
        #expect(harness.state.banner == .offline)
        harness.expectRunning(.after(seconds: Probe.wait(after: Probe.firstWait), action: .probe, id: .probe))
    }

    /// A screen's own call that gets a 5xx while the banner is up does not take it down either.
    @Test func aFiveHundredToACallLeavesTheBannerAsItIs() {
        var state = SampleData.state([], now: now)
        state.stack[state.stack.count - 1] = AnyScreen(HubScreen(isLoading: true))
        state = state.topWaiting(LoadAuthMethods.self, HubScreen.Reply.methods)
        state.wentOffline()
        let harness = ReducerHarness(state)
        harness.send(.failure(Self.unavailable)) {
            $0.answered()
            $0.top = AnyScreen(HubScreen(loadError: OnScreenMessage.serverError.text))
        }
        #expect(harness.state.isOffline)
        #expect(harness.state.banner == .offline)
    }
}
