import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

private let start = Date(timeIntervalSince1970: 1_800_000_000)
private let server = "http://127.0.0.1:8080"

private func palette(_ state: AppState) -> CommandPalette? { state.overlay?.as(CommandPalette.self) }

private let worlds = [
    WorldSummary(name: "default", open: true, kept: false, scenario: "default", epoch: 1, idleSeconds: 0),
    WorldSummary(name: "alice", open: true, kept: false, scenario: "phone-only", epoch: 1, idleSeconds: 5),
]

/// An app on a reference backend at `server`, on a screen above Settings, the palette open with its scenarios
/// (#1, still asked) and worlds (#2, answered) and `typed` in its query: where each test below begins.
private func paletteTyped(_ typed: String) -> AppState {
    var state = AppState(now: start)
    state.options.backendURL = server
    state.stack.append(AnyScreen(HubScreen()))
    let effects = reduce(&state, .input(.key(.control("p"))))
    #expect(effects == [.request(Endpoint.AdminListScenarios(), id: 1), .request(Endpoint.AdminListWorlds(), id: 2)])
    _ = reduce(&state, .reply(worlds, to: RequestID(2)))
    for character in typed { _ = reduce(&state, .input(.key(.character(character)))) }
    return state
}

/// The palette as the app opens it again on `search`, with `notice` pinned above it.
private func reopened(_ state: AppState, search: String, notice: String) -> AnyOverlay {
    var palette = CommandPalette(commands: CommandPalette.commands(for: state))
    palette.search(search)
    palette.pin(notice)
    return .palette(palette)
}

private let adminWatchTimer = Effect.after(seconds: AdminWatch.interval, action: .watchAdmin, id: .adminWatch)
private let toastTimer = Effect.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)

/// Issue 33: the palette's "Switch world" and "New world from scenario", each step accounted for by the harness.
@Suite struct WorldSwitchTests {
    @Test func aBackendThatServesNoWorldsGetsNoWorldEntries() {
        var state = AppState(now: start)
        state.options.backendURL = server
        _ = reduce(&state, .input(.key(.control("p"))))
        _ = reduce(&state, .failure(.server(status: 404, code: "not_found", message: "No route."), to: RequestID(2)))
        let titles = palette(state)?.commands.map(\.title) ?? []
        #expect(!titles.contains { $0.hasPrefix("Switch world") || $0.hasPrefix("New world") })
    }

    @Test func theListedWorldsAreOfferedWithTheCurrentOneMarked() {
        let titles = palette(paletteTyped(""))?.commands.map(\.title) ?? []
        #expect(titles.contains("Switch world: default (current)"))
        #expect(titles.contains("Switch world: alice"))
        #expect(titles.contains("New world from scenario…"))
    }

    /// "Switch world: alice": from Enter until the answer the old world's screens take no key and the strip
    /// says so; then the app lands on alice's start, signed in as QA there, in world alice.
    @Test func switchWorldBlocksTheOldWorldThenLandsOnTheNewWorldsStart() {
        let state = paletteTyped("switch world alice")
        #expect(palette(state)?.selected?.action == .switchWorld("alice"))
        let harness = ReducerHarness(state)
        let enter = EnterWorld(name: "alice")
        harness.send(.input(.key(.enter)), effects: [.request(enter, id: 3)]) {
            $0.overlay = nil
            $0.console.switching = "world alice"
            $0.pending[RequestID(3)] = $0.waiting(.console, EnterWorld.self)
            $0.nextRequestID = 4
        }
        #expect(StatusStrip.parts(harness.state).first == "Switching to world alice\u{2026}")
        // No key reaches the old world's screens, nor opens anything over them.
        for key: Key in [.down, .enter, .escape, .character("q"), .control("p"), .character("?")] {
            harness.send(.input(.key(key)))
        }

        let methods = SampleData.everyMethod
        let entered = WorldEntered(name: "alice", signedIn: QASignedIn(methods: methods, profile: nil))
        harness.send(
            .reply(entered, to: RequestID(3)),
            effects: [toastTimer, .request(Endpoint.AdminState(), id: 4), adminWatchTimer]
        ) {
            $0.pending[RequestID(3)] = nil
            $0.console.switching = nil
            $0.console.worlds = nil
            $0.options.world = "alice"
            $0.options.backendURL = server + "/w/alice"
            $0.methods = methods
            $0.methodsFetchedAt = start
            $0.stack = [AppRoutes.signedIn(profile: nil)]
            $0.toast = Toast("World: alice", shownAt: start)
            $0.pending[RequestID(4)] = $0.waiting(.console, Endpoint.AdminState.self)
            $0.nextRequestID = 5
        }
        #expect(harness.state.stack.map(\.id) == ["settings"])
        #expect(StatusStrip.parts(harness.state).contains("world alice"))
        harness.expectRunning(toastTimer, adminWatchTimer)
    }

    /// "Switch world: default" goes back to the bare base URL; a world whose scenario starts signed out lands
    /// on Welcome.
    @Test func theDefaultWorldIsTheBareBaseURL() {
        var state = AppState(now: start)
        state.options.backendURL = server + "/w/alice"
        state.options.world = "alice"
        _ = runPaletteAction(.switchWorld(nil), in: &state)
        let harness = ReducerHarness(state)
        harness.send(
            .reply(WorldEntered(name: nil, signedIn: nil), to: RequestID(1)),
            effects: [toastTimer, .request(Endpoint.AdminState(), id: 2), adminWatchTimer]
        ) {
            $0.pending[RequestID(1)] = nil
            $0.console.switching = nil
            $0.options.world = nil
            $0.options.backendURL = server
            $0.stack = [AppRoutes.signedOut]
            $0.toast = Toast("World: default", shownAt: start)
            $0.pending[RequestID(2)] = $0.waiting(.console, Endpoint.AdminState.self)
            $0.nextRequestID = 3
        }
        harness.expectRunning(toastTimer, adminWatchTimer)
    }

    /// `world bob no-phone`: the backend is asked to make bob from no-phone, then the app lands there.
    @Test func newWorldFromScenarioMakesItThenLandsThere() {
        let state = paletteTyped("world bob no-phone")
        #expect(palette(state)?.selected?.title == "New world bob from scenario no-phone")
        let harness = ReducerHarness(state)
        let enter = EnterWorld(name: "bob", newFrom: "no-phone")
        harness.send(.input(.key(.enter)), effects: [.request(enter, id: 3)]) {
            $0.overlay = nil
            $0.console.switching = "world bob"
            $0.pending[RequestID(3)] = $0.waiting(.console, EnterWorld.self)
            $0.nextRequestID = 4
        }
        harness.send(.input(.key(.character("x"))))
        harness.send(
            .reply(WorldEntered(name: "bob", signedIn: nil), to: RequestID(3)),
            effects: [toastTimer, .request(Endpoint.AdminState(), id: 4), adminWatchTimer]
        ) {
            $0.pending[RequestID(3)] = nil
            $0.console.switching = nil
            $0.console.worlds = nil
            $0.options.world = "bob"
            $0.options.backendURL = server + "/w/bob"
            $0.stack = [AppRoutes.signedOut]
            $0.toast = Toast("World: bob", shownAt: start)
            $0.pending[RequestID(4)] = $0.waiting(.console, Endpoint.AdminState.self)
            $0.nextRequestID = 5
        }
        #expect(StatusStrip.parts(harness.state).contains("world bob"))
        harness.expectRunning(toastTimer, adminWatchTimer)
    }

    /// A name against the rule is said as it is typed; Enter on it does nothing, the palette stays.
    @Test func aNewWorldsNameIsCheckedAsTyped() {
        let state = paletteTyped("world Bob no-phone")
        #expect(palette(state)?.selected?.title.hasPrefix("World name 'Bob': A world's name is lower-case") == true)
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.enter)))
    }

    /// The backend refuses the new world (a bad name, taken, over the cap): the app stays where it was, and
    /// the palette opens again on what was typed with the backend's reason first; typing on takes the reason
    /// away and keeps the command.
    @Test(arguments: [
        APIError.server(status: 400, code: "invalid_world_name", message: "A world's name is lower-case."),
        APIError.server(status: 409, code: "world_exists", message: "World alice exists already."),
        APIError.server(status: 409, code: "world_limit", message: "200 worlds are open; the limit is 200."),
    ])
    func aRefusedNewWorldIsShownInThePaletteWithWhatWasTyped(refused: APIError) {
        let typed = "world alice no-phone"
        let harness = ReducerHarness(paletteTyped(typed))
        let enter = EnterWorld(name: "alice", newFrom: "no-phone")
        harness.send(.input(.key(.enter)), effects: [.request(enter, id: 3)]) {
            $0.overlay = nil
            $0.console.switching = "world alice"
            $0.pending[RequestID(3)] = $0.waiting(.console, EnterWorld.self)
            $0.nextRequestID = 4
        }
        harness.send(.failure(refused, to: RequestID(3)), effects: [.request(Endpoint.AdminListWorlds(), id: 4)]) {
            $0.pending[RequestID(3)] = nil
            $0.console.switching = nil
            $0.overlay = reopened($0, search: typed, notice: "World alice not made: \(refused.message)")
            $0.pending[RequestID(4)] = $0.waiting(.console, Endpoint.AdminListWorlds.self)
            $0.nextRequestID = 5
        }
        #expect(harness.state.options.world == nil)
        #expect(harness.state.stack.map(\.id) == ["settings", "hub"])
        #expect(palette(harness.state)?.query == typed)
        #expect(palette(harness.state)?.selected?.title == "World alice not made: \(refused.message)")
        var retyped = harness.state
        _ = reduce(&retyped, .input(.key(.character("x"))))
        #expect(palette(retyped)?.selected?.title == "New world alice from scenario no-phonex")
    }
}
